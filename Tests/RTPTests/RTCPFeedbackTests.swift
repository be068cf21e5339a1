import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// RTCP feedback to a sender and RFC 4588 retransmission against aiortc's own RTCP and RTX code (`aiortc.rtp`): what
/// it writes we read, what we write it reads, and our rtx packet is byte for byte its `wrap_rtx`.
@Suite("RTCP feedback (PLI, FIR, NACK) and RTX against aiortc")
struct RTCPFeedbackTests {
    static var aiortc: Bool { PythonPeers.isRunnable("aiortc") }

    @Test("A compound packet aiortc writes (RR, PLI, generic NACK, FIR) gives the key-frame requests and lost numbers", .enabled(if: aiortc))
    func readsAiortcFeedback() async throws {
        let hex = try await PythonPeers.run("""
        from struct import pack
        from aiortc.rtp import RtcpRrPacket, RtcpPsfbPacket, RtcpRtpfbPacket
        packets = [RtcpRrPacket(ssrc=0xAAAA), RtcpPsfbPacket(fmt=1, ssrc=0xAAAA, media_ssrc=0x1111),
                   RtcpRtpfbPacket(fmt=1, ssrc=0xAAAA, media_ssrc=0x2222, lost=[100, 101, 105, 130, 65535]),
                   RtcpPsfbPacket(fmt=4, ssrc=0xAAAA, media_ssrc=0, fci=pack("!LBxxx", 0x3333, 7) + pack("!LBxxx", 0x4444, 9))]
        print(b"".join(bytes(p) for p in packets).hex())
        """).trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = try #require(Self.bytes(hex: hex))
        let requests = try RTCPFeedbackRequests(parsing: ByteView(bytes))
        #expect(requests.keyFrameSSRCs == [0x1111, 0x3333, 0x4444])
        #expect(requests.fullIntraRequests == [0x3333: 7, 0x4444: 9])
        #expect(requests.lostSequenceNumbers == [0x2222: [100, 101, 105, 130, 65535]])
        #expect(!requests.isEmpty)
    }

    @Test("Our FIR is read by aiortc's RTCP parser as payload-specific feedback FMT 4 with our entries", .enabled(if: aiortc))
    func aiortcReadsOurFIR() async throws {
        let fir = RTCPFullIntraRequest(senderSSRC: 0xABCD_EF01, entries: [.init(ssrc: 0x1234_5678, sequenceNumber: 200), .init(ssrc: 5, sequenceNumber: 1)])
        let bytes = try fir.serialized()
        let text = try await PythonPeers.run("""
        import sys
        from struct import unpack
        from aiortc.rtp import RtcpPacket
        (p,) = RtcpPacket.parse(bytes.fromhex(sys.argv[1]))
        entries = [unpack("!LBxxx", p.fci[i:i + 8]) for i in range(0, len(p.fci), 8)]
        print(type(p).__name__, p.fmt, p.ssrc, p.media_ssrc, entries)
        """, [bytes.map { String(format: "%02x", $0) }.joined()]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == "RtcpPsfbPacket 4 \(0xABCD_EF01) 0 [(\(0x1234_5678), 200), (5, 1)]")
        let reread = try RTCPFeedbackRequests(parsing: ByteView(bytes))
        #expect(reread.fullIntraRequests == [0x1234_5678: 200, 5: 1])
    }

    @Test("An RFC 4588 retransmission is byte for byte aiortc's wrap_rtx, marker and CSRCs included", .enabled(if: aiortc))
    func retransmissionMatchesAiortc() async throws {
        let text = try await PythonPeers.run("""
        import os, random
        from aiortc.rtp import RtpPacket, wrap_rtx
        random.seed(4588)
        for marker, csrc in [(True, []), (False, [7, 8]), (True, [1])]:
            p = RtpPacket(payload_type=102, marker=marker, sequence_number=random.randrange(65536),
                          timestamp=random.randrange(1 << 32), ssrc=0x1234, payload=os.urandom(random.randrange(1, 300)))
            p.csrc = csrc
            rtx = wrap_rtx(p, payload_type=103, sequence_number=4000, ssrc=0x5678)
            print(p.serialize().hex(), rtx.serialize().hex())
        """)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            let original = try #require(Self.bytes(hex: parts[0])), expected = try #require(Self.bytes(hex: parts[1]))
            #expect(RTPRetransmission.packet(repairing: original, payloadType: 103, ssrc: 0x5678, sequenceNumber: 4000) == expected)
        }
        #expect(RTPRetransmission.packet(repairing: [0x80, 0x60, 0, 1], payloadType: 103, ssrc: 1, sequenceNumber: 1) == nil)
    }

    @Test("The send history keeps the newest packets by sequence number, reusing its slots, and forgets the oldest")
    func sendHistory() {
        var history = RTPSendHistory(capacity: 3, maximumPacketSize: 64)
        func packet(_ number: UInt16, _ fill: UInt8) -> [UInt8] {
            [0x80, 96, UInt8(number >> 8), UInt8(number & 0xFF), 0, 0, 0, 0, 0, 0, 0, 1, fill, fill]
        }
        for (number, fill) in [(65534, 1), (65535, 2), (0, 3), (1, 4)] as [(UInt16, UInt8)] {
            packet(number, fill).withUnsafeBytes { history.record($0) }
        }
        #expect(history.packet(65534) == nil)
        #expect(history.packet(65535) == packet(65535, 2))
        #expect(history.packet(0) == packet(0, 3))
        #expect(history.packet(1) == packet(1, 4))
        [UInt8](repeating: 0x80, count: 65).withUnsafeBytes { history.record($0) }  // too long: not kept
        #expect(history.packet(65535) == packet(65535, 2))
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
        }.reduce(into: [UInt8]?([])) { result, byte in
            guard let byte else { result = nil; return }
            result?.append(byte)
        }
    }
}
