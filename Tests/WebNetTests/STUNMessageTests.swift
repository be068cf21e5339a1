import Foundation
import RTSPMessages
import STUN
import Testing

/// RFC 5769's test vectors (the RFC's own bytes), and what our writer makes of the same parameters.
enum RFC5769 {
    static let password = Array("VOkJxbRl1RmTxUk/WvJxBt".utf8)
    static let transactionID: [UInt8] = [0xB7, 0xE7, 0xA7, 0x01, 0xBC, 0x34, 0xD6, 0x86, 0xFA, 0x87, 0xDF, 0xAE]

    /// §2.1 Sample Request.
    static let request: [UInt8] = [
        0x00, 0x01, 0x00, 0x58, 0x21, 0x12, 0xA4, 0x42, 0xB7, 0xE7, 0xA7, 0x01, 0xBC, 0x34, 0xD6, 0x86, 0xFA, 0x87, 0xDF, 0xAE,
        0x80, 0x22, 0x00, 0x10, 0x53, 0x54, 0x55, 0x4E, 0x20, 0x74, 0x65, 0x73, 0x74, 0x20, 0x63, 0x6C, 0x69, 0x65, 0x6E, 0x74,
        0x00, 0x24, 0x00, 0x04, 0x6E, 0x00, 0x01, 0xFF, 0x80, 0x29, 0x00, 0x08, 0x93, 0x2F, 0xF9, 0xB1, 0x51, 0x26, 0x3B, 0x36,
        0x00, 0x06, 0x00, 0x09, 0x65, 0x76, 0x74, 0x6A, 0x3A, 0x68, 0x36, 0x76, 0x59, 0x20, 0x20, 0x20,
        0x00, 0x08, 0x00, 0x14, 0x9A, 0xEA, 0xA7, 0x0C, 0xBF, 0xD8, 0xCB, 0x56, 0x78, 0x1E, 0xF2, 0xB5, 0xB2, 0xD3, 0xF2, 0x49,
        0xC1, 0xB5, 0x71, 0xA2, 0x80, 0x28, 0x00, 0x04, 0xE5, 0x7A, 0x3B, 0xCF,
    ]
    /// §2.2 Sample IPv4 Response (192.0.2.1 port 32853).
    static let ipv4Response: [UInt8] = [
        0x01, 0x01, 0x00, 0x3C, 0x21, 0x12, 0xA4, 0x42, 0xB7, 0xE7, 0xA7, 0x01, 0xBC, 0x34, 0xD6, 0x86, 0xFA, 0x87, 0xDF, 0xAE,
        0x80, 0x22, 0x00, 0x0B, 0x74, 0x65, 0x73, 0x74, 0x20, 0x76, 0x65, 0x63, 0x74, 0x6F, 0x72, 0x20,
        0x00, 0x20, 0x00, 0x08, 0x00, 0x01, 0xA1, 0x47, 0xE1, 0x12, 0xA6, 0x43,
        0x00, 0x08, 0x00, 0x14, 0x2B, 0x91, 0xF5, 0x99, 0xFD, 0x9E, 0x90, 0xC3, 0x8C, 0x74, 0x89, 0xF9, 0x2A, 0xF9, 0xBA, 0x53,
        0xF0, 0x6B, 0xE7, 0xD7, 0x80, 0x28, 0x00, 0x04, 0xC0, 0x7D, 0x4C, 0x96,
    ]
    /// §2.3 Sample IPv6 Response (2001:db8:1234:5678:11:2233:4455:6677 port 32853).
    static let ipv6Response: [UInt8] = [
        0x01, 0x01, 0x00, 0x48, 0x21, 0x12, 0xA4, 0x42, 0xB7, 0xE7, 0xA7, 0x01, 0xBC, 0x34, 0xD6, 0x86, 0xFA, 0x87, 0xDF, 0xAE,
        0x80, 0x22, 0x00, 0x0B, 0x74, 0x65, 0x73, 0x74, 0x20, 0x76, 0x65, 0x63, 0x74, 0x6F, 0x72, 0x20,
        0x00, 0x20, 0x00, 0x14, 0x00, 0x02, 0xA1, 0x47, 0x01, 0x13, 0xA9, 0xFA, 0xA5, 0xD3, 0xF1, 0x79, 0xBC, 0x25, 0xF4, 0xB5,
        0xBE, 0xD2, 0xB9, 0xD9,
        0x00, 0x08, 0x00, 0x14, 0xA3, 0x82, 0x95, 0x4E, 0x4B, 0xE6, 0x7B, 0xF1, 0x17, 0x84, 0xC9, 0x7C, 0x82, 0x92, 0xC2, 0x75,
        0xBF, 0xE3, 0xED, 0x41, 0x80, 0x28, 0x00, 0x04, 0xC8, 0xFB, 0x0B, 0x4C,
    ]
    /// §2.4 Sample Request with Long-Term Authentication (no FINGERPRINT).
    static let longTermRequest: [UInt8] = [
        0x00, 0x01, 0x00, 0x60, 0x21, 0x12, 0xA4, 0x42, 0x78, 0xAD, 0x34, 0x33, 0xC6, 0xAD, 0x72, 0xC0, 0x29, 0xDA, 0x41, 0x2E,
        0x00, 0x06, 0x00, 0x12, 0xE3, 0x83, 0x9E, 0xE3, 0x83, 0x88, 0xE3, 0x83, 0xAA, 0xE3, 0x83, 0x83, 0xE3, 0x82, 0xAF, 0xE3,
        0x82, 0xB9, 0x00, 0x00,
        0x00, 0x15, 0x00, 0x1C, 0x66, 0x2F, 0x2F, 0x34, 0x39, 0x39, 0x6B, 0x39, 0x35, 0x34, 0x64, 0x36, 0x4F, 0x4C, 0x33, 0x34,
        0x6F, 0x4C, 0x39, 0x46, 0x53, 0x54, 0x76, 0x79, 0x36, 0x34, 0x73, 0x41,
        0x00, 0x14, 0x00, 0x0B, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x2E, 0x6F, 0x72, 0x67, 0x00,
        0x00, 0x08, 0x00, 0x14, 0xF6, 0x70, 0x24, 0x65, 0x6D, 0xD6, 0x4A, 0x3E, 0x02, 0xB8, 0xE0, 0x71, 0x2E, 0x85, 0xC9, 0xA2,
        0x8C, 0xA8, 0x96, 0x66,
    ]
}

