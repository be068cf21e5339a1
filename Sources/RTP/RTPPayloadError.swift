/// A malformed or unsupported payload in one RTP packet: the packet is dropped, the access unit it belonged to
/// is reported lost, and the depacketizer goes on with the next packet.
public enum RTPPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload is empty (or shorter than the payload header).
    case truncatedPayload(sequenceNumber: UInt16, size: Int)
    /// A packet type this receiver does not take: the interleaved-mode types of RFC 6184 (STAP-B 25, MTAP16 26,
    /// MTAP24 27, FU-B 29), H.265 PACI (50), or a reserved type.
    case unsupportedPacketType(sequenceNumber: UInt16, type: UInt8, name: String)
    /// A NAL unit inside an aggregation packet has a size of 0 or runs past the end of the payload.
    case malformedAggregation(sequenceNumber: UInt16, byteOffset: Int)
    /// The stream uses decoding order numbers (RFC 7798 sprop-max-don-diff > 0), which this receiver does not
    /// take.
    case decodingOrderNumbersUnsupported(maximumDONDifference: Int)
    /// The AU header section of an RFC 3640 packet is malformed.
    case malformedAUHeaders(sequenceNumber: UInt16, reason: String)
    /// The payload is not an Opus packet (RFC 7587 §4.2: one whole Opus packet, RFC 6716 §3): the reason names
    /// the field of the table-of-contents byte.
    case malformedOpusPacket(sequenceNumber: UInt16, reason: String)

    /// What is wrong and in which packet.
    public var description: String {
        switch self {
        case let .truncatedPayload(sequence, size):
            return "RTP payload: packet \(sequence) has a payload of \(size) bytes, too short for its header"
        case let .unsupportedPacketType(sequence, type, name):
            return "RTP payload: packet \(sequence) is of type \(type) (\(name)), which is not supported"
        case let .malformedAggregation(sequence, offset):
            return "RTP payload: aggregation packet \(sequence) is malformed at payload byte \(offset)"
        case let .decodingOrderNumbersUnsupported(difference):
            return "RTP payload: sprop-max-don-diff \(difference) needs DONL fields, which are not supported"
        case let .malformedAUHeaders(sequence, reason):
            return "RTP payload: packet \(sequence): \(reason)"
        case let .malformedOpusPacket(sequence, reason):
            return "RTP payload: packet \(sequence) is not an Opus packet: \(reason)"
        }
    }
}
