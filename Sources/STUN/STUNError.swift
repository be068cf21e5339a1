/// A datagram that is not a well-formed STUN message (RFC 8489 §5, §14): what is wrong and at which byte offset.
public enum STUNError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer than the 20 bytes of a header.
    case tooShort(count: Int)
    /// The first two bits are not zero or the magic cookie is not 0x2112A442 (§5): not STUN at all.
    case notSTUN(offset: Int)
    /// The header's length is not a multiple of 4 or does not match the datagram (§5).
    case lengthMismatch(declared: Int, available: Int)
    /// An attribute's value runs past the end of the message (its type and the offset of its header).
    case attributeOverrun(type: UInt16, offset: Int)
    /// More attributes than ``STUNMessage/maximumAttributeCount``.
    case tooManyAttributes(limit: Int)
    /// An attribute other than MESSAGE-INTEGRITY-SHA256 or FINGERPRINT after MESSAGE-INTEGRITY, or any after
    /// FINGERPRINT (§14.5, §14.7).
    case attributeAfterIntegrity(type: UInt16, offset: Int)
    /// A known attribute whose value does not have its defined shape (its name, the offset of its header, and why).
    case invalidAttribute(name: String, offset: Int, reason: String)

    /// For example `STUN: XOR-MAPPED-ADDRESS at byte 32: a length of 7 (8 or 20 expected)`.
    public var description: String {
        switch self {
        case let .tooShort(count): return "STUN: \(count) bytes is shorter than a 20-byte header"
        case let .notSTUN(offset): return "STUN: not a STUN message (leading bits or magic cookie, byte \(offset))"
        case let .lengthMismatch(declared, available):
            return "STUN: the header's length \(declared) does not fit the \(available) bytes after the header (or is not a multiple of 4)"
        case let .attributeOverrun(type, offset):
            return "STUN: attribute 0x\(String(type, radix: 16)) at byte \(offset) runs past the end of the message"
        case let .tooManyAttributes(limit): return "STUN: more than \(limit) attributes"
        case let .attributeAfterIntegrity(type, offset):
            return "STUN: attribute 0x\(String(type, radix: 16)) at byte \(offset) follows MESSAGE-INTEGRITY or FINGERPRINT"
        case let .invalidAttribute(name, offset, reason): return "STUN: \(name) at byte \(offset): \(reason)"
        }
    }
}