@Suite("STUN messages (RFC 8489) against RFC 5769's vectors")
struct STUNMessageTests {
    @Test("§2.1: the request parses (SOFTWARE, PRIORITY, ICE-CONTROLLED, USERNAME), its integrity and fingerprint check, and we write it byte for byte")
    func sampleRequest() throws {
        let message = try STUNMessage(parsing: RFC5769.request)
        #expect(message.type == .bindingRequest)
        #expect(message.transactionID == RFC5769.transactionID)
        #expect(message.software == "STUN test client")
        #expect(message.priority == 0x6E00_01FF)
        #expect(message.iceControlled == 0x932F_F9B1_5126_3B36)
        #expect(message.username == "evtj:h6vY")
        #expect(message.hasValidIntegrity(key: RFC5769.password))
        #expect(!message.hasValidIntegrity(key: Array("wrong".utf8)))
        #expect(message.hasValidFingerprint == true)
        #expect(message.unknownComprehensionRequiredTypes.isEmpty)

        let written = STUNMessage(type: .bindingRequest, transactionID: RFC5769.transactionID, attributes: [
            .software("STUN test client"), .priority(0x6E00_01FF), .iceControlled(0x932F_F9B1_5126_3B36), .username("evtj:h6vY"),
        ]).serialized(integrityKey: RFC5769.password, addingFingerprint: true, padding: 0x20)
        #expect(written == RFC5769.request)
    }

    @Test("§2.2 and §2.3: XOR-MAPPED-ADDRESS decodes to the RFC's IPv4 and IPv6 addresses; we write both byte for byte")
    func sampleResponses() throws {
        let ipv4 = try STUNMessage(parsing: RFC5769.ipv4Response)
        #expect(ipv4.type == .bindingSuccess)
        let address4 = STUNAddress(address: [192, 0, 2, 1], port: 32853)
        #expect(ipv4.xorMappedAddress == address4)
        #expect(ipv4.hasValidIntegrity(key: RFC5769.password))
        #expect(ipv4.hasValidFingerprint == true)
        let written4 = STUNMessage(type: .bindingSuccess, transactionID: RFC5769.transactionID, attributes: [
            .software("test vector"), .xorMappedAddress(address4, transactionID: RFC5769.transactionID),
        ]).serialized(integrityKey: RFC5769.password, addingFingerprint: true, padding: 0x20)
        #expect(written4 == RFC5769.ipv4Response)

        let ipv6 = try STUNMessage(parsing: RFC5769.ipv6Response)
        let address6 = STUNAddress(address: [0x20, 0x01, 0x0D, 0xB8, 0x12, 0x34, 0x56, 0x78, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77],
                                   port: 32853)
        #expect(ipv6.xorMappedAddress == address6)
        #expect(ipv6.xorMappedAddress?.description == "[2001:db8:1234:5678:11:2233:4455:6677]:32853")
        #expect(ipv6.hasValidIntegrity(key: RFC5769.password))
        #expect(ipv6.hasValidFingerprint == true)
        let written6 = STUNMessage(type: .bindingSuccess, transactionID: RFC5769.transactionID, attributes: [
            .software("test vector"), .xorMappedAddress(address6, transactionID: RFC5769.transactionID),
        ]).serialized(integrityKey: RFC5769.password, addingFingerprint: true, padding: 0x20)
        #expect(written6 == RFC5769.ipv6Response)
    }

