import Testing
import TestSupport
@testable import SRTP

/// The SRTP transform against the test vectors of RFC 3711 Appendix B and RFC 7714 §16–§17, byte for byte.
@Suite struct SRTPVectorTests {
    #if OpenSSL
    /// RFC 3711 B.3: the session keys of one master key (key derivation rate 0).
    @Test func keyDerivationAppendixB3() throws {
        let masterKey = Hex.bytes("E1F97A0D3E018BE0D64FA32C06DE4139")
        let masterSalt = Hex.bytes("0EC675AD498AFEEBB6960B3AABE6")
        #expect(try SRTPKeyDerivation.derive(masterKey: masterKey, masterSalt: masterSalt, label: 0, length: 16)
            == Hex.bytes("C61E7A93744F39EE10734AFE3FF7A087"))
        #expect(try SRTPKeyDerivation.derive(masterKey: masterKey, masterSalt: masterSalt, label: 2, length: 14)
            == Hex.bytes("30CBBC08863D8C85D49DB34A9AE1"))
        #expect(try SRTPKeyDerivation.derive(masterKey: masterKey, masterSalt: masterSalt, label: 1, length: 94)
            == Hex.bytes("""
                CEBE321F6FF7716B6FD4AB49AF256A15 6D38BAA48F0A0ACF3C34E2359E6CDBCE E049646C43D9327AD175578EF7227098
                6371C10C9A369AC2F94A8C5FBCDDDC25 6D6E919A48B610EF17C2041E47403576 6B68642C59BBFC2F34DB60DBDFB2
                """))
        let keys = try SRTPSessionKeys(deriving: SRTPKeyingMaterial(profile: .aes128CounterModeHMACSHA1_80,
                                                                    masterKey: masterKey, masterSalt: masterSalt))
        #expect(keys.rtp.encryptionKey == Hex.bytes("C61E7A93744F39EE10734AFE3FF7A087"))
        #expect(keys.rtp.authenticationKey == Hex.bytes("CEBE321F6FF7716B6FD4AB49AF256A156D38BAA4"))
        #expect(keys.rtp.salt == Hex.bytes("30CBBC08863D8C85D49DB34A9AE1"))
        #expect(keys.rtcp.encryptionKey != keys.rtp.encryptionKey)
    }

    /// RFC 3711 B.2: the AES-CM keystream for SSRC 0, ROC 0, SEQ 0 — what protecting a zero payload XORs into it.
    @Test func counterModeKeystreamAppendixB2() throws {
        let keys = try SRTPSessionKeys(
            profile: .aes128CounterModeHMACSHA1_80,
            rtp: .init(encryptionKey: Hex.bytes("2B7E151628AED2A6ABF7158809CF4F3C"),
                       salt: Hex.bytes("F0F1F2F3F4F5F6F7F8F9FAFBFCFD"), authenticationKey: [UInt8](repeating: 0, count: 20)),
            rtcp: .init(encryptionKey: [UInt8](repeating: 0, count: 16), salt: [UInt8](repeating: 0, count: 14),
                        authenticationKey: [UInt8](repeating: 0, count: 20)))
        let context = try SRTPContext(sessionKeys: keys)
        var packet: [UInt8] = [0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 48)
        try context.protectRTP(&packet)
        #expect(Array(packet[12..<60]) == Hex.bytes("""
            E03EAD0935C95E80E166B16DD92B4EB4 D23513162B02D0F72A43A2FE4A5F97AB 41E95B3BB0A2E8DD477901E4FCA894C0
            """))
    }

    static let gcmKeys: SRTPSessionKeys = {
        let keys = SRTPSessionKeys.Keys(encryptionKey: Hex.bytes("000102030405060708090a0b0c0d0e0f"),
                                        salt: Hex.bytes("517569642070726f2071756f"), authenticationKey: [])
        return try! SRTPSessionKeys(profile: .aeadAES128GCM, rtp: keys, rtcp: keys)
    }()

    static let gcmRTP = Hex.bytes("""
        8040f17b 8041f8d3 5501a0b2 47616c6c 69612065 7374206f 6d6e6973 20646976 69736120 696e2070 61727465 73207472 6573
        """)
    static let gcmSRTP = Hex.bytes("""
        8040f17b 8041f8d3 5501a0b2 f24de3a3 fb34de6c acba861c 9d7e4bca be633bd5 0d294e6f 42a5f47a 51c7d19b 36de3adf 8833
        899d7f27 beb16a91 52cf765e e4390cce
        """)
    static let gcmRTCP = Hex.bytes("""
        81c8000d 4d617273 4e545031 4e545032 52545020 0000042a 0000e930 4c756e61 deadbeef deadbeef deadbeef deadbeef deadbeef
        """)
    static let gcmSRTCP = Hex.bytes("""
        81c8000d 4d617273 63e94885 dcdab67c a727d766 2f6b7e99 7ff5c0f7 6c06f32d c676a5f1 730d6fda 4ce09b46 86303ded 0bb9275b
        c84aa458 96cf4d2f c5abf872 45d9eade 800005d4
        """)

    /// RFC 7714 §16.1: AEAD_AES_128_GCM protects the RTP packet into the listed SRTP packet, and back.
    @Test func gcmRTPVector() throws {
        var packet = Self.gcmRTP
        try SRTPContext(sessionKeys: Self.gcmKeys).protectRTP(&packet)
        #expect(Hex.string(packet) == Hex.string(Self.gcmSRTP))
        try SRTPContext(sessionKeys: Self.gcmKeys).unprotectRTP(&packet)
        #expect(packet == Self.gcmRTP)
    }

    /// RFC 7714 §17.1: the SRTCP vector with index 0x5d4 (tag, then E and the index).
    @Test func gcmRTCPVector() throws {
        let sender = try SRTPContext(sessionKeys: Self.gcmKeys)
        try sender.setNextSRTCPIndex(0x5d4, ssrc: 0x4d61_7273)
        var packet = Self.gcmRTCP
        try sender.protectRTCP(&packet)
        #expect(Hex.string(packet) == Hex.string(Self.gcmSRTCP))
        try SRTPContext(sessionKeys: Self.gcmKeys).unprotectRTCP(&packet)
        #expect(packet == Self.gcmRTCP)
    }

    /// A flipped bit anywhere fails authentication with the stream and index named; a packet shorter than its header
    /// and tag is `tooShort`; the same packet twice is `replayed`.
    @Test(arguments: SRTPProtectionProfile.allCases)
    func typedErrors(profile: SRTPProtectionProfile) throws {
        let material = try SRTPKeyingMaterial(profile: profile, masterKey: Array(0..<16),
                                              masterSalt: Array(100..<UInt8(100 + profile.saltLength)))
        let sender = try SRTPContext(material: material)
        var packet: [UInt8] = [0x80, 96, 0x12, 0x34, 0, 0, 0, 1, 0xCA, 0xFE, 0xBA, 0xBE] + Array(repeating: 7, count: 40)
        try sender.protectRTP(&packet)
        for position in [0, 5, 13, packet.count - 1] {
            var altered = packet
            altered[position] ^= 0x01
            #expect(throws: SRTPError.authenticationFailed(ssrc: 0xCAFE_BABE, index: position == 0 ? 0x1234 : 0x1234)) {
                try SRTPContext(material: material).unprotectRTP(&altered)
            }
        }
        var short = Array(packet.prefix(12 + profile.tagLength - 1))
        #expect(throws: SRTPError.tooShort(what: "RTP header and SRTP tag", length: short.count, minimum: 12 + profile.tagLength)) {
            try SRTPContext(material: material).unprotectRTP(&short)
        }
        let receiver = try SRTPContext(material: material)
        var first = packet
        try receiver.unprotectRTP(&first)
        var again = packet
        #expect(throws: SRTPError.replayed(ssrc: 0xCAFE_BABE, index: 0x1234)) { try receiver.unprotectRTP(&again) }
    }

    #endif

    /// The ROC estimate of RFC 3711 §3.3.1 across a wrap, forward and for a late packet from before it.
    @Test func rolloverEstimate() {
        var counter = SRTPRolloverCounter()
        counter.update(index: 0xFFF0)
        #expect(counter.estimate(0x0005) == (1, 0x1_0005))
        counter.update(index: 0x1_0005)
        #expect(counter.rollover == 1)
        #expect(counter.estimate(0xFFF8) == (0, 0xFFF8))  // late, from before the wrap
        #expect(counter.estimate(0x7000) == (1, 0x1_7000))
    }

    /// The replay window remembers 128 indices: inside it a second copy is refused, behind it everything is.
    @Test func replayWindow() {
        var window = SRTPReplayWindow()
        window.accept(1000)
        window.accept(998)
        #expect(window.check(998) == .replayed)
        #expect(window.check(999) == .fresh)
        #expect(window.check(1000 - 127) == .fresh)
        #expect(window.check(1000 - 128) == .tooOld)
        window.accept(1100)
        #expect(window.check(1000) == .replayed)
        #expect(window.check(998) == .replayed)
        #expect(window.check(999) == .fresh)
        window.accept(5000)
        #expect(window.check(1100) == .tooOld)
    }
}
