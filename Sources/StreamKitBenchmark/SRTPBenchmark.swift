// streamkit-benchmark srtp: SRTP/SRTCP protect and unprotect (both profiles) against a memcpy of the same bytes.
import Foundation
import SRTP

/// Times, in the same run, protecting and unprotecting a run of RTP packets of `packetSize` bytes in place (each
/// profile), protecting RTCP packets, and a memcpy of the same bytes; prints MB/s, packets/s and the ratios to the
/// memcpy. Needs the OpenSSL trait (the ciphers are libcrypto's).
/// - Parameters:
///   - packetSize: bytes of each RTP packet (header included).
///   - packets: packets per round.
///   - rounds: timings per measurement (the best is kept).
func benchmarkSRTP(packetSize: Int, packets: Int, rounds: Int) throws {
    let size = max(packetSize, 13)
    let slot = size + 32  // room for the tag and the SRTCP trailer
    let arena = UnsafeMutableRawBufferPointer.allocate(byteCount: slot * packets, alignment: 16)
    let copyDestination = UnsafeMutableRawBufferPointer.allocate(byteCount: slot * packets, alignment: 16)
    defer { arena.deallocate(); copyDestination.deallocate() }
    var random = UInt64(0x9E37_79B9_7F4A_7C15)
    for index in 0..<arena.count {
        random = random &* 6_364_136_223_846_793_005 &+ 1
        arena[index] = UInt8(truncatingIfNeeded: random >> 33)
    }
    let bytes = size * packets
    let copyTime = best(rounds, clock: threadCPUTime) {
        for index in 0..<packets {
            memcpy(copyDestination.baseAddress! + index * slot, arena.baseAddress! + index * slot, size)
        }
        sink &+= Int(copyDestination[slot / 2])
    }
    print("SRTP on \(packets) packets of \(size) bytes (\(String(format: "%.1f", Double(bytes) / 1_048_576)) MB), best of \(rounds)")
    print(String(format: "  memcpy                      %8.0f MB/s", Double(bytes) / copyTime / 1_048_576))
    for profile in SRTPProtectionProfile.allCases {
        let material = try SRTPKeyingMaterial(profile: profile, masterKey: Array(0..<16),
                                              masterSalt: Array(0..<UInt8(profile.saltLength)))
        var sequence: UInt16 = 0
        // Fresh RTP headers for every round: the sender's ROC moves, the receiver's replay window accepts each once.
        func stamp() {
            for index in 0..<packets {
                let packet = arena.baseAddress! + index * slot
                packet.storeBytes(of: 0x80, as: UInt8.self)
                packet.storeBytes(of: 96, toByteOffset: 1, as: UInt8.self)
                packet.storeBytes(of: sequence.bigEndian, toByteOffset: 2, as: UInt16.self)
                packet.storeBytes(of: UInt32(0x1234_5678).bigEndian, toByteOffset: 8, as: UInt32.self)
                sequence &+= 1
            }
        }
        let sender = try SRTPContext(material: material)
        let receiver = try SRTPContext(material: material)
        var protectTotal = 0.0, unprotectTotal = 0.0
        var protectBest = Double.infinity, unprotectBest = Double.infinity
        for _ in 0..<rounds {
            stamp()
            let start = threadCPUTime()
            for index in 0..<packets {
                let buffer = UnsafeMutableRawBufferPointer(rebasing: arena[index * slot..<(index + 1) * slot])
                sink &+= try sender.protectRTP(buffer, length: size)
            }
            let middle = threadCPUTime()
            for index in 0..<packets {
                let buffer = UnsafeMutableRawBufferPointer(rebasing: arena[index * slot..<(index + 1) * slot])
                sink &+= try receiver.unprotectRTP(buffer, length: size + profile.rtpOverhead)
            }
            let end = threadCPUTime()
            protectBest = min(protectBest, middle - start)
            unprotectBest = min(unprotectBest, end - middle)
            protectTotal += middle - start
            unprotectTotal += end - middle
        }
        let rtcpSender = try SRTPContext(material: material)
        let rtcpTime = try best(rounds, clock: threadCPUTime) {
            for index in 0..<packets {
                let packet = arena.baseAddress! + index * slot
                packet.storeBytes(of: 0x81, as: UInt8.self)
                packet.storeBytes(of: UInt32(0x1234_5678).bigEndian, toByteOffset: 4, as: UInt32.self)  // one SSRC
                let buffer = UnsafeMutableRawBufferPointer(rebasing: arena[index * slot..<(index + 1) * slot])
                sink &+= try rtcpSender.protectRTCP(buffer, length: size)
            }
        }
        let name = profile == .aeadAES128GCM ? "AEAD_AES_128_GCM " : "AES_CM_128_HMAC_SHA1_80"
        for (what, time) in [("protect RTP  ", protectBest), ("unprotect RTP", unprotectBest), ("protect RTCP ", rtcpTime)] {
            print(String(format: "  %@ %@ %8.0f MB/s %9.0f packets/s  %5.2fx memcpy time", name, what,
                         Double(bytes) / time / 1_048_576, Double(packets) / time, time / copyTime))
        }
    }
}
