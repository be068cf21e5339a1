/// A byte stream that is not RTSP (RFC 2326 §4, §6, §7, §10.12): what is wrong and where. After one, the stream
/// cannot be resynchronised: a server answers with ``status`` and closes the connection.
public enum RTSPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No line end within the limit on the request or status line (a 1 MB request line, for example).
    case startLineTooLong(limit: Int)
    /// The start line is not `METHOD URI RTSP/1.0` nor `RTSP/1.0 CODE REASON`.
    case malformedStartLine(String)
    /// A version other than `RTSP/1.0`.
    case unsupportedVersion(String)
    /// The headers do not end (empty line) within the limit on their total size.
    case headerSectionTooLarge(limit: Int)
    /// More header lines than the limit.
    case tooManyHeaders(limit: Int)
    /// A header line (its 1-based number after the start line) is not `name: value`.
    case malformedHeader(line: Int, text: String)
    /// `Content-Length` is not a decimal number.
    case invalidContentLength(String)
    /// `Content-Length` is over the body limit.
    case bodyTooLarge(length: Int, limit: Int)
    /// Bytes at a message boundary that start neither a message nor a `$` interleaved frame (offset in the stream).
    case garbage(offset: Int, byte: UInt8)

    /// The status a server answers with (RFC 2326 §7.1.1): 414 for a long request line, 413 for a large body,
    /// 505 for another version, 400 otherwise.
    public var status: RTSPStatus {
        switch self {
        case .startLineTooLong: .requestURITooLarge
        case .bodyTooLarge: .requestEntityTooLarge
        case .unsupportedVersion: .versionNotSupported
        default: .badRequest
        }
    }

    /// For example `RTSP: the request line is longer than 8192 bytes`.
    public var description: String {
        switch self {
        case let .startLineTooLong(limit): return "RTSP: the start line is longer than \(limit) bytes"
        case let .malformedStartLine(text): return "RTSP: malformed start line \"\(text.prefix(80))\""
        case let .unsupportedVersion(version): return "RTSP: unsupported version \"\(version.prefix(20))\""
        case let .headerSectionTooLarge(limit): return "RTSP: the headers are longer than \(limit) bytes"
        case let .tooManyHeaders(limit): return "RTSP: more than \(limit) header lines"
        case let .malformedHeader(line, text): return "RTSP: header line \(line) is not name: value: \"\(text.prefix(80))\""
        case let .invalidContentLength(text): return "RTSP: Content-Length \"\(text.prefix(20))\" is not a number"
        case let .bodyTooLarge(length, limit): return "RTSP: a body of \(length) bytes is over the limit of \(limit)"
        case let .garbage(offset, byte): return "RTSP: byte 0x\(String(byte, radix: 16)) at stream offset \(offset) starts no message"
        }
    }
}
