/// A STUN message (RFC 8489 §5, §6): type, transaction ID and attributes; parsed from a datagram or written to one
/// with MESSAGE-INTEGRITY (HMAC-SHA1, §14.5) and FINGERPRINT (§14.7).
///
/// Parsing checks the header, the attribute framing and the shape of every known attribute (errors name the byte
/// offset); it keeps the datagram so that ``hasValidIntegrity(key:)`` and ``hasValidFingerprint`` can check what
/// was received. Unknown comprehension-required attributes are not an error here: ``unknownComprehensionRequiredTypes``
/// lists them so that a server answers 420 (§6.3.1).
///
/// ```swift
/// let request = try STUNMessage(parsing: datagram)
/// guard request.hasValidIntegrity(key: Array(localPassword.utf8)) else { … 401 … }
/// var response = STUNMessage(type: .bindingSuccess, transactionID: request.transactionID)
/// response.attributes.append(.xorMappedAddress(sender, transactionID: request.transactionID))
/// let bytes = response.serialized(integrityKey: Array(localPassword.utf8), addingFingerprint: true)
/// ```
public struct STUNMessage: Hashable, Sendable {
    /// The magic cookie, 0x2112A442 (§5).
    public static let magicCookie: UInt32 = 0x2112_A442
    static let magicCookieBytes: [UInt8] = [0x21, 0x12, 0xA4, 0x42]
    /// The most attributes a parsed message may have (a hostile peer's many empty attributes are refused).
    public static let maximumAttributeCount = 64
    /// FINGERPRINT's XOR constant, "STUN" in ASCII (§14.7).
    public static let fingerprintXOR: UInt32 = 0x5354_554E

    /// The type.
    public var type: STUNMessageType
    /// The 12-byte transaction ID (§5).
    public var transactionID: [UInt8]
    /// The attributes in order; a parsed message's include MESSAGE-INTEGRITY and FINGERPRINT as received,
    /// ``serialized(integrityKey:addingFingerprint:padding:)`` leaves those two out and computes them anew.
    public var attributes: [STUNAttribute]
    /// The datagram the message was parsed from (empty for one built here), to check integrity and fingerprint.
    public private(set) var received: [UInt8] = []
    /// Byte offset of the MESSAGE-INTEGRITY attribute in ``received``.
    private var integrityOffset: Int?
    /// Byte offset of the FINGERPRINT attribute in ``received``.
    private var fingerprintOffset: Int?

    /// A message to send.
    /// - Parameters:
    ///   - type: the type.
    ///   - transactionID: 12 bytes (a request's must be random: §6); shorter is padded with zeros, longer cut.
    ///   - attributes: the attributes.
    public init(type: STUNMessageType, transactionID: [UInt8], attributes: [STUNAttribute] = []) {
        self.type = type
        self.transactionID = Array((transactionID + [UInt8](repeating: 0, count: 12)).prefix(12))
        self.attributes = attributes
    }

