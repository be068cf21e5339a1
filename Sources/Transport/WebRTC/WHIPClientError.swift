import RTP

/// Why a WHIP publish (RFC 9725) could not start or went on no longer.
public enum WHIPClientError: Error, Sendable, CustomStringConvertible {
    /// The endpoint URL is not `http://HOST[:PORT]/PATH` (or `https://` in a build with the `OpenSSL` trait): the reason.
    case invalidURL(String, reason: String)
    /// The HTTP exchange failed (connection, time-out, malformed response).
    case http(HTTPClientError)
    /// The endpoint answered the POST with another status than 201 Created (RFC 9725 §4.2): the status and the start
    /// of its body.
    case refused(status: Int, body: String)
    /// The 201 has no `Location` header (RFC 9725 §4.2 requires one).
    case missingLocation
    /// The 201's body is not an answer to our offer: what is wrong with it.
    case answer(SDPError)
    /// The DTLS side cannot be set up or failed (a wrong fingerprint, for example; ``DTLSError/unavailable`` without
    /// OpenSSL).
    case dtls(DTLSError)
    /// The UDP port cannot be bound.
    case transport(TransportError)
    /// ICE and DTLS did not complete within the handshake timeout.
    case handshakeTimedOut(Duration)
    /// The session ended before it connected: why.
    case closed(WebRTCPeerSessionCloseReason)

    /// A sentence naming what is wrong.
    public var description: String {
        switch self {
        case let .invalidURL(url, reason): "WHIP: \(url): \(reason)"
        case let .http(error): "WHIP: \(error)"
        case let .refused(status, body): "WHIP: the endpoint answered \(status)\(body.isEmpty ? "" : ": \(body)")"
        case .missingLocation: "WHIP: the 201 Created has no Location header (RFC 9725 §4.2)"
        case let .answer(error): "WHIP answer: \(error)"
        case let .dtls(error): "WHIP DTLS: \(error)"
        case let .transport(error): "WHIP transport: \(error)"
        case let .handshakeTimedOut(limit): "WHIP: ICE and DTLS did not complete within \(limit)"
        case let .closed(reason): "WHIP: the session ended before it connected: \(reason)"
        }
    }
}
