/// One attribute of a STUN message (RFC 8489 §14): its type and its value as written (without the padding).
///
/// The typed constructors (``xorMappedAddress(_:transactionID:)``, ``errorCode(_:reason:)``, …) build the values
/// defined by RFC 8489 §14 and RFC 8445 §16.1; ``STUNMessage``'s accessors read them back.
public struct STUNAttribute: Hashable, Sendable {
    /// The 16-bit type; below 0x8000 it is comprehension-required (§14).
    public var type: UInt16
    /// The value, without the padding to a multiple of 4 bytes.
    public var value: [UInt8]

    /// An attribute.
    /// - Parameters:
    ///   - type: the type.
    ///   - value: the value.
    public init(type: UInt16, value: [UInt8]) {
        self.type = type
        self.value = value
    }

    /// Whether an agent that does not know the type must reject the message (§14: types 0x0000–0x7FFF).
    public var isComprehensionRequired: Bool { type < 0x8000 }

    /// MAPPED-ADDRESS (§14.1).
    public static let mappedAddressType: UInt16 = 0x0001
    /// USERNAME (§14.3).
    public static let usernameType: UInt16 = 0x0006
    /// MESSAGE-INTEGRITY (§14.5).
    public static let messageIntegrityType: UInt16 = 0x0008
    /// ERROR-CODE (§14.8).
    public static let errorCodeType: UInt16 = 0x0009
    /// UNKNOWN-ATTRIBUTES (§14.9).
    public static let unknownAttributesType: UInt16 = 0x000A
    /// REALM (§14.9).
    public static let realmType: UInt16 = 0x0014
    /// NONCE (§14.10).
    public static let nonceType: UInt16 = 0x0015
    /// MESSAGE-INTEGRITY-SHA256 (§14.6).
    public static let messageIntegritySHA256Type: UInt16 = 0x001C
    /// USERHASH (§14.4).
    public static let userHashType: UInt16 = 0x001E
    /// XOR-MAPPED-ADDRESS (§14.2).
    public static let xorMappedAddressType: UInt16 = 0x0020
    /// PRIORITY (RFC 8445 §16.1).
    public static let priorityType: UInt16 = 0x0024
    /// USE-CANDIDATE (RFC 8445 §16.1).
    public static let useCandidateType: UInt16 = 0x0025
    /// SOFTWARE (§14.14).
    public static let softwareType: UInt16 = 0x8022
    /// ALTERNATE-SERVER (§14.15).
    public static let alternateServerType: UInt16 = 0x8023
    /// FINGERPRINT (§14.7).
    public static let fingerprintType: UInt16 = 0x8028
    /// ICE-CONTROLLED (RFC 8445 §16.1).
    public static let iceControlledType: UInt16 = 0x8029
    /// ICE-CONTROLLING (RFC 8445 §16.1).
    public static let iceControllingType: UInt16 = 0x802A

    /// The comprehension-required types this module understands; any other below 0x8000 is reported by
    /// ``STUNMessage/unknownComprehensionRequiredTypes``.
    public static let understoodTypes: Set<UInt16> = [
        mappedAddressType, usernameType, messageIntegrityType, errorCodeType, unknownAttributesType, realmType, nonceType,
        messageIntegritySHA256Type, userHashType, xorMappedAddressType, priorityType, useCandidateType,
    ]

    /// USERNAME (§14.3): UTF-8, at most 512 bytes; for ICE `remoteUfrag:localUfrag` (RFC 8445 §7.2.2).
    /// - Parameter name: the user name.
    /// - Returns: the attribute.
    public static func username(_ name: String) -> STUNAttribute {
        STUNAttribute(type: usernameType, value: Array(name.utf8))
    }

    /// SOFTWARE (§14.14): a description of the agent, UTF-8, fewer than 128 characters.
    /// - Parameter text: the description.
    /// - Returns: the attribute.
    public static func software(_ text: String) -> STUNAttribute {
        STUNAttribute(type: softwareType, value: Array(text.utf8))
    }

