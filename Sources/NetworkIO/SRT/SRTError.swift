/// Why an SRT operation failed.
public enum SRTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// This build has no SRT: StreamKit was built without the `SRT` package trait.
    case unavailable
    /// An `srt://` URL could not be read; `reason` names the part.
    case invalidURL(_ url: String, reason: String)
    /// An option has a value SRT does not accept (for example a passphrase of 5 characters).
    case invalidOption(name: String, reason: String)
    /// The peer (or, for a listener, our own admission policy) refused the connection, with the reason SRT carried in
    /// the handshake (SRT's rejection codes, and the access-control codes from 1000 on).
    case rejected(SRTRejectionReason)
    /// No connection came about: the peer did not answer within the connect timeout, or the address is unreachable.
    case connectionFailed(peer: String, reason: String)
    /// The connection is broken or was closed by the peer.
    case connectionLost
    /// The socket was closed by this side.
    case closed
    /// The send buffer is full and the socket does not wait (``SRTSocket/setSendWaits(_:)``): the link is slower
    /// than the stream.
    case sendBufferFull
    /// A call into libsrt failed for another reason; `reason` is libsrt's text for `code`.
    case library(call: String, reason: String, code: Int)

    /// For example `SRT: the peer refused the connection: wrong passphrase (SRT_REJ_BADSECRET)`.
    public var description: String {
        switch self {
        case .unavailable:
            return "SRT: this streamkit was built without SRT (build with --traits SRT; needs libsrt-openssl-dev)"
        case let .invalidURL(url, reason):
            return "SRT: cannot read the URL \(url): \(reason)"
        case let .invalidOption(name, reason):
            return "SRT: option \(name): \(reason)"
        case let .rejected(reason):
            return "SRT: the connection was refused: \(reason)"
        case let .connectionFailed(peer, reason):
            return "SRT: cannot connect to \(peer): \(reason)"
        case .connectionLost:
            return "SRT: the connection was lost or closed by the peer"
        case .closed:
            return "SRT: the socket is closed"
        case .sendBufferFull:
            return "SRT: the send buffer is full (the link is slower than the stream)"
        case let .library(call, reason, code):
            return "SRT: \(call) failed: \(reason) (libsrt error \(code))"
        }
    }
}
