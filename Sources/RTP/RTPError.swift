/// A malformed RTP packet (RFC 3550 §5.1), or a buffer too small to write one into.
///
/// Each case names the field that is wrong and the byte offset or counts involved, so a receiver can log
/// which packet it dropped and why.
public enum RTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The datagram holds no bytes at all.
    case empty
    /// Fewer than the 12 bytes of the fixed header.
    case truncatedHeader(count: Int)
    /// The version field (the first two bits) is not 2.
    case unsupportedVersion(UInt8)
    /// The CSRC list (`csrcCount` × 4 bytes after the fixed header) runs past the end of the packet.
    case csrcListPastEnd(csrcCount: Int, packetSize: Int)
    /// The header extension (RFC 3550 §5.3.1) runs past the end of the packet.
    case extensionPastEnd(byteOffset: Int, declaredSize: Int, packetSize: Int)
    /// The padding bit is set and the last octet counts more bytes than the payload area holds (or 0,
    /// which cannot be: the count includes the last octet itself).
    case invalidPadding(paddingCount: Int, available: Int)
    /// The buffer given to ``RTPPacket/write(into:)`` is smaller than the packet.
    case bufferTooSmall(needed: Int, available: Int)
    /// A field given to the packet's initialiser is out of its range.
    case fieldOutOfRange(field: String, value: Int)

    /// What is wrong and where.
    public var description: String {
        switch self {
        case .empty:
            return "RTP: empty packet"
        case let .truncatedHeader(count):
            return "RTP: \(count) bytes is shorter than the 12-byte fixed header"
        case let .unsupportedVersion(version):
            return "RTP: version \(version) is not 2"
        case let .csrcListPastEnd(csrcCount, size):
            return "RTP: CSRC count \(csrcCount) needs \(12 + 4 * csrcCount) header bytes but the packet has \(size)"
        case let .extensionPastEnd(offset, declared, size):
            return "RTP: header extension at byte \(offset) declares \(declared) bytes but the packet has \(size)"
        case let .invalidPadding(padding, available):
            return "RTP: padding count \(padding) at the last byte is invalid (\(available) bytes after the header)"
        case let .bufferTooSmall(needed, available):
            return "RTP: the packet needs \(needed) bytes but the buffer has \(available)"
        case let .fieldOutOfRange(field, value):
            return "RTP: \(field) \(value) is out of range"
        }
    }
}
