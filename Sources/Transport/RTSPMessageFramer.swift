/// Splits what an RTSP client reads from its TCP connection into responses and interleaved frames
/// (RFC 2326 §10.12: `$`, a channel byte, a 16-bit length, then the RTP or RTCP packet), with hard
/// caps on the header block and the body so a hostile server cannot exhaust memory.
struct RTSPMessageFramer {
    /// What the framer found.
    enum Message {
        /// A response.
        case response(RTSPResponse)
        /// A request from the server (RFC 2326 allows them; a client answers 501 or ignores it).
        case request(method: String, sequenceNumber: Int?)
        /// An interleaved binary frame.
        case interleaved(channel: UInt8, payload: [UInt8])
    }

    /// The largest header block accepted.
    static let headerLimit = 64 * 1024
    /// The largest body accepted.
    static let bodyLimit = 4 * 1024 * 1024

    private var buffer: [UInt8] = []
    private var start = 0

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, or `nil` when more bytes are needed.
    /// - Throws: ``RTSPClientError/malformedResponse(_:)`` for a status line or header that breaks RFC 2326,
    ///   or a header block or body beyond the caps.
    mutating func next() throws(RTSPClientError) -> Message? {
        let available = buffer.count - start
        guard available > 0 else { return nil }
        if buffer[start] == UInt8(ascii: "$") {
            guard available >= 4 else { return nil }
            let length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            guard available >= 4 + length else { return nil }
            let channel = buffer[start + 1]
            let payload = Array(buffer[(start + 4)..<(start + 4 + length)])
            start += 4 + length
            return .interleaved(channel: channel, payload: payload)
        }
        guard let headerEnd = endOfHeaders() else {
            if available > Self.headerLimit { throw .malformedResponse("a header block longer than \(Self.headerLimit) bytes") }
            return nil
        }
        let text = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw .malformedResponse("an empty message") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("the header line '\(line.prefix(80))' has no ':'") }
            headers.append((String(line[..<colon]).trimmingSpaces(), String(line[line.index(after: colon)...]).trimmingSpaces()))
        }
        let lengthText = headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0"
        guard let length = Int(lengthText), length >= 0 else { throw .malformedResponse("Content-Length '\(lengthText)' is not a length") }
        guard length <= Self.bodyLimit else { throw .malformedResponse("a body of \(length) bytes, over the cap of \(Self.bodyLimit)") }
        guard buffer.count - headerEnd >= length else { return nil }
        let body = Array(buffer[headerEnd..<(headerEnd + length)])
        start = headerEnd + length
        let parts = first.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if first.hasPrefix("RTSP/") {
            guard parts.count >= 2, let status = Int(parts[1]), (100...999).contains(status) else {
                throw .malformedResponse("the status line '\(first.prefix(80))'")
            }
            return .response(RTSPResponse(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: body))
        }
        guard parts.count == 3, parts[2].hasPrefix("RTSP/") else { throw .malformedResponse("the start line '\(first.prefix(80))'") }
        let sequence = headers.first { $0.name.lowercased() == "cseq" }.flatMap { Int($0.value) }
        return .request(method: String(parts[0]), sequenceNumber: sequence)
    }

    /// The index just past the blank line ending the header block (CRLFCRLF, or LFLF from lax servers).
    private func endOfHeaders() -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 0x0A {
                if buffer[index + 1] == 0x0A { return index + 2 }
                if buffer[index + 1] == 0x0D, index + 2 < buffer.count, buffer[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }
}
