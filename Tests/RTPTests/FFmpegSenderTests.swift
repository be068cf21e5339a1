import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// ffmpeg as the sender (`-f rtp`): x264/x265 streams with frames far larger than a packet, and AAC as
/// mpeg4-generic, received on a UDP socket here. What we rebuild must equal, NAL unit for NAL unit, what
/// ffmpeg writes with `-c copy -f h264|hevc|adts` from the same file.
@Suite(.needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct FFmpegSenderTests {
    /// Encodes 2 s of 720p test pattern with a key frame every 10 frames and in-band parameter sets, then
    /// writes the elementary stream ffmpeg would send.
    static func encode(_ codec: String, in directory: URL) async throws -> (source: String, reference: [UInt8]) {
        let source = directory.appendingPathComponent("source.mkv").path
        let isHEVC = codec == "hevc"
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                          "testsrc2=size=1280x720:rate=25", "-frames:v", "50", "-pix_fmt", "yuv420p",
                                          "-c:v", isHEVC ? "libx265" : "libx264", "-g", "10", "-b:v", "4M",
                                          isHEVC ? "-x265-params" : "-x264-params",
                                          isHEVC ? "repeat-headers=1:keyint=10:log-level=error" : "repeat-headers=1",
                                          "-y", source])
        let reference = directory.appendingPathComponent("reference.\(codec)").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", source, "-c", "copy",
                                          "-f", codec, "-y", reference])
        return (source, try [UInt8](Data(contentsOf: URL(fileURLWithPath: reference))))
    }

    static func rebuild(_ datagrams: [[UInt8]], codec: RTPVideoReceiver.Codec)
        -> (frames: [RTPAccessUnit], statistics: RTPVideoReceiver.Statistics) {
        var receiver = RTPVideoReceiver(codec: codec)
        var frames: [RTPAccessUnit] = []
        for datagram in datagrams {
            try? receiver.receive(ByteView(datagram)) { if case .frame(let unit) = $0 { frames.append(unit) } }
        }
        receiver.finish { if case .frame(let unit) = $0 { frames.append(unit) } }
        return (frames, receiver.statistics)
    }

    @Test(arguments: [("h264", RTPVideoReceiver.Codec.h264), ("hevc", .h265)])
    func accessUnitsAreRebuiltByteIdentical(codec: String, payload: RTPVideoReceiver.Codec) async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, reference) = try await Self.encode(codec, in: directory)
        let datagrams = try await RTPPeers.receive(port: port, whileRunning: [
            "-readrate", "8", "-i", source, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)?pkt_size=1200",
        ])
        #expect(datagrams.count > 200, "the key frames need many fragments")
        let fragments = datagrams.filter { datagram in
            guard datagram.count > 12 else { return false }
            return codec == "h264" ? datagram[12] & 0x1F == 28 : (datagram[12] >> 1) & 0x3F == 49
        }
        #expect(fragments.count > 100)
        let (frames, statistics) = Self.rebuild(datagrams, codec: payload)
        #expect(statistics.packets.lost == 0 && statistics.framesLost == 0 && statistics.framesWithheld == 0,
                "\(statistics)")
        #expect(frames.count == 50)
        let isSlice: ([UInt8]) -> Bool = { codec == "h264" ? (1...5).contains($0[0] & 0x1F) : ($0[0] >> 1) & 0x3F < 32 }
        let ours = RTPPeers.withoutRepeatedPrefixUnits(frames.flatMap { RTPPeers.nalUnits(ofAnnexB: $0.annexB) },
                                                       isSlice: isSlice)
        let theirs = RTPPeers.withoutRepeatedPrefixUnits(RTPPeers.nalUnits(ofAnnexB: reference), isSlice: isSlice)
        #expect(ours.count > 55)
        #expect(ours.count == theirs.count)
        let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours == theirs, "rebuilt NAL units differ from ffmpeg's elementary stream at \(String(describing: firstDifference))")
    }

    @Test func aacAccessUnitsAreRebuiltByteIdentical() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.mkv").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                                          "sine=frequency=440:sample_rate=48000", "-t", "3", "-ac", "2",
                                          "-c:a", "aac", "-b:a", "192k", "-y", source])
        let reference = directory.appendingPathComponent("reference.aac").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", source, "-c", "copy",
                                          "-f", "adts", "-y", reference])
        let port = TestPorts.reserve()
        let datagrams = try await RTPPeers.receive(port: port, whileRunning: [
            "-readrate", "8", "-i", source, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)",
        ])
        var depacketizer = try AACDepacketizer()
        var frames: [[UInt8]] = []
        var lost = 0
        for datagram in datagrams {
            let packet = try RTPPacket(parsing: ByteView(datagram))
            #expect(packet.payloadType >= 96)
            _ = try depacketizer.depacketize(packet) { event in
                if case .frame(let frame) = event { frames.append(Array(frame.data)) } else { lost += 1 }
            }
        }
        let theirs = RTPPeers.rawFrames(ofADTS: try [UInt8](Data(contentsOf: URL(fileURLWithPath: reference))))
        // ffmpeg's AAC packetizer keeps the last few frames for a packet it never sends at the end of the input.
        #expect(theirs.count > 100 && lost == 0)
        #expect(frames.count <= theirs.count && frames.count >= theirs.count - 5)
        #expect(frames == Array(theirs.prefix(frames.count)), "first difference at \(String(describing: zip(frames, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
    }
}
