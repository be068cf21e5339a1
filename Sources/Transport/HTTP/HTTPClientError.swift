/// Why an ``HTTPClient`` request failed.
public enum HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// The URL is not one this client can use.
    case invalidURL(String, reason: String)
    /// The connection could not be made or failed (`ECONNREFUSED`, `ECONNRESET`).
    case transport(TransportError)
    /// The whole exchange did not finish within the timeout.
    case timedOut(Duration)
    /// What the server sent is not an HTTP response (the parser's error names the field and offset).
    case malformedResponse(HTTPParseError)
    /// The server closed before answering.
    case closedBeforeResponse
    /// The URL is `https://` and this build has no TLS (it was built without the `OpenSSL` package trait).
    case tlsUnavailable(String)
    /// The TLS handshake of an `https://` exchange failed: the server's certificate was rejected (RFC 5280 path
    /// validation against the client's trust, or the RFC 6125 name check), or the handshake itself failed.
    case tls(TLSError)

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case let .invalidURL(url, reason): return "HTTP: the URL \(url) \(reason)"
        case let .transport(error): return "HTTP: \(error)"
        case let .timedOut(timeout): return "HTTP: no whole response within \(timeout)"
        case let .malformedResponse(error): return error.description
        case .closedBeforeResponse: return "HTTP: the server closed the connection before answering"
        case let .tlsUnavailable(url): return "HTTP: \(url) needs TLS, and https needs the OpenSSL trait: this streamkit was built without it (build with --traits OpenSSL)"
        case let .tls(error): return "HTTPS: \(error)"
        }
    }
}
