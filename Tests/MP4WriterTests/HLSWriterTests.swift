import Codecs
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The HLS writer against real oracles: FFmpeg's HLS demuxer decodes every segment of our playlist in
/// order (the decoded pictures equal those of the Annex B input), Chromium plays our segments through
/// Media Source Extensions and our MP4 in `<video>`, with the frame count and duration we wrote.
///
/// The frames come from x264 (no B-frames) through ``AnnexBFrameAssembler``, as a user program that
/// packages an existing `.h264` file would get them.
@Suite(.serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct HLSWriterTests {
    /// x264's Annex B of `frames` pictures (25 fps, a key frame every `keyInterval`), and its frames.
    static func frames(count: Int = 250, keyInterval: Int = 25, in folder: URL) throws -> (annexB: URL, frames: [EncodedFrame]) {
        let raw = folder.appendingPathComponent("in.y4m")
        let annexB = folder.appendingPathComponent("in.h264")
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "\(count)",
                                          "-pix_fmt", "yuv420p", raw.path])
        try ExternalTool.check("x264", ["--quiet", "--bframes", "0", "--keyint", "\(keyInterval)", "--min-keyint", "\(keyInterval)",
                                        "--no-scenecut", "--profile", "main", "-o", annexB.path, raw.path])
        var assembler = AnnexBFrameAssembler(codec: .h264)
        var frames = assembler.append([UInt8](try Data(contentsOf: annexB)))
        frames += assembler.finish()
        guard frames.count == count else { throw TestFailure("the assembler made \(frames.count) frames of \(count)") }
        // 25 fps on a 90 kHz clock, whatever the SPS says.
        for index in frames.indices {
            let time = MediaTime(value: Int64(index) * 3600, timescale: 90_000)
            frames[index].pts = time
            frames[index].dts = time
            frames[index].duration = MediaTime(value: 3600, timescale: 90_000)
        }
        return (annexB, frames)
    }

    /// The decoded pictures' MD5s, in order.
    static func decodedMD5(_ input: String, format: String? = nil) throws -> [String] {
        let output = try ExternalTool.check("ffmpeg", ["-nostdin", "-v", "error"] + (format.map { ["-f", $0] } ?? [])
            + ["-i", input, "-map", "0:v:0", "-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { String($0).trimmingCharacters(in: .whitespaces) } }
    }

    @Test("VOD: 5 segments of 2 s cut at key frames; ffmpeg decodes all 250 pictures from our playlist, equal to the Annex B input's")
    func vod() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (annexB, frames) = try Self.frames(in: folder)
        let out = folder.appendingPathComponent("out").path
        var writer = try HLSWriter(tracks: [.video(frames[0].format)],
                                   configuration: HLSWriter.Configuration(directory: out, programDateTime: HLSProgramDateTime(millisecondsSinceEpoch: 0)))
        for frame in frames { try writer.append(frame, toTrack: 0) }
        #expect(!FileManager.default.fileExists(atPath: "\(out)/stream.m3u8"), "a VOD playlist is written once, at the end")
        try writer.finish()

        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == ["init.mp4", "segment_00001.m4s", "segment_00002.m4s", "segment_00003.m4s", "segment_00004.m4s", "segment_00005.m4s", "stream.m3u8"])
        let text = try String(contentsOfFile: "\(out)/stream.m3u8", encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "#EXTM3U")
        #expect(lines.contains("#EXT-X-TARGETDURATION:2"))
        #expect(lines.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
        #expect(lines.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        #expect(lines.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        #expect(lines.filter { $0 == "#EXTINF:2.000000," }.count == 5)
        #expect(lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") } == [
            "#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:00.000Z", "#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:02.000Z",
            "#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:04.000Z", "#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:06.000Z",
            "#EXT-X-PROGRAM-DATE-TIME:1970-01-01T00:00:08.000Z"])
        #expect(lines.last == "#EXT-X-ENDLIST")
        #expect(writer.codecs == ["avc1.4D400D"])

        let ours = try Self.decodedMD5("\(out)/stream.m3u8")
        let input = try Self.decodedMD5(annexB.path, format: "h264")
        #expect(ours.count == 250)
        #expect(ours == input)
    }

    @Test("Live window of 3 segments of 1 s: every listed segment is complete on disk at every moment, old ones go after §6.2.2's delay")
    func liveWindow() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (annexB, frames) = try Self.frames(in: folder)
        let out = folder.appendingPathComponent("live").path
        let configuration = HLSWriter.Configuration(directory: out, targetSegmentDuration: MediaTime(value: 1, timescale: 1), mode: .live(windowSize: 3))
        var writer = try HLSWriter(tracks: [.video(frames[0].format)], configuration: configuration)
        var firstMissing: [String: Int] = [:]
        for (index, frame) in frames.enumerated() {
            try writer.append(frame, toTrack: 0)
            guard let text = try? String(contentsOfFile: "\(out)/stream.m3u8", encoding: .utf8) else { continue }
            let listed = text.split(separator: "\n").filter { $0.hasSuffix(".m4s") }.map(String.init)
            #expect(listed.count <= 3)
            for name in listed {
                let size = (try? FileManager.default.attributesOfItem(atPath: "\(out)/\(name)")[.size] as? Int) ?? -1
                #expect(size == writer.writtenSegments.first { $0.uri == name }?.byteCount, "\(name) listed but not complete at frame \(index)")
            }
            for segment in writer.writtenSegments where firstMissing[segment.uri] == nil && !FileManager.default.fileExists(atPath: "\(out)/\(segment.uri)") {
                firstMissing[segment.uri] = index
            }
        }
        try writer.finish()
        #expect(writer.segmentCount == 10)
        #expect(writer.playlist.mediaSequence == 7)
        // Segment k (1-based) leaves the playlist when segment k+3 is written (at frame 25·(k+3)); it must
        // stay at least its duration plus the playlist's (1 s + 4 s = 125 frames) after that.
        for (name, frame) in firstMissing {
            let number = Int(name.dropFirst("segment_".count).prefix(5)) ?? 0
            #expect(frame >= 25 * (number + 3) + 125, "\(name) removed at frame \(frame)")
        }
        #expect(!firstMissing.isEmpty, "old segments are removed")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".m4s") }.sorted()
        #expect(names == ["segment_00008.m4s", "segment_00009.m4s", "segment_00010.m4s"])
        let ours = try Self.decodedMD5("\(out)/stream.m3u8")
        let input = try Self.decodedMD5(annexB.path, format: "h264")
        #expect(ours == Array(input.suffix(75)))
    }

    @Test("Frames before the first key frame are left out and counted")
    func joinsMidGOP() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var (_, frames) = try Self.frames(count: 100, in: folder)
        frames.removeFirst(10)
        var writer = try HLSWriter(tracks: [.video(frames[0].format)], configuration: HLSWriter.Configuration(directory: folder.appendingPathComponent("o").path))
        for frame in frames { try writer.append(frame, toTrack: 0) }
        try writer.finish()
        #expect(writer.skippedFrameCount == 15)
        #expect(try Self.decodedMD5(folder.appendingPathComponent("o/stream.m3u8").path).count == 75)
    }

    @Test("Bad settings are typed errors")
    func badConfiguration() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, frames) = try Self.frames(count: 2, in: folder)
        let track = MP4TrackDescription.video(frames[0].format)
        #expect(throws: HLSError.self) {
            try HLSWriter(tracks: [track], configuration: HLSWriter.Configuration(directory: folder.path, targetSegmentDuration: .zero))
        }
        #expect(throws: HLSError.self) {
            try HLSWriter(tracks: [track], configuration: HLSWriter.Configuration(directory: folder.path, mode: .live(windowSize: 0)))
        }
        #expect(throws: HLSError.self) {
            try HLSWriter(tracks: [track], configuration: HLSWriter.Configuration(directory: folder.path, playlistName: "a/b.m3u8"))
        }
        var writer = try HLSWriter(tracks: [track], configuration: HLSWriter.Configuration(directory: folder.appendingPathComponent("x").path))
        try writer.finish()
        #expect(throws: HLSError.alreadyFinished) { try writer.append(frames[0], toTrack: 0) }
    }

    @Test("Chromium plays our segments through MSE (250 frames, 10 s) and our MP4 in <video> (250 frames, 10 s); the picture is not black",
          .enabled(if: BrowserPlayback.isRunnable))
    func chromiumPlaysOurFiles() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, frames) = try Self.frames(in: folder)
        var hls = try HLSWriter(tracks: [.video(frames[0].format)], configuration: HLSWriter.Configuration(directory: folder.path))
        var mp4 = try MP4Writer(path: folder.appendingPathComponent("ours.mp4").path, tracks: [.video(frames[0].format)])
        for frame in frames {
            try hls.append(frame, toTrack: 0)
            try mp4.append(frame, toTrack: 0)
        }
        try hls.finish()
        try mp4.finish()

        let played = try BrowserPlayback.play(.hls(playlist: "stream.m3u8", codecs: hls.codecs.joined(separator: ",")), in: folder,
                                              screenshotSize: (320, 240))
        let report = played.report
        #expect(report.done && report.errors.isEmpty, "\(report)")
        #expect(report.segments == 5)
        #expect(report.totalVideoFrames == 250, "\(report)")
        #expect(abs((report.duration ?? 0) - 10) < 0.001, "\(report)")
        #expect(report.buffered?.first?.first == 0, "\(report)")
        let picture = try BrowserPlayback.grayStatistics(of: try #require(played.screenshot))
        #expect(picture.mean > 40 && picture.variance > 500, "mean \(picture.mean), variance \(picture.variance)")

        let file = try BrowserPlayback.play(.mp4("ours.mp4"), in: folder).report
        #expect(file.done && file.errors.isEmpty, "\(file)")
        #expect(file.totalVideoFrames == 250, "\(file)")
        #expect(abs((file.duration ?? 0) - 10) < 0.001, "\(file)")
    }
}
