/// Why an RTSP client or publisher (``RTSPClient``, ``RTSPPublisher``) could not go on.
public enum RTSPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL cannot be used.
    case invalidURL(String, reason: String)
    /// The connection or a socket failed.
    case transport(TransportError)
    /// The server answered a request with an error status (RFC 2326 §7.1.1).
    case refused(method: String, status: Int, reason: String)
    /// The server demands credentials and none were given, or they were refused.
    case unauthorized(method: String, challenge: String)
    /// The server's answer breaks RFC 2326 (what, where).
    case malformedResponse(String)
    /// The server closed the connection.
    case connectionClosed
    /// No answer within the time allowed.
    case timedOut(method: String, seconds: Int)
    /// The server's answer lacks what the next step needs (for example a Session header).
    case missing(String, method: String)
    /// An RTP or RTCP packet too large for an interleaved frame (65535 bytes).
    case packetTooLarge(Int)
    /// A track number that ``RTSPClient/setup(control:transport:)`` never gave out.
    case unknownTrack(Int)

    /// For example `SETUP: the server answered 461 Unsupported Transport`.
    public var description: String {
        switch self {
        case let .invalidURL(url, reason): return "the URL \(url) \(reason)"
        case let .transport(error): return error.description
        case let .refused(method, status, reason): return "\(method): the server answered \(status) \(reason)"
        case let .unauthorized(method, challenge):
            return "\(method): the server wants credentials (\(challenge.isEmpty ? "no challenge" : challenge)); give them in the URL or refused"
        case let .malformedResponse(what): return "malformed RTSP response: \(what)"
        case .connectionClosed: return "the server closed the RTSP connection"
        case let .timedOut(method, seconds): return "\(method): no answer within \(seconds) s"
        case let .missing(what, method): return "\(method): the answer has no \(what)"
        case let .packetTooLarge(count): return "a packet of \(count) bytes does not fit an interleaved frame (65535 at most)"
        case let .unknownTrack(track): return "no track \(track) was set up"
        }
    }
}
