#if OpenSSL
import Testing
import TestSupport
@testable import SRTP

/// Our SRTP against libsrtp (pylibsrtp), both directions, both profiles, RTP and RTCP, across a sequence-number wrap.
@Suite(.enabled(if: PyLibSRTP.isRunnable, "pylibsrtp is not installed (scripts/install-dependencies.sh)"))
struct PyLibSRTPTests {
    static func libsrtpName(_ profile: SRTPProtectionProfile) -> String {
        profile == .aeadAES128GCM ? "AEAD_AES_128_GCM" : "AES128_CM_SHA1_80"
    }

    static func material(_ profile: SRTPProtectionProfile) throws -> SRTPKeyingMaterial {
        var random = SplitMix64(seed: 0x5EC2E7)
        let key = (0..<profile.keyLength).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let salt = (0..<profile.saltLength).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return try SRTPKeyingMaterial(profile: profile, masterKey: key, masterSalt: salt)
    }

    /// RTP packets of one SSRC from sequence number 65 530 across the wrap to 9 (ROC 0 → 1), with payloads of
    /// different sizes; one with two CSRCs and a header extension.
    static func rtpPackets() -> [[UInt8]] {
        var random = SplitMix64(seed: 42)
        return (0..<16).map { step in
            let sequence = UInt16(truncatingIfNeeded: 65_530 + step)
            let timestamp = UInt32(step * 3000)
            let extended = step == 3
            var packet: [UInt8] = [extended ? 0x92 : 0x80, step == 15 ? 0xE0 : 0x60,
                                   UInt8(sequence >> 8), UInt8(truncatingIfNeeded: sequence),
                                   UInt8(timestamp >> 24), UInt8(truncatingIfNeeded: timestamp >> 16),
                                   UInt8(truncatingIfNeeded: timestamp >> 8), UInt8(truncatingIfNeeded: timestamp),
                                   0x12, 0x34, 0x56, 0x78]
            if extended { packet += [0, 0, 0, 1, 0, 0, 0, 2, 0xBE, 0xDE, 0, 1, 0x10, 0xAA, 0, 0] }
            packet += (0..<(20 + step * 37)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return packet
        }
    }

    /// RTCP compound packets (a sender report with a report block, then SDES) of one SSRC.
    static func rtcpPackets() -> [[UInt8]] {
        (0..<6).map { step in
            [0x81, 200, 0, 12, 0x12, 0x34, 0x56, 0x78] + [UInt8](repeating: UInt8(step), count: 44)
                + [0x81, 202, 0, 3, 0x12, 0x34, 0x56, 0x78, 1, 4, 0x61, 0x62, 0x63, 0x64, 0, 0]
        }
    }

    /// We protect; libsrtp's protection of the same packets is the same bytes, libsrtp unprotects ours, and we
    /// unprotect libsrtp's — across the sequence-number wrap (ROC 0 → 1).
    @Test(arguments: SRTPProtectionProfile.allCases)
    func rtpBothDirections(profile: SRTPProtectionProfile) throws {
        let material = try Self.material(profile)
        let key = material.masterKey + material.masterSalt
        let plain = Self.rtpPackets()
        let sender = try SRTPContext(material: material)
        let ours = try plain.map { packet throws(SRTPError) -> [UInt8] in
            var copy = packet
            try sender.protectRTP(&copy)
            return copy
        }
        #expect(sender.sendingRollover(ssrc: 0x1234_5678) == 1)
        let theirs = try PyLibSRTP.run(.protect, profile: Self.libsrtpName(profile), key: key, packets: plain)
        #expect(theirs.count == plain.count)
        for (index, packet) in theirs.enumerated() {
            #expect(packet.map(Hex.string) == Hex.string(ours[index]), "packet \(index) differs from libsrtp's")
        }
        let opened = try PyLibSRTP.run(.unprotect, profile: Self.libsrtpName(profile), key: key, packets: ours)
        #expect(opened.map { $0 ?? [] } == plain, "libsrtp could not unprotect our packets")
        let receiver = try SRTPContext(material: material)
        for (index, packet) in theirs.enumerated() {
            var copy = try #require(packet)
            try receiver.unprotectRTP(&copy)
            #expect(copy == plain[index], "packet \(index)")
        }
        #expect(receiver.receivingRollover(ssrc: 0x1234_5678) == 1)
    }

    /// The same for RTCP: SRTCP indices, the E flag and the trailer layout of each profile.
    @Test(arguments: SRTPProtectionProfile.allCases)
    func rtcpBothDirections(profile: SRTPProtectionProfile) throws {
        let material = try Self.material(profile)
        let key = material.masterKey + material.masterSalt
        let plain = Self.rtcpPackets()
        let sender = try SRTPContext(material: material)
        let ours = try plain.map { packet throws(SRTPError) -> [UInt8] in
            var copy = packet
            try sender.protectRTCP(&copy)
            return copy
        }
        let opened = try PyLibSRTP.run(.unprotectRTCP, profile: Self.libsrtpName(profile), key: key, packets: ours)
        #expect(opened.map { $0 ?? [] } == plain, "libsrtp could not unprotect our SRTCP packets")
        let theirs = try PyLibSRTP.run(.protectRTCP, profile: Self.libsrtpName(profile), key: key, packets: plain)
        let receiver = try SRTPContext(material: material)
        for (index, packet) in theirs.enumerated() {
            var copy = try #require(packet)
            try receiver.unprotectRTCP(&copy)
            #expect(copy == plain[index], "SRTCP packet \(index)")
        }
        // libsrtp refuses a replay of ours, as we refuse one of theirs.
        var replay = try #require(theirs.last ?? nil)
        #expect(throws: SRTPError.self) { try receiver.unprotectRTCP(&replay) }
    }

    /// libsrtp refuses our packets under a different key, and we refuse its: the tags are really checked.
    @Test(arguments: SRTPProtectionProfile.allCases)
    func wrongKeyIsRefusedBothWays(profile: SRTPProtectionProfile) throws {
        let material = try Self.material(profile)
        var wrongKey = material.masterKey
        wrongKey[0] ^= 1
        let plain = Array(Self.rtpPackets().prefix(3))
        let theirs = try PyLibSRTP.run(.protect, profile: Self.libsrtpName(profile), key: wrongKey + material.masterSalt,
                                       packets: plain)
        let receiver = try SRTPContext(material: material)
        for packet in theirs {
            var copy = try #require(packet)
            #expect(throws: SRTPError.self) { try receiver.unprotectRTP(&copy) }
        }
        let sender = try SRTPContext(material: material)
        let ours = try plain.map { packet throws(SRTPError) -> [UInt8] in
            var copy = packet
            try sender.protectRTP(&copy)
            return copy
        }
        let opened = try PyLibSRTP.run(.unprotect, profile: Self.libsrtpName(profile), key: wrongKey + material.masterSalt,
                                       packets: ours)
        #expect(opened.allSatisfy { $0 == nil })
    }
}
#endif
