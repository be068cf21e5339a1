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

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case let .invalidURL(url, reason): return "HTTP: the URL \(url) \(reason)"
        case let .transport(error): return "HTTP: \(error)"
        case let .timedOut(timeout): return "HTTP: no whole response within \(timeout)"
        case let .malformedResponse(error): return error.description
        case .closedBeforeResponse: return "HTTP: the server closed the connection before answering"
        }
    }
}
