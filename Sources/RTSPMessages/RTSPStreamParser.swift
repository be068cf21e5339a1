import Bitstream

/// Splits the bytes of an RTSP TCP connection into requests, responses and `$` interleaved frames
/// (RFC 2326 §4, §6, §7, §10.12), within hard caps (``RTSPMessageLimits``).
///
/// ``append(_:)`` what the socket read, then call ``next()`` until it returns `nil` (it needs more bytes). An
/// interleaved payload is a view into the appended array (no copy), except for a frame that straddles two
/// appends, which is put together once. A malformed stream is an ``RTSPParseError`` — sticky: every later call
/// throws it again, since the stream cannot be resynchronised.
///
/// ```swift
/// var parser = RTSPStreamParser()
/// parser.append(try await connection.read())
/// while let item = try parser.next() {
///     if case let .request(request) = item { … }
/// }
/// ```
public struct RTSPStreamParser: Sendable {
    /// The caps applied.
    public let limits: RTSPMessageLimits
    private var buffer: [UInt8] = []
    private var position = 0
    /// The stream offset of `buffer[0]`, for errors.
    private var bufferOffset = 0
    /// An interleaved frame completed from the end of one append and the start of the next.
    private var carriedFrame: RTSPInterleavedFrame?
    private var failure: RTSPParseError?

    /// A parser.
    /// - Parameter limits: the caps.
    public init(limits: RTSPMessageLimits = RTSPMessageLimits()) {
        self.limits = limits
    }

    /// How many bytes wait to be parsed.
    public var bufferedByteCount: Int { buffer.count - position }

    /// Adds bytes read from the stream.
    /// - Parameter bytes: the next bytes, in order.
    public mutating func append(_ bytes: [UInt8]) {
        let leftover = buffer.count - position
        if leftover == 0 {
            bufferOffset += buffer.count
            buffer = bytes
            position = 0
            return
        }
        // A frame begun in the last append and finished early in this one: copy just that frame.
        if carriedFrame == nil, leftover >= 4, buffer[position] == 0x24 {
            let total = 4 + (Int(buffer[position + 2]) << 8 | Int(buffer[position + 3]))
            let needed = total - leftover
            if needed > 0, needed <= bytes.count {
                let frame = Array(buffer[(position + 4)...]) + bytes[..<needed]
                carriedFrame = RTSPInterleavedFrame(channel: buffer[position + 1], payload: ByteView(frame))
                bufferOffset += buffer.count + needed
                buffer = bytes
                position = needed
                return
            }
        }
        bufferOffset += position
        buffer = Array(buffer[position...]) + bytes
        position = 0
    }

