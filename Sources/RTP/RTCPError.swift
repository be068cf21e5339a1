/// Everything that can be wrong with an RTCP packet (RFC 3550 §6, RFC 4585 §6): each case names the byte
/// offset of the packet (from the start of the compound packet) where it went wrong.
public enum RTCPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// Fewer bytes than the structure needs.
    case truncated(offset: Int, needed: Int, available: Int)
    /// The version field is not 2.
    case unsupportedVersion(offset: Int, version: UInt8)
    /// The length field runs past the end of the compound packet.
    case lengthPastEnd(offset: Int, length: Int, available: Int)
    /// The padding count is 0 or larger than the packet.
    case invalidPadding(offset: Int, count: Int)
    /// A packet other than the last of the compound packet has its padding bit set (RFC 3550 §6.4.1, A.2).
    case paddingBeforeLastPacket(offset: Int)
    /// The report or source count says more than the packet's length holds.
    case countPastEnd(offset: Int, packetType: UInt8, count: Int)
    /// An SDES item, or its chunk's terminating null, runs past the end of the packet.
    case sourceDescriptionPastEnd(offset: Int)
    /// The BYE reason's length runs past the end of the packet.
    case goodbyeReasonPastEnd(offset: Int)
    /// A compound packet holds more packets than ``RTCPCompoundPacket/maximumPacketCount``.
    case tooManyPackets(limit: Int)
    /// A value cannot be written: more than 31 report blocks or chunks, an SDES item over 255 bytes …
    case unrepresentable(field: String, value: Int, limit: Int)

    /// A sentence that says what is wrong and where.
    public var description: String {
        switch self {
        case .empty:
            return "RTCP: empty packet"
        case let .truncated(offset, needed, available):
            return "RTCP packet at byte \(offset): needs \(needed) bytes, has \(available)"
        case let .unsupportedVersion(offset, version):
            return "RTCP packet at byte \(offset): version \(version), expected 2"
        case let .lengthPastEnd(offset, length, available):
            return "RTCP packet at byte \(offset): length field says \(length) bytes, only \(available) remain"
        case let .invalidPadding(offset, count):
            return "RTCP packet at byte \(offset): padding count \(count) is 0 or longer than the packet"
        case let .paddingBeforeLastPacket(offset):
            return "RTCP packet at byte \(offset): padding bit set on a packet that is not the last of the compound"
        case let .countPastEnd(offset, type, count):
            return "RTCP packet at byte \(offset) (type \(type)): count \(count) does not fit in its length"
        case let .sourceDescriptionPastEnd(offset):
            return "RTCP SDES at byte \(offset): an item runs past the end of the packet"
        case let .goodbyeReasonPastEnd(offset):
            return "RTCP BYE at byte \(offset): the reason runs past the end of the packet"
        case let .tooManyPackets(limit):
            return "RTCP: more than \(limit) packets in one compound packet"
        case let .unrepresentable(field, value, limit):
            return "RTCP: \(field) of \(value) exceeds \(limit)"
        }
    }
}
