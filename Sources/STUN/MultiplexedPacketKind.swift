/// What a datagram on a port that carries STUN, DTLS and SRTP together is, from its first byte (RFC 7983 §7, which
/// updates RFC 5764 §5.1.2).
public enum MultiplexedPacketKind: Hashable, Sendable {
    /// 0–3: STUN.
    case stun
    /// 16–19: ZRTP.
    case zrtp
    /// 20–63: DTLS.
    case dtls
    /// 64–79: TURN channel data.
    case turnChannel
    /// 128–191: RTP or RTCP (tell them apart by the payload type: RFC 5761 §4).
    case rtp
    /// Any other first byte, or an empty datagram: drop it.
    case unknown

    /// Classifies a datagram by its first byte.
    /// - Parameter datagram: the datagram.
    public init<Bytes: Collection>(classifying datagram: Bytes) where Bytes.Element == UInt8 {
        guard let first = datagram.first else {
            self = .unknown
            return
        }
        switch first {
        case 0...3: self = .stun
        case 16...19: self = .zrtp
        case 20...63: self = .dtls
        case 64...79: self = .turnChannel
        case 128...191: self = .rtp
        default: self = .unknown
        }
    }
}
