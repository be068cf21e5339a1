/// The part both parsers share: a buffer of a connection's bytes, the header section (RFC 9112 §2.1, §5), and the
/// body by its framing (RFC 9112 §6.3: none, `Content-Length`, chunked §7.1, or until the connection closes).
struct HTTPMessageFramer: Sendable {
    /// A message cut out of the stream, before it is typed as a request or a response.
    struct Message {
        /// The start line, without its line end.
        var startLine: String
        /// Its stream offset.
        var startOffset: Int
        /// The fields.
        var headers: HTTPHeaders
        /// The body, de-chunked.
        var body: [UInt8]
    }

    /// How the body of a message is delimited (RFC 9112 §6.3).
    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    let limits: HTTPMessageLimits
    private var buffer: [UInt8] = []
    private var position = 0
    /// The stream offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Where the search for the end of the header section resumes (a slow sender is not scanned from the start again).
    private var searchFrom = 0
    private var failure: HTTPParseError?
    private(set) var isFinished = false
    /// The fields of a message whose header section has arrived but whose body has not all arrived yet.
    private(set) var headersAwaitingBody: HTTPHeaders?

    init(limits: HTTPMessageLimits) {
        self.limits = limits
    }

    var bufferedByteCount: Int { buffer.count - position }

    mutating func append(_ bytes: [UInt8]) {
        if position == buffer.count {
            bufferOffset += buffer.count
            buffer = bytes
            position = 0
            searchFrom = 0
            return
        }
        if position > 0 {
            bufferOffset += position
            searchFrom = max(0, searchFrom - position)
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Marks the end of the stream (the peer closed): a body delimited by the close is complete.
    mutating func finish() {
        isFinished = true
    }

    /// The next whole message, or `nil` when more bytes are needed; a failure is sticky.
    /// - Parameter framing: decides the body's framing from the start line and fields (or throws).
    mutating func next(framing: (String, HTTPHeaders, Int) throws(HTTPParseError) -> BodyFraming) throws(HTTPParseError) -> Message? {
        if let failure { throw failure }
        do {
            return try parseNext(framing: framing)
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func parseNext(framing: (String, HTTPHeaders, Int) throws(HTTPParseError) -> BodyFraming) throws(HTTPParseError) -> Message? {
        // RFC 9112 §2.2: empty lines before a request line are ignored.
        while position < buffer.count, buffer[position] == 0x0D || buffer[position] == 0x0A { position += 1 }
        guard position < buffer.count else {
            return nil
        }
        let first = buffer[position]
        guard Self.isTokenByte(first) else { throw .garbage(byte: first, offset: bufferOffset + position) }
        guard let section = try headerSection() else {
            if isFinished { throw .truncated(offset: bufferOffset + buffer.count) }
            return nil
        }
        var headers = HTTPHeaders()
        for (index, line) in section.lines.enumerated() {
            let text = String(decoding: buffer[line], as: UTF8.self)
            let offset = bufferOffset + line.lowerBound
            // RFC 9112 §5.2: obsolete line folding is rejected in requests; we reject it everywhere.
            guard let colon = text.firstIndex(of: ":") else { throw .malformedHeader(line: index + 1, text: text, offset: offset) }
            let name = text[..<colon]
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw .malformedHeader(line: index + 1, text: text, offset: offset)
            }
            let value = text[text.index(after: colon)...]
            guard !value.utf8.contains(where: { $0 == 0 || $0 == 0x0D }) else {
                throw .malformedHeader(line: index + 1, text: text, offset: offset)
            }
            headers.append(String(name), value.trimmingHTTPWhitespace())
        }
        headersAwaitingBody = nil
        let startLine = String(decoding: buffer[section.startLine], as: UTF8.self)
        let startOffset = bufferOffset + section.startLine.lowerBound
        let bodyStart = section.end
        let body: [UInt8]
        let end: Int
        switch try framing(startLine, headers, startOffset) {
        case .none:
            body = []
            end = bodyStart
        case let .length(length):
            guard length <= limits.maximumBodyLength else {
                throw .bodyTooLarge(length: length, limit: limits.maximumBodyLength, offset: startOffset)
            }
            guard buffer.count - bodyStart >= length else {
                if isFinished { throw .truncated(offset: bufferOffset + buffer.count) }
                headersAwaitingBody = headers
                return nil
            }
            body = Array(buffer[bodyStart..<(bodyStart + length)])
            end = bodyStart + length
        case .chunked:
            guard let (decoded, chunkedEnd) = try chunkedBody(from: bodyStart) else {
                if isFinished { throw .truncated(offset: bufferOffset + buffer.count) }
                headersAwaitingBody = headers
                return nil
            }
            body = decoded
            end = chunkedEnd
        case .untilClose:
            let length = buffer.count - bodyStart
            guard length <= limits.maximumBodyLength else {
                throw .bodyTooLarge(length: length, limit: limits.maximumBodyLength, offset: startOffset)
            }
            guard isFinished else { return nil }
            body = Array(buffer[bodyStart...])
            end = buffer.count
        }
        position = end
        searchFrom = end
        return Message(startLine: startLine, startOffset: startOffset, headers: headers, body: body)
    }

    /// The ranges of the start line and the header lines (without line ends), and where the body starts; `nil`
    /// when the empty line has not arrived yet. Limits are enforced while scanning, so a peer sending an endless
    /// line is stopped at the limit.
    private mutating func headerSection() throws(HTTPParseError) -> (startLine: Range<Int>, lines: [Range<Int>], end: Int)? {
        let sectionLimit = position + limits.maximumHeaderSectionLength
        // Find the end (an empty line) first, resuming where the last search stopped.
        var index = max(searchFrom, position)
        var end: Int?
        while index < buffer.count {
            if index >= sectionLimit {
                throw .headerSectionTooLarge(limit: limits.maximumHeaderSectionLength, offset: bufferOffset + index)
            }
            if buffer[index] == 0x0A {
                // The next line may be the empty one: with too few bytes to tell, look again here after the next append.
                if index + 1 >= buffer.count { break }
                if buffer[index + 1] == 0x0A { end = index + 2; break }
                if buffer[index + 1] == 0x0D {
                    if index + 2 >= buffer.count { break }
                    if buffer[index + 2] == 0x0A { end = index + 3; break }
                }
            }
            index += 1
        }
        searchFrom = index
        // The start line's length is checked whether or not the section is complete.
        var firstLineEnd = position
        while firstLineEnd < buffer.count, buffer[firstLineEnd] != 0x0A { firstLineEnd += 1 }
        var startLength = firstLineEnd - position
        if firstLineEnd < buffer.count, startLength > 0, buffer[firstLineEnd - 1] == 0x0D { startLength -= 1 }
        if startLength > limits.maximumStartLineLength {
            throw .startLineTooLong(limit: limits.maximumStartLineLength, offset: bufferOffset + position)
        }
        guard let end else { return nil }
        var lines: [Range<Int>] = []
        var lineStart = position
        var startLine: Range<Int>?
        var cursor = position
        while cursor < end {
            if buffer[cursor] == 0x0A {
                var lineEnd = cursor
                if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if startLine == nil {
                    startLine = lineStart..<lineEnd
                } else if lineEnd > lineStart {
                    lines.append(lineStart..<lineEnd)
                    if lines.count > limits.maximumHeaderCount {
                        throw .tooManyHeaders(limit: limits.maximumHeaderCount, offset: bufferOffset + lineStart)
                    }
                }
                lineStart = cursor + 1
            }
            cursor += 1
        }
        guard let startLine else { return nil }
        return (startLine, lines, end)
    }

    /// Decodes a chunked body (RFC 9112 §7.1) from `start`: the bytes and where the message ends, or `nil` when it has
    /// not all arrived. Chunk extensions and trailer fields are read and dropped (§7.1.1, §7.1.2).
    private func chunkedBody(from start: Int) throws(HTTPParseError) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = self.lineEnd(from: index, limit: 1024) else { return nil }
            let line = buffer[index..<lineEnd.content]
            var size = 0
            var digits = 0
            for byte in line {
                guard let digit = Self.hexValue(byte) else { break }
                digits += 1
                guard digits <= 15 else { throw .malformedChunk(reason: "a chunk size of more than 15 hex digits", offset: bufferOffset + index) }
                size = size << 4 | digit
            }
            guard digits > 0 else { throw .malformedChunk(reason: "no chunk size", offset: bufferOffset + index) }
            let rest = line.dropFirst(digits)
            if let next = rest.first(where: { $0 != 0x20 && $0 != 0x09 }), next != UInt8(ascii: ";") {
                throw .malformedChunk(reason: "a chunk-size line with more than a size and extensions", offset: bufferOffset + index)
            }
            guard body.count + size <= limits.maximumBodyLength else {
                throw .bodyTooLarge(length: body.count + size, limit: limits.maximumBodyLength, offset: bufferOffset + index)
            }
            index = lineEnd.next
            if size == 0 {
                // Trailer section: lines until an empty one, bounded like a header section.
                var trailerBytes = 0
                while true {
                    guard let trailer = self.lineEnd(from: index, limit: limits.maximumHeaderSectionLength) else { return nil }
                    trailerBytes += trailer.next - index
                    guard trailerBytes <= limits.maximumHeaderSectionLength else {
                        throw .headerSectionTooLarge(limit: limits.maximumHeaderSectionLength, offset: bufferOffset + index)
                    }
                    let empty = trailer.content == index
                    index = trailer.next
                    if empty { return (body, index) }
                }
            }
            guard buffer.count - index >= size + 1 else { return nil }
            body.append(contentsOf: buffer[index..<(index + size)])
            index += size
            if buffer[index] == 0x0A {
                index += 1
            } else if buffer[index] == 0x0D {
                guard index + 1 < buffer.count else { return nil }
                guard buffer[index + 1] == 0x0A else { throw .malformedChunk(reason: "no CRLF after the chunk data", offset: bufferOffset + index) }
                index += 2
            } else {
                throw .malformedChunk(reason: "no CRLF after the chunk data", offset: bufferOffset + index)
            }
        }
    }

    /// The end of the line starting at `start`: where its content ends (before CR LF or LF) and where the next starts.
    private func lineEnd(from start: Int, limit: Int) -> (content: Int, next: Int)? {
        var index = start
        while index < buffer.count, index - start <= limit {
            if buffer[index] == 0x0A {
                let content = index > start && buffer[index - 1] == 0x0D ? index - 1 : index
                return (content, index + 1)
            }
            index += 1
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    /// A `tchar` (RFC 9110 §5.6.2): visible ASCII except delimiters.
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

    /// The body framing the fields declare (RFC 9112 §6.1–§6.3), or `nil` when neither length field is present.
    static func declaredFraming(_ headers: HTTPHeaders, offset: Int, isRequest: Bool) throws(HTTPParseError) -> BodyFraming? {
        let encodings = headers.values(for: "Transfer-Encoding")
        let lengths = headers.values(for: "Content-Length")
        if !encodings.isEmpty {
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace().lowercased() }
            guard codings == ["chunked"] else {
                throw .unsupportedTransferEncoding(value: encodings.joined(separator: ", "), offset: offset)
            }
            // §6.3 rule 3: a request with both is an attack (request smuggling); a response's length is ignored.
            if isRequest, !lengths.isEmpty {
                throw .invalidHeaderValue(field: "Content-Length", value: "with Transfer-Encoding: chunked", offset: offset)
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return nil }
        var length: Int?
        for value in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let text = value.trimmingHTTPWhitespace()
            guard !text.isEmpty, text.utf8.count <= 15, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(text),
                  length == nil || length == number else {
                throw .invalidHeaderValue(field: "Content-Length", value: lengths.joined(separator: ", "), offset: offset)
            }
            length = number
        }
        return length.map { .length($0) }
    }

    /// `HTTP/1.0` or `HTTP/1.1`; another `HTTP/x.y` is an unsupported version, anything else malformed.
    static func checkVersion(_ version: Substring, line: String, offset: Int) throws(HTTPParseError) {
        guard version != "HTTP/1.1", version != "HTTP/1.0" else { return }
        let bytes = Array(version.utf8)
        if bytes.count == 8, version.hasPrefix("HTTP/"), (0x30...0x39).contains(bytes[5]), bytes[6] == UInt8(ascii: "."),
           (0x30...0x39).contains(bytes[7]) {
            throw .unsupportedVersion(version: String(version), offset: offset)
        }
        throw .malformedStartLine(text: line, offset: offset)
    }
}
