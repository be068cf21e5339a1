import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// Real captures we did not make: an H.264 stream from str0m (a WebRTC stack) and an H.265 stream with the
/// file its author depacketized from it.
@Suite(.requiresMedia)
struct CaptureReplayTests {
    static func replay(_ name: String, codec: RTPVideoReceiver.Codec)
        throws -> (frames: [RTPAccessUnit], statistics: RTPVideoReceiver.Statistics, packets: [[UInt8]], receiver: RTPVideoReceiver) {
        let packets = try RTPPeers.udpPayloads(ofPcap: MediaFiles.bytes("rtp/\(name)"))
        var receiver = RTPVideoReceiver(codec: codec)
        var frames: [RTPAccessUnit] = []
        for packet in packets {
            try receiver.receive(ByteView(packet)) { if case .frame(let unit) = $0 { frames.append(unit) } }
        }
        receiver.finish { if case .frame(let unit) = $0 { frames.append(unit) } }
        return (frames, receiver.statistics, packets, receiver)
    }

    @Test func wilsonH265EqualsItsDepacketizedReference() throws {
        let (frames, statistics, packets, _) = try Self.replay("wilson.pcap", codec: .h265)
        #expect(packets.count == 407)
        #expect(statistics.packets.lost == 0 && statistics.framesLost == 0 && statistics.malformedPayloads == 0,
                "\(statistics)")
        let reference = RTPPeers.nalUnits(ofAnnexB: try MediaFiles.bytes("rtp/wilson_raw.h265"))
        let ours = frames.flatMap { $0.nalUnits.map { Array($0) } }
        #expect(ours.count == reference.count)
        #expect(ours == reference, "first difference at \(String(describing: zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
    }

    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func str0mH264DecodesWithoutAnyError() async throws {
        let (frames, statistics, packets, receiver) = try Self.replay("str0m_h264.pcap", codec: .h264)
        #expect(packets.count == 298)
        // The capture itself misses packets 19412, 19459 and 19509, and its STAP-A 19388 (SPS, PPS, IDR) declares
        // an IDR of 1021 bytes where 996 remain: both must be reported, not handed on.
        #expect(statistics.packets.lost == 3 && statistics.malformedPayloads == 1)
        #expect(receiver.lastPayloadError == .malformedAggregation(sequenceNumber: 19388, byteOffset: 23))
        #expect(statistics.framesLost >= 4)
        // Every marker ends one access unit; the frames handed on and reported together are all of them.
        // Every timestamp is one access unit; the frames handed on and reported together are all of them.
        var timestamps = 0
        var last: UInt32?
        for packet in packets {
            let timestamp = try RTPPacket(parsing: ByteView(packet)).timestamp
            if timestamp != last { timestamps += 1 }
            last = timestamp
        }
        #expect(statistics.framesGood + statistics.framesLost + statistics.framesWithheld == timestamps)
        #expect(frames.count > 0)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("str0m.h264")
        try Data(frames.flatMap(\.annexB)).write(to: file)
        let decoded = try await ExternalTool.check("ffmpeg", ["-hide_banner", "-err_detect", "explode", "-i", file.path,
                                                        "-fps_mode", "passthrough", "-f", "framemd5", "-"])
        let pictures = frames.filter { $0.nalUnits.contains { (1...5).contains($0[0] & 0x1F) } }.count
        // ffmpeg's raw H.264 parser may join a few pictures of this stream (no delimiters) into one frame.
        let decodedCount = decoded.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        #expect(decodedCount <= pictures && decodedCount >= pictures - 3)
    }
}
