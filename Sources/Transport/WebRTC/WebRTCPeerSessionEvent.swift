import POSIX
import SRTP

/// What happens in a ``WebRTCPeerSession``.
public enum WebRTCPeerSessionEvent: Sendable, Equatable {
    /// ICE nominated the pair and the DTLS handshake completed: media flows to this address, protected with this
    /// profile.
    case connected(SocketAddress, profile: SRTPProtectionProfile)
    /// The peer asked for a key frame of this kind: a picture loss indication (RFC 4585 §6.3.1), or a full intra
    /// request (RFC 5104 §4.3.1) when `fullIntraRequest` is `true`.
    case keyFrameRequested(WebRTCMediaKind, fullIntraRequest: Bool)
    /// A NACK asked for packets: how many were sent again, and how many were no longer kept.
    case retransmitted(sent: Int, missing: Int)
    /// The session ended; it sends nothing more.
    case closed(WebRTCPeerSessionCloseReason)
}

/// Why a ``WebRTCPeerSession`` ended.
public enum WebRTCPeerSessionCloseReason: Sendable, Equatable, CustomStringConvertible {
    /// The owner closed it (the WHEP resource was deleted, or the server stops).
    case closedByOwner
    /// No connectivity check arrived for the consent timeout (RFC 7675 §5.1: consent expired).
    case consentExpired
    /// ICE and DTLS did not complete within the handshake timeout.
    case handshakeTimedOut
    /// The DTLS handshake or a record failed (a wrong fingerprint, for example).
    case dtlsFailed(String)
    /// The peer sent DTLS close_notify or RTCP BYE.
    case peerLeft

    /// A sentence.
    public var description: String {
        switch self {
        case .closedByOwner: "closed"
        case .consentExpired: "ICE consent expired (no check for the consent timeout)"
        case .handshakeTimedOut: "ICE/DTLS did not complete in time"
        case let .dtlsFailed(reason): "DTLS failed: \(reason)"
        case .peerLeft: "the peer left"
        }
    }
}
