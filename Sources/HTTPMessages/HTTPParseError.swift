/// A byte stream that is not HTTP/1.1 (RFC 9112): what is wrong and where (`offset` counts bytes from the start of
/// the connection). After one, the stream cannot be resynchronised: a server answers with ``status`` and closes.
public enum HTTPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No line end within the limit on the request or status line (RFC 9112 §3: 414 for a request).
    case startLineTooLong(limit: Int, offset: Int)
    /// The start line is not `METHOD TARGET HTTP/1.x` nor `HTTP/1.x CODE REASON` (RFC 9112 §3, §4).
    case malformedStartLine(text: String, offset: Int)
    /// A version other than HTTP/1.0 or HTTP/1.1.
    case unsupportedVersion(version: String, offset: Int)
    /// The headers do not end (empty line) within the limit on their total size.
    case headerSectionTooLarge(limit: Int, offset: Int)
    /// More header lines than the limit.
    case tooManyHeaders(limit: Int, offset: Int)
    /// A header line (its 1-based number after the start line) is not `name: value` (RFC 9112 §5).
    case malformedHeader(line: Int, text: String, offset: Int)
    /// A field's value is not what its definition allows (`Content-Length` not a number, two different ones, both
    /// `Content-Length` and `Transfer-Encoding`: RFC 9112 §6.3).
    case invalidHeaderValue(field: String, value: String, offset: Int)
    /// A `Transfer-Encoding` other than `chunked` (RFC 9112 §6.1; a server answers 501).
    case unsupportedTransferEncoding(value: String, offset: Int)
    /// The body (declared or decoded so far) is over the body limit.
    case bodyTooLarge(length: Int, limit: Int, offset: Int)
    /// A chunk of a chunked body is malformed (RFC 9112 §7.1): the chunk-size line or the CRLF after the data.
    case malformedChunk(reason: String, offset: Int)
    /// Bytes at a message boundary that start no message.
    case garbage(byte: UInt8, offset: Int)
    /// The connection ended inside a message (in its headers, or before its declared body arrived).
    case truncated(offset: Int)

    /// The stream offset the error names.
    public var offset: Int {
        switch self {
        case let .startLineTooLong(_, offset), let .malformedStartLine(_, offset), let .unsupportedVersion(_, offset),
             let .headerSectionTooLarge(_, offset), let .tooManyHeaders(_, offset), let .malformedHeader(_, _, offset),
             let .invalidHeaderValue(_, _, offset), let .unsupportedTransferEncoding(_, offset), let .bodyTooLarge(_, _, offset),
             let .malformedChunk(_, offset), let .garbage(_, offset), let .truncated(offset):
            return offset
        }
    }

    /// The status a server answers with: 414 for a long request line, 431 for too many or too large headers
    /// (RFC 6585 §5), 413 for a large body, 501 for an unknown transfer coding, 505 for another version, 400 otherwise.
    public var status: HTTPStatus {
        switch self {
        case .startLineTooLong: .uriTooLong
        case .headerSectionTooLarge, .tooManyHeaders: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedTransferEncoding: .notImplemented
        case .unsupportedVersion: .versionNotSupported
        default: .badRequest
        }
    }

    /// For example `HTTP: the headers are longer than 16384 bytes (stream offset 16384)`.
    public var description: String {
        let at = " (stream offset \(offset))"
        switch self {
        case let .startLineTooLong(limit, _): return "HTTP: the start line is longer than \(limit) bytes" + at
        case let .malformedStartLine(text, _): return "HTTP: malformed start line \"\(text.prefix(80))\"" + at
        case let .unsupportedVersion(version, _): return "HTTP: unsupported version \"\(version.prefix(20))\"" + at
        case let .headerSectionTooLarge(limit, _): return "HTTP: the headers are longer than \(limit) bytes" + at
        case let .tooManyHeaders(limit, _): return "HTTP: more than \(limit) header lines" + at
        case let .malformedHeader(line, text, _): return "HTTP: header line \(line) is not name: value: \"\(text.prefix(80))\"" + at
        case let .invalidHeaderValue(field, value, _): return "HTTP: \(field) \"\(value.prefix(40))\" is invalid" + at
        case let .unsupportedTransferEncoding(value, _): return "HTTP: Transfer-Encoding \"\(value.prefix(40))\" is not supported" + at
        case let .bodyTooLarge(length, limit, _): return "HTTP: a body of \(length) bytes is over the limit of \(limit)" + at
        case let .malformedChunk(reason, _): return "HTTP: chunked body: \(reason)" + at
        case let .garbage(byte, _): return "HTTP: byte 0x\(String(byte, radix: 16)) starts no message" + at
        case .truncated: return "HTTP: the connection ended inside a message" + at
        }
    }
}
