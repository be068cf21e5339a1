/// Why a TLS connection failed.
public enum TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// This build has no TLS: StreamKit was built without the `OpenSSL` package trait.
    case unavailable
    /// The server's certificate was refused (RFC 5280 path validation or the RFC 6125 host name check);
    /// `reason` is OpenSSL's text for `code`, for example "self-signed certificate" or "hostname mismatch".
    case certificateRejected(reason: String, code: Int)
    /// The trusted-certificate file could not be loaded.
    case trustFileUnreadable(path: String, reason: String)
    /// The handshake failed for another reason (an alert from the server, no common protocol version, a
    /// connection closed mid-handshake); `reason` is OpenSSL's error text.
    case handshakeFailed(reason: String)
    /// A record after the handshake was malformed or failed its integrity check (RFC 8446 §5).
    case recordFailed(reason: String)
    /// The peer closed the connection without close_notify (RFC 8446 §6.1): the data may be cut short.
    case truncated
    /// OpenSSL could not set up a context or session.
    case setupFailed(reason: String)
    /// The byte stream under TLS failed.
    indirect case transport(TransportError)

    /// For example `TLS: certificate rejected: hostname mismatch (X509 error 62)`.
    public var description: String {
        switch self {
        case .unavailable:
            return "TLS: this streamkit was built without TLS (build with --traits OpenSSL)"
        case let .certificateRejected(reason, code):
            return "TLS: the server's certificate was rejected: \(reason) (X509 error \(code))"
        case let .trustFileUnreadable(path, reason):
            return "TLS: cannot load trusted certificates from \(path): \(reason)"
        case let .handshakeFailed(reason):
            return "TLS: handshake failed: \(reason)"
        case let .recordFailed(reason):
            return "TLS: bad record: \(reason)"
        case .truncated:
            return "TLS: the peer closed the connection without close_notify"
        case let .setupFailed(reason):
            return "TLS: cannot set up OpenSSL: \(reason)"
        case let .transport(error):
            return "TLS: \(error)"
        }
    }
}