    /// Whether a datagram looks like STUN (RFC 7983 §7: first byte 0–3; and the magic cookie, §5), without parsing it.
    /// - Parameter bytes: the datagram.
    /// - Returns: whether to hand it to ``init(parsing:)``.
    public static func isSTUN<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        bytes.count >= 20 && bytes[bytes.startIndex] < 4
            && bytes[bytes.startIndex + 4] == 0x21 && bytes[bytes.startIndex + 5] == 0x12
            && bytes[bytes.startIndex + 6] == 0xA4 && bytes[bytes.startIndex + 7] == 0x42
    }

    /// Parses one datagram (§5, §14).
    /// - Parameter bytes: the datagram, exactly one message.
    /// - Throws: ``STUNError`` naming what is wrong and its byte offset.
    public init(parsing bytes: [UInt8]) throws(STUNError) {
        guard bytes.count >= 20 else { throw .tooShort(count: bytes.count) }
        guard bytes[0] & 0xC0 == 0 else { throw .notSTUN(offset: 0) }
        guard Array(bytes[4..<8]) == Self.magicCookieBytes else { throw .notSTUN(offset: 4) }
        let length = Int(bytes[2]) << 8 | Int(bytes[3])
        guard length % 4 == 0, length == bytes.count - 20 else { throw .lengthMismatch(declared: length, available: bytes.count - 20) }
        type = STUNMessageType(rawValue: UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        transactionID = Array(bytes[8..<20])
        attributes = []
        received = bytes
        var offset = 20
        while offset < bytes.count {
            guard bytes.count - offset >= 4 else { throw .attributeOverrun(type: 0, offset: offset) }
            let attributeType = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            let valueLength = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let padded = (valueLength + 3) & ~3
            guard bytes.count - offset - 4 >= padded else { throw .attributeOverrun(type: attributeType, offset: offset) }
            guard attributes.count < Self.maximumAttributeCount else { throw .tooManyAttributes(limit: Self.maximumAttributeCount) }
            // §14.5, §14.7: after MESSAGE-INTEGRITY only MESSAGE-INTEGRITY-SHA256 and FINGERPRINT; after FINGERPRINT nothing.
            if fingerprintOffset != nil
                || (integrityOffset != nil && attributeType != STUNAttribute.fingerprintType
                    && attributeType != STUNAttribute.messageIntegritySHA256Type) {
                throw .attributeAfterIntegrity(type: attributeType, offset: offset)
            }
            let value = Array(bytes[(offset + 4)..<(offset + 4 + valueLength)])
            try Self.check(type: attributeType, value: value, offset: offset)
            if attributeType == STUNAttribute.messageIntegrityType { integrityOffset = offset }
            if attributeType == STUNAttribute.fingerprintType { fingerprintOffset = offset }
            attributes.append(STUNAttribute(type: attributeType, value: value))
            offset += 4 + padded
        }
    }

    /// Checks the shape of the known attributes (§14, RFC 8445 §16.1).
    private static func check(type: UInt16, value: [UInt8], offset: Int) throws(STUNError) {
        func require(_ condition: Bool, _ name: String, _ reason: @autoclosure () -> String) throws(STUNError) {
            if !condition { throw .invalidAttribute(name: name, offset: offset, reason: reason()) }
        }
        switch type {
        case STUNAttribute.xorMappedAddressType, STUNAttribute.mappedAddressType, STUNAttribute.alternateServerType:
            let name = type == STUNAttribute.xorMappedAddressType ? "XOR-MAPPED-ADDRESS" : type == STUNAttribute.mappedAddressType ? "MAPPED-ADDRESS" : "ALTERNATE-SERVER"
            try require(value.count >= 4 && (value[1] == 1 || value[1] == 2), name, "family \(value.count >= 2 ? Int(value[1]) : -1) is neither 1 (IPv4) nor 2 (IPv6)")
            try require(value.count == (value[1] == 1 ? 8 : 20), name, "a length of \(value.count) (\(value[1] == 1 ? 8 : 20) expected)")
        case STUNAttribute.usernameType:
            try require(value.count <= 513, "USERNAME", "\(value.count) bytes is over 513")
        case STUNAttribute.messageIntegrityType:
            try require(value.count == 20, "MESSAGE-INTEGRITY", "a length of \(value.count) (20 expected)")
        case STUNAttribute.messageIntegritySHA256Type:
            try require(value.count >= 16 && value.count <= 32 && value.count % 4 == 0, "MESSAGE-INTEGRITY-SHA256", "a length of \(value.count) (16 to 32, a multiple of 4)")
        case STUNAttribute.fingerprintType:
            try require(value.count == 4, "FINGERPRINT", "a length of \(value.count) (4 expected)")
        case STUNAttribute.errorCodeType:
            try require(value.count >= 4, "ERROR-CODE", "a length of \(value.count) (at least 4)")
            try require((3...6).contains(value[2] & 0x07) && value[3] < 100, "ERROR-CODE", "class \(value[2] & 0x07) number \(value[3]) is not a code from 300 to 699")
        case STUNAttribute.unknownAttributesType:
            try require(value.count % 2 == 0, "UNKNOWN-ATTRIBUTES", "an odd length of \(value.count)")
        case STUNAttribute.priorityType:
            try require(value.count == 4, "PRIORITY", "a length of \(value.count) (4 expected)")
        case STUNAttribute.useCandidateType:
            try require(value.isEmpty, "USE-CANDIDATE", "a length of \(value.count) (0 expected)")
        case STUNAttribute.iceControlledType, STUNAttribute.iceControllingType:
            try require(value.count == 8, type == STUNAttribute.iceControlledType ? "ICE-CONTROLLED" : "ICE-CONTROLLING", "a length of \(value.count) (8 expected)")
        default:
            break
        }
    }

    // MARK: reading attributes

    /// The first attribute of a type, or `nil`.
    /// - Parameter type: the type.
    /// - Returns: the attribute.
    public func attribute(_ type: UInt16) -> STUNAttribute? {
        attributes.first { $0.type == type }
    }

    /// USERNAME as text (§14.3), for ICE `ufragOfReceiver:ufragOfSender`.
    public var username: String? {
        attribute(STUNAttribute.usernameType).map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// SOFTWARE as text (§14.14).
    public var software: String? {
        attribute(STUNAttribute.softwareType).map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// XOR-MAPPED-ADDRESS decoded with this message's transaction ID (§14.2).
    public var xorMappedAddress: STUNAddress? {
        guard let value = attribute(STUNAttribute.xorMappedAddressType)?.value, value.count == 8 || value.count == 20 else { return nil }
        let decoded = STUNAttribute.xorAddressValue(STUNAddress(address: Array(value[4...]), port: UInt16(value[2]) << 8 | UInt16(value[3])),
                                                    transactionID: transactionID)
        return STUNAddress(address: Array(decoded[4...]), port: UInt16(decoded[2]) << 8 | UInt16(decoded[3]))
    }

    /// MAPPED-ADDRESS (§14.1).
    public var mappedAddress: STUNAddress? {
        guard let value = attribute(STUNAttribute.mappedAddressType)?.value, value.count == 8 || value.count == 20 else { return nil }
        return STUNAddress(address: Array(value[4...]), port: UInt16(value[2]) << 8 | UInt16(value[3]))
    }

    /// ERROR-CODE (§14.8): the code (300–699) and the reason phrase.
    public var errorCode: (code: Int, reason: String)? {
        guard let value = attribute(STUNAttribute.errorCodeType)?.value, value.count >= 4 else { return nil }
        return (Int(value[2] & 0x07) * 100 + Int(value[3]), String(decoding: value[4...], as: UTF8.self))
    }

    /// UNKNOWN-ATTRIBUTES (§14.13): the types listed.
    public var unknownAttributes: [UInt16]? {
        guard let value = attribute(STUNAttribute.unknownAttributesType)?.value else { return nil }
        return stride(from: 0, to: value.count - 1, by: 2).map { UInt16(value[$0]) << 8 | UInt16(value[$0 + 1]) }
    }

    /// PRIORITY (RFC 8445 §7.1.1).
    public var priority: UInt32? {
        attribute(STUNAttribute.priorityType).flatMap { $0.value.count == 4 ? UInt32(STUNAttribute.readBigEndian($0.value[...])) : nil }
    }

    /// Whether USE-CANDIDATE is present (RFC 8445 §7.1.2): the controlling agent nominates the pair.
    public var hasUseCandidate: Bool { attribute(STUNAttribute.useCandidateType) != nil }

    /// ICE-CONTROLLING's tie-breaker (RFC 8445 §7.1.3).
    public var iceControlling: UInt64? {
        attribute(STUNAttribute.iceControllingType).flatMap { $0.value.count == 8 ? STUNAttribute.readBigEndian($0.value[...]) : nil }
    }

    /// ICE-CONTROLLED's tie-breaker (RFC 8445 §7.1.3).
    public var iceControlled: UInt64? {
        attribute(STUNAttribute.iceControlledType).flatMap { $0.value.count == 8 ? STUNAttribute.readBigEndian($0.value[...]) : nil }
    }

    /// The comprehension-required attribute types (below 0x8000) this module does not understand, in order: a server
    /// answers a request that has any with 420 and UNKNOWN-ATTRIBUTES (§6.3.1.1).
    public var unknownComprehensionRequiredTypes: [UInt16] {
        attributes.filter { $0.isComprehensionRequired && !STUNAttribute.understoodTypes.contains($0.type) }.map(\.type)
    }

    // MARK: integrity and fingerprint

    /// Whether the message carries MESSAGE-INTEGRITY.
    public var hasIntegrity: Bool { integrityOffset != nil }

    /// Checks MESSAGE-INTEGRITY (§14.5): the HMAC-SHA1 under `key` of the datagram up to the attribute, with the
    /// header's length counting up to the attribute's end.
    /// - Parameter key: for short-term credentials (ICE) the password's bytes; for long-term
    ///   MD5(username ":" realm ":" password) (§9.2.2).
    /// - Returns: `false` when the attribute is absent or does not match.
    public func hasValidIntegrity(key: [UInt8]) -> Bool {
        guard let offset = integrityOffset, offset + 24 <= received.count else { return false }
        var covered = Array(received[..<offset])
        let length = offset + 24 - 20
        covered[2] = UInt8(length >> 8)
        covered[3] = UInt8(length & 0xFF)
        return Self.constantTimeEqual(SHA1.hmac(key: key, message: covered), Array(received[(offset + 4)..<(offset + 24)]))
    }

    /// Whether FINGERPRINT is present and equals the CRC-32 of the datagram before it, XOR 0x5354554E (§14.7);
    /// `nil` when there is no FINGERPRINT.
    public var hasValidFingerprint: Bool? {
        guard let offset = fingerprintOffset, offset + 8 <= received.count else { return nil }
        let expected = CRC32.checksum(received[..<offset]) ^ Self.fingerprintXOR
        return UInt32(STUNAttribute.readBigEndian(received[(offset + 4)..<(offset + 8)])) == expected
    }

    // MARK: writing

    /// The message as a datagram (§5, §14): the header, every attribute but MESSAGE-INTEGRITY and FINGERPRINT, then
    /// MESSAGE-INTEGRITY when a key is given and FINGERPRINT when asked, computed over what precedes them.
    /// - Parameters:
    ///   - integrityKey: the HMAC-SHA1 key (the ICE password's bytes), or `nil` for none.
    ///   - addingFingerprint: whether to end with FINGERPRINT (ICE requires it: RFC 8445 §7.2.2).
    ///   - padding: the byte that pads values to a multiple of 4; §14 lets it be anything (RFC 5769's vectors use
    ///     0x20), receivers ignore it.
    /// - Returns: the bytes.
    public func serialized(integrityKey: [UInt8]? = nil, addingFingerprint: Bool = false, padding: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), 0, 0] + Self.magicCookieBytes + transactionID
        for attribute in attributes where attribute.type != STUNAttribute.messageIntegrityType && attribute.type != STUNAttribute.fingerprintType {
            let value = attribute.value.prefix(0xFFFF)
            bytes += [UInt8(attribute.type >> 8), UInt8(attribute.type & 0xFF), UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
            bytes += value
            bytes += [UInt8](repeating: padding, count: (4 - value.count % 4) % 4)
        }
        func setLength(_ length: Int) {
            bytes[2] = UInt8(length >> 8 & 0xFF)
            bytes[3] = UInt8(length & 0xFF)
        }
        if let integrityKey {
            setLength(bytes.count - 20 + 24)
            let code = SHA1.hmac(key: integrityKey, message: bytes)
            bytes += [0x00, 0x08, 0x00, 0x14] + code
        }
        if addingFingerprint {
            setLength(bytes.count - 20 + 8)
            let crc = CRC32.checksum(bytes) ^ Self.fingerprintXOR
            bytes += [0x80, 0x28, 0x00, 0x04] + STUNAttribute.bigEndian(UInt64(crc), count: 4)
        }
        setLength(bytes.count - 20)
        return bytes
    }

    private static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<left.count { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
