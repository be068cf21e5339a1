#if FFmpeg
import Foundation
import Testing
import TestSupport

/// `record -o out/stream.m3u8` and `encode … -o out/x.m3u8`: the playlist and fMP4 segments, read by
/// FFmpeg's HLS demuxer and played by Chromium through Media Source Extensions.
@Suite(.serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct HLSCommandTests {
    /// The packets FFmpeg demuxes from a playlist, per stream type (`video`/`audio`), in order.
    static func packets(_ playlist: String) throws -> [(type: String, pts: Double, key: Bool)] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,pts_time,flags", "-of", "csv=p=0", playlist])
        return output.text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let pts = Double(fields[1]) else { return nil }
            return (String(fields[0]), pts, fields[2].contains("K"))
        }
    }

    /// The playlist's lines.
    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("record -o out/stream.m3u8: an EVENT playlist with ENDLIST, segments of 2 s at key frames; ffmpeg reads all 150 pictures and the audio; Chromium plays them",
          .enabled(if: BrowserPlayback.isRunnable))
    func record() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("out/stream.m3u8").path
        let output = try CLI.run(["record", "-o", playlist, "--frames", "150", "--size", "320x240", "--fps", "30", "--gop", "30"])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = try Self.lines(playlist)
        #expect(lines.contains("#EXT-X-PLAYLIST-TYPE:EVENT"))
        #expect(lines.contains("#EXT-X-TARGETDURATION:2"))
        #expect(lines.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        #expect(lines.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        #expect(lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }.count == 3)
        // The pictures' capture times: frames the camera dropped on a slow machine lengthen the segment they fall in.
        let dropped = CLI.framesTheCameraDropped(output.standardError)
        let durations = lines.filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst("#EXTINF:".count).dropLast()) }
        if dropped == 0 {
            #expect(durations == [2, 2, 1], "\(lines)")
        } else {
            let total: Double = durations.reduce(0, +)
            let expected = Double(150 + dropped) / 30
            #expect(durations.count == 3 && abs(total - expected) < 0.003, "\(durations), \(dropped) dropped")
        }
        #expect(lines.filter { $0.hasSuffix(".m4s") } == ["segment_00001.m4s", "segment_00002.m4s", "segment_00003.m4s"])
        #expect(lines.last == "#EXT-X-ENDLIST")

        let packets = try Self.packets(playlist)
        let video = packets.filter { $0.type == "video" }
        #expect(video.count == 150)
        #expect(video.filter(\.key).count == 5)
        #expect(video.map(\.pts) == video.map(\.pts).sorted(), "in order")
        let audio = packets.filter { $0.type == "audio" }
        let audioSeconds = Double(audio.count) * 1024 / 44_100
        #expect(abs(audioSeconds - Double(150 + dropped) / 30) < 0.1, "\(audio.count) AAC frames")

        let report = try BrowserPlayback.play(.hls(playlist: "out/stream.m3u8", codecs: nil), in: folder).report
        #expect(report.done && report.errors.isEmpty, "\(report)")
        #expect(report.codecs?.hasPrefix("avc1.6400") == true && report.codecs?.hasSuffix(",mp4a.40.2") == true, "High profile and AAC-LC: \(report)")
        #expect(report.totalVideoFrames == 150, "\(report)")
        // The presentation ends with the longer track: the video's 5 s, or the audio's last AAC frame.
        let audioEnd = Double(audio.count) * 1024 / 44_100
        #expect((report.duration ?? 0) >= 5 - 0.001 && (report.duration ?? 0) <= max(5, audioEnd) + 0.001, "\(report), audio \(audioEnd) s")
    }

    @Test("encode testsrc -o out/x.m3u8 with B-frames: a VOD playlist of 1 s segments; ffmpeg decodes the same 120 pictures as from the .h264 of the same encode")
    func encodeVOD() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["--frames", "120", "--size", "320x240", "--fps", "30", "--gop", "30", "--bframes", "2"]
        let playlist = folder.appendingPathComponent("out/x.m3u8").path
        let hls = try CLI.run(["encode", "testsrc", "-o", playlist, "--segment-duration", "1"] + common)
        #expect(hls.status == 0, "\(hls.standardError)")
        let annexB = folder.appendingPathComponent("x.h264").path
        let plain = try CLI.run(["encode", "testsrc", "-o", annexB] + common)
        #expect(plain.status == 0, "\(plain.standardError)")

        let lines = try Self.lines(playlist)
        #expect(lines.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
        #expect(lines.contains("#EXT-X-TARGETDURATION:1"))
        #expect(lines.filter { $0.hasSuffix(".m4s") }.count == 4)
        #expect(lines.last == "#EXT-X-ENDLIST")
        let ours = CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", playlist, "-f", "framemd5", "-"]).text)
        let reference = await CLI.frameHashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", annexB, "-f", "framemd5", "-"]).text)
        #expect(ours.count == 120)
        #expect(ours == reference)
        let video = try Self.packets(playlist)
        #expect(video.filter(\.key).count == 4)
        #expect(Set(video.map(\.pts)).count == 120, "every picture has its own presentation time")
    }

    @Test("encode --playlist-size 3: a live window; the last 3 segments stay, older ones are removed, ffmpeg reads the last 90 pictures")
    func liveWindow() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["--frames", "300", "--size", "320x240", "--fps", "30", "--gop", "30"]
        let playlist = folder.appendingPathComponent("live/s.m3u8").path
        let hls = try CLI.run(["encode", "testsrc", "-o", playlist, "--segment-duration", "1", "--playlist-size", "3"] + common)
        #expect(hls.status == 0, "\(hls.standardError)")
        let annexB = folder.appendingPathComponent("x.h264").path
        #expect(try CLI.run(["encode", "testsrc", "-o", annexB] + common).status == 0)
        let lines = try Self.lines(playlist)
        #expect(lines.contains("#EXT-X-MEDIA-SEQUENCE:7"))
        #expect(!lines.contains { $0.hasPrefix("#EXT-X-PLAYLIST-TYPE") })
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("live").path).sorted()
        #expect(files == ["init.mp4", "s.m3u8", "segment_00008.m4s", "segment_00009.m4s", "segment_00010.m4s"])
        let ours = CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", playlist, "-f", "framemd5", "-"]).text)
        let reference = await CLI.frameHashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", annexB, "-f", "framemd5", "-"]).text)
        #expect(ours == Array(reference.suffix(90)))
    }

    @Test("encode sine -o a.m3u8: audio-only HLS in segments of 2 s")
    func audioOnly() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("a/a.m3u8").path
        let output = try CLI.run(["encode", "sine", "-o", playlist, "--duration", "5"])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = try Self.lines(playlist)
        #expect(lines.filter { $0.hasSuffix(".m4s") }.count == 3)
        let audio = try Self.packets(playlist).filter { $0.type == "audio" }
        #expect(abs(Double(audio.count) * 1024 / 48_000 - 5) < 0.05, "\(audio.count) AAC frames")
    }

    @Test("--segment-duration and --playlist-size need an .m3u8 output")
    func optionsNeedPlaylist() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["encode", "testsrc", "-o", folder.appendingPathComponent("x.h264").path, "--playlist-size", "3"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("--playlist-size applies to an .m3u8 output"))
    }
}
#endif
