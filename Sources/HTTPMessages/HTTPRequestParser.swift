/// Splits the bytes a server reads from one connection into requests (RFC 9112 §2–§3, §6–§7), within hard caps
/// (``HTTPMessageLimits``): bodies framed by `Content-Length` or chunked; pipelined requests one after another.
///
/// ``append(_:)`` what the socket read, then call ``next()`` until it returns `nil` (it needs more bytes). A
/// malformed stream is an ``HTTPParseError`` — sticky: every later call throws it again; a server answers with its
/// ``HTTPParseError/status`` and closes.
///
/// ```swift
/// var parser = HTTPRequestParser()
/// parser.append(try await connection.read())
/// while let request = try parser.next() { … }
/// ```
public struct HTTPRequestParser: Sendable {
    private var framer: HTTPMessageFramer

    /// A parser.
    /// - Parameter limits: the caps.
    public init(limits: HTTPMessageLimits = HTTPMessageLimits()) {
        framer = HTTPMessageFramer(limits: limits)
    }

    /// The caps applied.
    public var limits: HTTPMessageLimits { framer.limits }

    /// How many bytes wait to be parsed (a request begun but not finished, when not 0 after ``next()``).
    public var bufferedByteCount: Int { framer.bufferedByteCount }

    /// Whether a request's header section has arrived with `Expect: 100-continue` and its body has not (RFC 9110
    /// §10.1.1): a server that will read the body answers `100 Continue` first.
    public var expectsContinue: Bool {
        framer.headersAwaitingBody?["Expect"]?.lowercased() == "100-continue"
    }

    /// Adds bytes read from the connection.
    /// - Parameter bytes: the next bytes, in order.
    public mutating func append(_ bytes: [UInt8]) {
        framer.append(bytes)
    }

    /// Marks the end of the stream: a request left unfinished then is ``HTTPParseError/truncated(offset:)``.
    public mutating func finish() {
        framer.finish()
    }

    /// Takes the next whole request.
    /// - Returns: it, or `nil` when more bytes are needed.
    /// - Throws: ``HTTPParseError`` naming what is wrong and where (and the same error on every later call).
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        var parsed: (HTTPMethod, String, String)?
        let message = try framer.next { (line, headers, offset) throws(HTTPParseError) -> HTTPMessageFramer.BodyFraming in
            // RFC 9112 §3: method SP request-target SP HTTP-version, single spaces.
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy(HTTPMessageFramer.isTokenByte),
                  !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw .malformedStartLine(text: line, offset: offset)
            }
            try HTTPMessageFramer.checkVersion(parts[2], line: line, offset: offset)
            parsed = (HTTPMethod(rawValue: String(parts[0])), String(parts[1]), String(parts[2]))
            // §6.3 rule 6: a request without either field has no body.
            return try HTTPMessageFramer.declaredFraming(headers, offset: offset, isRequest: true) ?? .none
        }
        guard let message, let (method, target, version) = parsed else { return nil }
        var request = HTTPRequest(method: method, target: target, headers: message.headers, body: message.body)
        request.version = version
        return request
    }
}
