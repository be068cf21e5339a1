#if OpenSSL
import CAllocationCounter
import Testing
import TestSupport
@testable import SRTP

/// Protect and unprotect work in the caller's buffer: once a stream is known, our transform makes no heap allocation
/// per packet. GCM makes none at all; OpenSSL 3.0's HMAC makes 2 inside libcrypto for each tag (EVP_MAC_init and
/// EVP_MAC_final re-create the digest's provider context; measured with a malloc counter in C), which the count allows.
@Suite struct SRTPAllocationTests {
    @Test(arguments: SRTPProtectionProfile.allCases)
    func noAllocationPerPacket(profile: SRTPProtectionProfile) throws {
        let material = try SRTPKeyingMaterial(profile: profile, masterKey: Array(0..<16),
                                              masterSalt: Array(0..<UInt8(profile.saltLength)))
        let sender = try SRTPContext(material: material)
        let receiver = try SRTPContext(material: material)
        let slot = 1300
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: slot, alignment: 16)
        defer { buffer.deallocate() }
        var failures = 0
        func roundTrip(_ sequence: UInt16) {
            buffer.initializeMemory(as: UInt8.self, repeating: 0x5A)
            buffer[0] = 0x80
            buffer[1] = 96
            buffer[2] = UInt8(sequence >> 8)
            buffer[3] = UInt8(truncatingIfNeeded: sequence)
            buffer[8] = 0xAB
            do {
                let protected = try sender.protectRTP(buffer, length: 1200)
                _ = try receiver.unprotectRTP(buffer, length: protected)
                buffer[0] = 0x81
                let rtcp = try sender.protectRTCP(buffer, length: 1000)
                _ = try receiver.unprotectRTCP(buffer, length: rtcp)
            } catch {
                failures += 1
            }
        }
        roundTrip(65_500)  // the stream's first packet makes its table entry
        let before = streamkit_thread_allocation_count()
        for sequence in 65_501...65_535 { roundTrip(UInt16(sequence)) }
        for sequence in 0...64 { roundTrip(UInt16(sequence)) }  // across the ROC wrap
        let after = streamkit_thread_allocation_count()
        #expect(failures == 0)
        // Per round trip: 4 transforms, 4 HMAC tags for AES-CM (protect and unprotect of RTP and RTCP).
        let libcryptoAllowance = profile == .aeadAES128GCM ? 0 : 100 * 4 * 2
        if before >= 0 { #expect(after - before == libcryptoAllowance, "allocations in 100 round trips") }
        #expect(receiver.receivingRollover(ssrc: 0xAB5A_5A5A) == 1)
    }
}
#endif