    /// Takes the next whole message or frame.
    /// - Returns: it, or `nil` when more bytes are needed.
    /// - Throws: ``RTSPParseError`` naming what is wrong (and the same error on every later call).
    public mutating func next() throws(RTSPParseError) -> RTSPStreamItem? {
        if let failure { throw failure }
        if let frame = carriedFrame {
            carriedFrame = nil
            return .interleaved(frame)
        }
        do {
            return try parseNext()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func parseNext() throws(RTSPParseError) -> RTSPStreamItem? {
        // Empty lines between messages are allowed (RFC 2326 §4 follows HTTP/1.1 §4.1).
        while position < buffer.count, buffer[position] == 0x0D || buffer[position] == 0x0A { position += 1 }
        guard position < buffer.count else { return nil }
        let first = buffer[position]
        if first == 0x24 { return interleavedFrame() }
        guard Self.isTokenByte(first) else { throw .garbage(offset: bufferOffset + position, byte: first) }
        guard let section = try headerSection() else { return nil }
        var headers = RTSPHeaders()
        for (index, line) in section.lines.enumerated() {
            let text = String(decoding: buffer[line], as: UTF8.self)
            if let space = text.first, space == " " || space == "\t" {
                // An obsolete folded continuation line: it continues the previous value.
                guard let last = headers.fields.last else { throw .malformedHeader(line: index + 1, text: text) }
                headers.set(last.name, last.value + " " + text.trimmingRTSPWhitespace())
                continue
            }
            guard let colon = text.firstIndex(of: ":") else { throw .malformedHeader(line: index + 1, text: text) }
            let name = text[..<colon]
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else { throw .malformedHeader(line: index + 1, text: text) }
            headers.append(String(name), String(text[text.index(after: colon)...].trimmingRTSPWhitespace()))
        }
        var bodyLength = 0
        if let lengthText = headers["Content-Length"] {
            guard !lengthText.isEmpty, lengthText.utf8.count <= 9, lengthText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let length = Int(lengthText) else { throw .invalidContentLength(lengthText) }
            guard length <= limits.maximumBodyLength else { throw .bodyTooLarge(length: length, limit: limits.maximumBodyLength) }
            bodyLength = length
        }
        guard buffer.count - section.end >= bodyLength else { return nil }
        let body = Array(buffer[section.end..<(section.end + bodyLength)])
        let startLine = String(decoding: buffer[section.startLine], as: UTF8.self)
        let item = try Self.message(startLine: startLine, headers: headers, body: body)
        position = section.end + bodyLength
        return item
    }

    private mutating func interleavedFrame() -> RTSPStreamItem? {
        guard buffer.count - position >= 4 else { return nil }
        let length = Int(buffer[position + 2]) << 8 | Int(buffer[position + 3])
        guard buffer.count - position >= 4 + length else { return nil }
        let payload = ByteView(buffer[(position + 4)..<(position + 4 + length)])
        let channel = buffer[position + 1]
        position += 4 + length
        return .interleaved(RTSPInterleavedFrame(channel: channel, payload: payload))
    }

    /// The ranges of the start line and the header lines (without line ends), and where the body starts; `nil`
    /// when the empty line has not arrived yet.
    private func headerSection() throws(RTSPParseError) -> (startLine: Range<Int>, lines: [Range<Int>], end: Int)? {
        var lineStart = position
        var startLine: Range<Int>?
        var lines: [Range<Int>] = []
        var index = position
        let sectionLimit = position + limits.maximumHeaderSectionLength
        while index < buffer.count {
            if index >= sectionLimit { throw .headerSectionTooLarge(limit: limits.maximumHeaderSectionLength) }
            if buffer[index] == 0x0A {
                var lineEnd = index
                if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if startLine == nil {
                    guard lineEnd - lineStart <= limits.maximumStartLineLength else {
                        throw .startLineTooLong(limit: limits.maximumStartLineLength)
                    }
                    startLine = lineStart..<lineEnd
                } else if lineEnd == lineStart {
                    guard let startLine else { return nil }
                    return (startLine, lines, index + 1)
                } else {
                    lines.append(lineStart..<lineEnd)
                    if lines.count > limits.maximumHeaderCount { throw .tooManyHeaders(limit: limits.maximumHeaderCount) }
                }
                lineStart = index + 1
            } else if startLine == nil, index - position >= limits.maximumStartLineLength + 1 {
                throw .startLineTooLong(limit: limits.maximumStartLineLength)
            }
            index += 1
        }
        return nil
    }

    private static func message(startLine: String, headers: RTSPHeaders, body: [UInt8]) throws(RTSPParseError) -> RTSPStreamItem {
        if startLine.hasPrefix("RTSP/") {
            let parts = startLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { throw .malformedStartLine(startLine) }
            guard parts[0] == "RTSP/1.0" else { throw .unsupportedVersion(String(parts[0])) }
            guard parts[1].utf8.count == 3, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let code = Int(parts[1]),
                  code >= 100 else { throw .malformedStartLine(startLine) }
            let reason = parts.count == 3 ? String(parts[2]) : ""
            var response = RTSPResponse(status: RTSPStatus(code: code, reason: reason), headers: headers, body: body)
            response.version = String(parts[0])
            return .response(response)
        }
        let parts = startLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[0].utf8.allSatisfy(isTokenByte) else { throw .malformedStartLine(startLine) }
        guard parts[2] == "RTSP/1.0" else {
            if parts[2].hasPrefix("RTSP/") { throw .unsupportedVersion(String(parts[2])) }
            throw .malformedStartLine(startLine)
        }
        return .request(RTSPRequest(method: RTSPMethod(rawValue: String(parts[0])), uri: String(parts[1]), headers: headers, body: body))
    }

    /// A `token` character (RFC 2616 §2.2, which RFC 2326 §15 takes): visible ASCII except separators.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""),
             UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="),
             UInt8(ascii: "{"), UInt8(ascii: "}"):
            return false
        default:
            return true
        }
    }
}