    /// XOR-MAPPED-ADDRESS (§14.2): the address with the port XORed with the cookie's top 16 bits and the address with
    /// the cookie (IPv4) or the cookie and transaction ID (IPv6).
    /// - Parameters:
    ///   - address: the reflexive address.
    ///   - transactionID: the message's 12-byte transaction ID.
    /// - Returns: the attribute.
    public static func xorMappedAddress(_ address: STUNAddress, transactionID: [UInt8]) -> STUNAttribute {
        STUNAttribute(type: xorMappedAddressType, value: xorAddressValue(address, transactionID: transactionID))
    }

    /// MAPPED-ADDRESS (§14.1), the address in the clear (RFC 3489 clients).
    /// - Parameter address: the address.
    /// - Returns: the attribute.
    public static func mappedAddress(_ address: STUNAddress) -> STUNAttribute {
        var value: [UInt8] = [0, address.isIPv6 ? 2 : 1, UInt8(address.port >> 8), UInt8(address.port & 0xFF)]
        value += address.address
        return STUNAttribute(type: mappedAddressType, value: value)
    }

    /// ERROR-CODE (§14.8): class and number of a code from 300 to 699, and a reason phrase.
    /// - Parameters:
    ///   - code: the code, for example 401 or 487.
    ///   - reason: the phrase, for example `Unauthorized`.
    /// - Returns: the attribute.
    public static func errorCode(_ code: Int, reason: String) -> STUNAttribute {
        let clamped = min(max(code, 300), 699)
        return STUNAttribute(type: errorCodeType, value: [0, 0, UInt8(clamped / 100), UInt8(clamped % 100)] + Array(reason.utf8.prefix(763)))
    }

    /// UNKNOWN-ATTRIBUTES (§14.13): the comprehension-required types a 420 response did not understand.
    /// - Parameter types: the types.
    /// - Returns: the attribute.
    public static func unknownAttributes(_ types: [UInt16]) -> STUNAttribute {
        STUNAttribute(type: unknownAttributesType, value: types.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }

    /// PRIORITY (RFC 8445 §7.1.1): the priority a peer-reflexive candidate of the sender would have.
    /// - Parameter priority: the priority.
    /// - Returns: the attribute.
    public static func priority(_ priority: UInt32) -> STUNAttribute {
        STUNAttribute(type: priorityType, value: bigEndian(UInt64(priority), count: 4))
    }

    /// USE-CANDIDATE (RFC 8445 §7.1.2): the controlling agent nominates this pair. No value.
    public static let useCandidate = STUNAttribute(type: useCandidateType, value: [])

    /// ICE-CONTROLLING (RFC 8445 §7.1.3) with the sender's tie-breaker.
    /// - Parameter tieBreaker: the 64-bit tie-breaker.
    /// - Returns: the attribute.
    public static func iceControlling(_ tieBreaker: UInt64) -> STUNAttribute {
        STUNAttribute(type: iceControllingType, value: bigEndian(tieBreaker, count: 8))
    }

    /// ICE-CONTROLLED (RFC 8445 §7.1.3) with the sender's tie-breaker.
    /// - Parameter tieBreaker: the 64-bit tie-breaker.
    /// - Returns: the attribute.
    public static func iceControlled(_ tieBreaker: UInt64) -> STUNAttribute {
        STUNAttribute(type: iceControlledType, value: bigEndian(tieBreaker, count: 8))
    }

    static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (UInt64(count - 1 - $0) * 8)) }
    }

    static func readBigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The XOR-MAPPED-ADDRESS value (§14.2); XOR is its own inverse, so this also decodes the address bytes.
    static func xorAddressValue(_ address: STUNAddress, transactionID: [UInt8]) -> [UInt8] {
        let mask = STUNMessage.magicCookieBytes + transactionID
        let port = address.port ^ 0x2112
        var value: [UInt8] = [0, address.isIPv6 ? 2 : 1, UInt8(port >> 8), UInt8(port & 0xFF)]
        for (index, byte) in address.address.enumerated() { value.append(byte ^ (index < mask.count ? mask[index] : 0)) }
        return value
    }
}
