import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// Damaged transport streams: cut off, garbage between packets, a packet lost in the middle of a picture, a
/// packet flagged as errored, a program that changes. Each accident comes out as its ``TSStreamIssue``, and the
/// rest of the stream is delivered as ffmpeg's `-c copy` reads it.
@Suite("MPEG-TS damage")
struct TSDamageTests {
    /// An ffmpeg TS (x264 + AAC, 2 s) and what our demuxer makes of it, intact.
    static func intact(in directory: URL) throws -> (bytes: [UInt8], demuxed: TSTestSupport.Demuxed) {
        let ts = directory.appendingPathComponent("intact.ts").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=352x288:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2",
                                          "-c:v", "libx264", "-bf", "2", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", ts])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ts)))
        let demuxed = TSTestSupport.demux(bytes)
        #expect(demuxed.issues.isEmpty && demuxed.video.count == 50)
        return (bytes, demuxed)
    }

    /// The PID of a packet, and whether it starts a payload unit.
    static func header(_ bytes: [UInt8], packet: Int) -> (pid: UInt16, isStart: Bool) {
        let start = packet * 188
        return (UInt16(bytes[start + 1] & 0x1F) << 8 | UInt16(bytes[start + 2]), bytes[start + 1] & 0x40 != 0)
    }

    /// A video packet in the middle of a picture (neither its first nor its last packet).
    static func middleVideoPacket(_ bytes: [UInt8], after: Int) -> Int? {
        let count = bytes.count / 188
        for packet in after..<count - 1 where header(bytes, packet: packet) == (0x100, false) {
            if let next = (packet + 1..<count).first(where: { header(bytes, packet: $0).pid == 0x100 }),
               !header(bytes, packet: next).isStart { return packet }
        }
        return nil
    }

