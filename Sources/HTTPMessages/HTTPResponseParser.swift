/// Splits the bytes a client reads from one connection into responses (RFC 9112 §4, §6–§7), within hard caps
/// (``HTTPMessageLimits``): bodies framed by `Content-Length`, chunked, or delimited by the server closing.
///
/// A response's framing depends on the request it answers (a HEAD's has no body: RFC 9112 §6.3 rule 1), so
/// ``next(answering:)`` takes its method. When the connection ends, call ``finish()`` and ``next(answering:)`` once
/// more: a body delimited by the close is then complete, and a response cut short is
/// ``HTTPParseError/truncated(offset:)``.
///
/// ```swift
/// var parser = HTTPResponseParser()
/// parser.append(try await connection.read())
/// if let response = try parser.next(answering: .get) { … }
/// ```
public struct HTTPResponseParser: Sendable {
    private var framer: HTTPMessageFramer

    /// A parser.
    /// - Parameter limits: the caps.
    public init(limits: HTTPMessageLimits = HTTPMessageLimits()) {
        framer = HTTPMessageFramer(limits: limits)
    }

    /// The caps applied.
    public var limits: HTTPMessageLimits { framer.limits }

    /// How many bytes wait to be parsed.
    public var bufferedByteCount: Int { framer.bufferedByteCount }

    /// Adds bytes read from the connection.
    /// - Parameter bytes: the next bytes, in order.
    public mutating func append(_ bytes: [UInt8]) {
        framer.append(bytes)
    }

    /// Marks the end of the stream (the server closed).
    public mutating func finish() {
        framer.finish()
    }

    /// Takes the next whole final response; interim 1xx responses (100 Continue) are read and skipped.
    /// - Parameter method: the method of the request it answers.
    /// - Returns: the response, or `nil` when more bytes are needed.
    /// - Throws: ``HTTPParseError`` naming what is wrong and where (and the same error on every later call).
    public mutating func next(answering method: HTTPMethod) throws(HTTPParseError) -> HTTPResponse? {
        while true {
            var parsed: (HTTPStatus, String)?
            let message = try framer.next { (line, headers, offset) throws(HTTPParseError) -> HTTPMessageFramer.BodyFraming in
                // RFC 9112 §4: HTTP-version SP status-code SP [reason-phrase].
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count >= 2 else { throw .malformedStartLine(text: line, offset: offset) }
                try HTTPMessageFramer.checkVersion(parts[0], line: line, offset: offset)
                guard parts[1].utf8.count == 3, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let code = Int(parts[1]),
                      code >= 100 else { throw .malformedStartLine(text: line, offset: offset) }
                let status = HTTPStatus(code: code, reason: parts.count == 3 ? String(parts[2]) : "")
                parsed = (status, String(parts[0]))
                // §6.3 rules 1–2: no body after HEAD, 1xx, 204, 304 (or a 2xx to CONNECT).
                if method == .head || status.forbidsBody || (method.rawValue == "CONNECT" && status.isSuccess) { return .none }
                return try HTTPMessageFramer.declaredFraming(headers, offset: offset, isRequest: false) ?? .untilClose
            }
            guard let message, let (status, version) = parsed else { return nil }
            if (100..<200).contains(status.code) { continue }
            var response = HTTPResponse(status: status, headers: message.headers, body: message.body)
            response.version = version
            return response
        }
    }
}
