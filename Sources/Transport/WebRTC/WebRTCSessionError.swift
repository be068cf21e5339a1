import RTP
import SRTP

/// Why a ``WebRTCPeerSession`` could not be made from an offer.
public enum WebRTCSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offer is not SDP the answerer can read, or no section can be accepted.
    case offer(SDPError)
    /// The offer lacks an attribute every WebRTC offer has (`ice-ufrag`, `fingerprint`): its name.
    case missingOfferAttribute(String)
    /// The offer's `a=setup` leaves no DTLS role (RFC 5763 §5: it must be `actpass`, `active` or `passive`).
    case setupRole(String)
    /// The DTLS side cannot be set up (a malformed fingerprint, or no OpenSSL in this build:
    /// ``DTLSError/unavailable``).
    case dtls(DTLSError)
    /// The UDP port cannot be bound.
    case transport(TransportError)

    /// A sentence naming what is wrong.
    public var description: String {
        switch self {
        case let .offer(error): "WebRTC offer: \(error)"
        case let .missingOfferAttribute(name): "WebRTC offer: no a=\(name) in any accepted section"
        case let .setupRole(value): "WebRTC offer: a=setup:\(value) leaves us no DTLS role"
        case let .dtls(error): "WebRTC DTLS: \(error)"
        case let .transport(error): "WebRTC transport: \(error)"
        }
    }
}