    @Test("Garbage between packets: resynchronised, reported once with its size, nothing lost",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func garbageBetweenPackets() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bytes, intact) = try Self.intact(in: directory)
        var damaged = bytes
        var generator = SplitMix64(seed: 19)
        let garbage = (0..<333).map { _ in UInt8(truncatingIfNeeded: generator.next()) & 0x46 }  // never a sync byte
        damaged.insert(contentsOf: garbage, at: 40 * 188)
        for chunkSize in [100, 4096] {
            let result = TSTestSupport.demux(damaged, chunkSize: chunkSize)
            #expect(result.issues == [.resynchronized(byteOffset: 40 * 188, skippedByteCount: 333)])
            #expect(result.video == intact.video && result.audio == intact.audio)
        }
    }

    @Test("A packet lost in the middle of a picture: a continuity error and that picture dropped, the rest delivered",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func lostPacket() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bytes, intact) = try Self.intact(in: directory)
        let packet = try #require(Self.middleVideoPacket(bytes, after: 60))
        var damaged = bytes
        damaged.removeSubrange(packet * 188..<(packet + 1) * 188)
        let result = TSTestSupport.demux(damaged)
        let continuity = result.issues.compactMap { issue -> Int? in
            if case let .continuityError(pid, _, _, lost, offset) = issue, pid == 0x100 { #expect(offset == packet * 188); return lost }
            return nil
        }
        #expect(continuity == [1])
        #expect(result.issues.contains { if case .damagedPES(0x100, _, .lostPackets) = $0 { return true } else { return false } })
        #expect(result.video.count == intact.video.count - 1)
        #expect(result.audio == intact.audio)
        // Every other picture is intact, at its time (durations next to the gap differ).
        let missing = intact.video.filter { frame in !result.video.contains { $0.data == frame.data && $0.pts == frame.pts && $0.dts == frame.dts } }
        #expect(missing.count == 1)
    }

    @Test("A packet with transport_error_indicator: reported and its picture dropped; a duplicate packet ignored",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func erroredAndDuplicatePackets() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bytes, intact) = try Self.intact(in: directory)
        let packet = try #require(Self.middleVideoPacket(bytes, after: 30))
        var damaged = bytes
        damaged[packet * 188 + 1] |= 0x80
        var result = TSTestSupport.demux(damaged)
        #expect(result.issues.contains(.transportError(pid: 0x100, byteOffset: packet * 188)))
        #expect(result.video.count == intact.video.count - 1 && result.audio == intact.audio)

        var duplicated = bytes
        duplicated.insert(contentsOf: bytes[packet * 188..<(packet + 1) * 188], at: (packet + 1) * 188)
        result = TSTestSupport.demux(duplicated)
        #expect(result.issues.isEmpty && result.video == intact.video)
    }

    @Test("Cut off anywhere: the frames before the cut, the cut reported, no trap",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func truncated() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bytes, intact) = try Self.intact(in: directory)
        for cut in stride(from: 1, to: bytes.count, by: bytes.count / 37) {
            let result = TSTestSupport.demux(Array(bytes[..<cut]))
            #expect(result.video.count <= intact.video.count)
            // The last picture may be the part of one before the cut (a video PES packet has no length).
            let prefix = Array(result.video.dropLast()) == Array(intact.video.prefix(max(0, result.video.count - 1)))
            #expect(prefix, "cut at \(cut)")
            if cut % 188 != 0 { #expect(result.issues.contains(.truncatedPacket(byteOffset: cut / 188 * 188, byteCount: cut % 188))) }
        }
    }

    @Test("A program that changes (H.264 on 0x100, then H.265 on 0x200): both maps reported, both streams read",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func programChange() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, intact) = try Self.intact(in: directory)
        let second = directory.appendingPathComponent("hevc.ts").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "20",
                                          "-c:v", "libx265", "-x265-params", "log-level=error", "-streamid", "0:0x200", second])
        let result = TSTestSupport.demux(first + [UInt8](try Data(contentsOf: URL(fileURLWithPath: second))))
        #expect(result.maps.map { $0.streams.map(\.pid) } == [[0x100, 0x101], [0x200]])
        #expect(result.video.filter { $0.codec == .h264 }.count == intact.video.count)
        #expect(result.video.filter { $0.codec == .hevc }.count == 20)
    }

    @Test("Hostile input stays within the limits: an endless PES packet is cut at the limit and reported")
    func endlessPES() throws {
        var writer = try TSWriter(sink: MemoryByteSink(), configuration: .init(video: nil, audio: AudioFormatDescription(
            codec: .aac, sampleRate: 48_000, channelCount: 2, profile: "LC", audioSpecificConfig: [0x11, 0x90])))
        try writer.finish()
        var bytes = writer.sink.bytes
        // A PES packet on the audio PID that never ends: 3000 packets without a new start.
        var counter: UInt8 = 0
        bytes += [0x47, 0x41, 0x01, 0x10] + [0, 0, 1, 0xC0, 0, 0, 0x80, 0, 0] + Array(repeating: 0xFF, count: 175)
        for _ in 0..<3000 {
            counter = (counter + 1) & 0x0F
            bytes += [0x47, 0x01, 0x01, 0x10 | counter] + Array(repeating: 0xFF, count: 184)
        }
        var demuxer = TSDemuxer(limits: TSDemuxerLimits(maximumPESSize: 100_000))
        let events = demuxer.append(bytes) + demuxer.finish()
        #expect(events.contains(.issue(.damagedPES(pid: 0x101, byteOffset: 376, .tooLarge(limit: 100_000)))))
    }

    @Test("192-byte packets (M2TS, a timecode before each packet) are refused: nothing read, the bytes reported as skipped",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func m2tsRefused() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bytes, _) = try Self.intact(in: directory)
        var m2ts: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 188) { m2ts += [0x00, 0x01, 0x02, 0x03] + bytes[start..<start + 188] }
        let result = TSTestSupport.demux(m2ts)
        #expect(result.video.isEmpty && result.audio.isEmpty && result.maps.isEmpty)
        let skipped = result.issues.reduce(0) { total, issue in
            if case let .resynchronized(_, count) = issue { return total + count } else { return total }
        }
        #expect(skipped >= m2ts.count - 3 * 192, "the bytes are reported as skipped (the last packets may pass unconfirmed)")
    }
}