    @Test("§2.4: long-term credentials — the key MD5(username:realm:password) checks the integrity")
    func longTermRequest() throws {
        let message = try STUNMessage(parsing: RFC5769.longTermRequest)
        #expect(message.username == "\u{30DE}\u{30C8}\u{30EA}\u{30C3}\u{30AF}\u{30B9}")
        #expect(message.hasValidFingerprint == nil)
        let key = MD5.digest(Array("\u{30DE}\u{30C8}\u{30EA}\u{30C3}\u{30AF}\u{30B9}:example.org:TheMatrIX".utf8))
        #expect(message.hasValidIntegrity(key: key))
        #expect(!message.hasValidIntegrity(key: RFC5769.password))
    }

    @Test("A changed byte breaks the fingerprint and the integrity; malformed messages are errors naming the offset")
    func corruption() throws {
        var bytes = RFC5769.request
        bytes[30] ^= 0x01  // inside SOFTWARE
        let corrupted = try STUNMessage(parsing: bytes)
        #expect(corrupted.hasValidFingerprint == false)
        #expect(!corrupted.hasValidIntegrity(key: RFC5769.password))

        #expect(throws: STUNError.tooShort(count: 19)) { try STUNMessage(parsing: Array(RFC5769.request.prefix(19))) }
        var cookie = RFC5769.request
        cookie[5] = 0
        #expect(throws: STUNError.notSTUN(offset: 4)) { try STUNMessage(parsing: cookie) }
        var overrun = RFC5769.request
        overrun[22] = 0x01  // SOFTWARE claims 272 bytes
        #expect(throws: STUNError.attributeOverrun(type: 0x8022, offset: 20)) { try STUNMessage(parsing: overrun) }
        var priority = RFC5769.request
        priority[43] = 0x08  // PRIORITY of 8 bytes (then the framing still fits: 4 + 8 = 12 bytes = PRIORITY + ICE-CONTROLLED header)
        #expect(throws: STUNError.invalidAttribute(name: "PRIORITY", offset: 40, reason: "a length of 8 (4 expected)")) {
            try STUNMessage(parsing: priority)
        }
        // Something after FINGERPRINT.
        let trailing = STUNMessage(type: .bindingRequest, transactionID: RFC5769.transactionID).serialized(addingFingerprint: true)
            + [0x80, 0x22, 0x00, 0x00]
        var lengthFixed = trailing
        lengthFixed[3] = UInt8(trailing.count - 20)
        #expect(throws: STUNError.attributeAfterIntegrity(type: 0x8022, offset: 28)) { try STUNMessage(parsing: lengthFixed) }
    }

    @Test("Unknown comprehension-required attributes are reported; unknown optional ones are not")
    func unknownAttributes() throws {
        let bytes = STUNMessage(type: .bindingRequest, transactionID: RFC5769.transactionID, attributes: [
            STUNAttribute(type: 0x7777, value: [1, 2, 3]), STUNAttribute(type: 0xC057, value: [0, 0, 0, 1]), .useCandidate,
        ]).serialized()
        let message = try STUNMessage(parsing: bytes)
        #expect(message.unknownComprehensionRequiredTypes == [0x7777])
        #expect(message.hasUseCandidate)
        let error = STUNMessage(type: .bindingError, transactionID: RFC5769.transactionID, attributes: [
            .errorCode(420, reason: "Unknown Attribute"), .unknownAttributes([0x7777]),
        ])
        let parsed = try STUNMessage(parsing: error.serialized())
        #expect(parsed.errorCode?.code == 420)
        #expect(parsed.errorCode?.reason == "Unknown Attribute")
        #expect(parsed.unknownAttributes == [0x7777])
    }

    @Test("Message types interleave method and class bits (RFC 8489 §5)")
    func messageTypes() {
        #expect(STUNMessageType.bindingRequest.rawValue == 0x0001)
        #expect(STUNMessageType.bindingIndication.rawValue == 0x0011)
        #expect(STUNMessageType.bindingSuccess.rawValue == 0x0101)
        #expect(STUNMessageType.bindingError.rawValue == 0x0111)
        for raw in stride(from: UInt16(0), to: 0x3FFF, by: 7) { #expect(STUNMessageType(rawValue: raw).rawValue == raw) }
    }

    @Test("SHA-1 and HMAC-SHA1 match FIPS 180's and RFC 2202's examples; CRC-32 the check value")
    func digests() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.hash([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))) == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(hex(SHA1.hmac(key: [UInt8](repeating: 0xAA, count: 80), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
