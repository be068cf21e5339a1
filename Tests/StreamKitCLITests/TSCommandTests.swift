import Foundation
import Testing
import TestSupport

/// `.ts` on the command line: `remux` into and out of MPEG-TS and `inspect` a `.ts` (any build), and — with the
/// FFmpeg engine — `encode`/`record` into `.ts`, `decode` and `publish` from one, and HLS with `--segment-format ts`.
@Suite(.serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct TSCommandTests {
    /// The video packets' pts of a file, as ffprobe reads them, in seconds.
    static func videoTimes(_ path: String) throws -> [String] {
        try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,dts_time",
                                           "-of", "csv=p=0", path]).text.split(separator: "\n").map(String.init)
    }

    @Test("remux x.mp4 x.ts, remux x.ts y.mp4, inspect x.ts: the pictures (framemd5), the times and the audio survive")
    func remuxBothWays() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mp4 = folder.appendingPathComponent("source.mp4").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
                                          "-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", "2", "-c:v", "libx264", "-bf", "2",
                                          "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", mp4])
        let ts = folder.appendingPathComponent("x.ts").path
        let toTS = try CLI.run(["remux", mp4, ts])
        #expect(toTS.status == 0, "\(toTS.standardError)")
        let back = folder.appendingPathComponent("y.mp4").path
        let toMP4 = try CLI.run(["remux", ts, back])
        #expect(toMP4.status == 0, "\(toMP4.standardError)")
        let hashes = { (path: String) async throws -> [String] in
            CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"]).text)
        }
        let reference = try await hashes(mp4)
        #expect(reference.count == 50)
        #expect(try await hashes(ts) == reference)
        #expect(try await hashes(back) == reference)
        // The AAC frames' sizes: the TS's (behind 7-byte ADTS headers) are the source's after its priming frame at a
        // negative time (which the MP4 source leaves out), and the MP4 made from the TS has them all.
        let sizes = { (path: String) async throws -> [Int] in
            try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=size", "-of", "csv=p=0", path])
                .text.split(separator: "\n").compactMap { Int($0.split(separator: ",").first ?? "") }
        }
        let source = try await sizes(mp4), inTS = try await sizes(ts).map { $0 - 7 }, remuxed = try await sizes(back)
        #expect(inTS.count >= source.count - 1 && inTS == Array(source.suffix(inTS.count)))
        #expect(remuxed == inTS)
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", ts, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
        let inspect = try CLI.run(["inspect", ts])
        #expect(inspect.status == 0, "\(inspect.standardError)")
        #expect(inspect.text.contains("MPEG-TS") && inspect.text.contains("50 pictures, 2 key frames"))
    }

    @Test("--segment-format applies to an .m3u8 output only")
    func segmentFormatNeedsPlaylist() async throws {
        let output = try CLI.run(["encode", "testsrc", "-o", "x.h264", "--segment-format", "ts"])
        #expect(output.status == 2 && output.standardError.contains("--segment-format"))
    }

#if FFmpeg
    @Test("encode testsrc -o x.ts with B-frames: the pictures of x.h264 from the same encode; decode x.ts gives them too")
    func encodeAndDecode() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["--frames", "60", "--size", "320x240", "--fps", "30", "--gop", "30", "--bframes", "2"]
        let ts = folder.appendingPathComponent("x.ts").path
        let annexB = folder.appendingPathComponent("x.h264").path
        #expect(try CLI.run(["encode", "testsrc", "-o", ts] + common).status == 0)
        #expect(try CLI.run(["encode", "testsrc", "-o", annexB] + common).status == 0)
        let ours = CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", ts, "-f", "framemd5", "-"]).text)
        let reference = await CLI.frameHashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", annexB, "-f", "framemd5", "-"]).text)
        #expect(ours.count == 60 && ours == reference)
        let fromTS = folder.appendingPathComponent("ts.y4m").path
        let fromAnnexB = folder.appendingPathComponent("h264.y4m").path
        #expect(try CLI.run(["decode", ts, "-o", fromTS]).status == 0)
        #expect(try CLI.run(["decode", annexB, "-o", fromAnnexB]).status == 0)
        let decodedTS = try Data(contentsOf: URL(fileURLWithPath: fromTS))
        let decodedAnnexB = try Data(contentsOf: URL(fileURLWithPath: fromAnnexB))
        #expect(!decodedTS.isEmpty && decodedTS == decodedAnnexB)
        // A .ts as the input of encode (its video decoded) and of publish (sent as it is).
        let again = folder.appendingPathComponent("again.mp4").path
        #expect(try CLI.run(["encode", ts, "-o", again]).status == 0)
        #expect(try Self.videoTimes(again).count == 60)
        let published = folder.appendingPathComponent("published.flv").path
        let publish = try CLI.run(["publish", ts, published])
        #expect(publish.status == 0, "\(publish.standardError)")
        #expect(CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", published, "-f", "framemd5", "-"]).text) == reference)
    }

    @Test("record -o x.ts: 60 H.264 pictures with 2 key frames and AAC, decoded by ffmpeg without a message")
    func record() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("x.ts").path
        let output = try CLI.run(["record", "-o", path, "--frames", "60", "--size", "320x240", "--fps", "30", "--gop", "30"])
        #expect(output.status == 0, "\(output.standardError)")
        let packets = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,flags", "-of", "csv=p=0", path]).text
        let video = packets.split(separator: "\n").filter { $0.hasPrefix("video") }
        #expect(video.count == 60 && video.filter { $0.contains("K") }.count == 2)
        #expect(packets.contains("audio"))
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
    }

    @Test("encode testsrc -o hls/x.m3u8 --segment-format ts: .ts segments under a version 3 playlist, ffmpeg reads them all")
    func hlsSegments() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("x.m3u8").path
        let output = try CLI.run(["encode", "testsrc", "-o", playlist, "--segment-format", "ts", "--segment-duration", "1",
                                  "--frames", "90", "--size", "320x240", "--fps", "30", "--gop", "30"])
        #expect(output.status == 0, "\(output.standardError)")
        let text = try String(contentsOfFile: playlist, encoding: .utf8)
        #expect(text.contains("#EXT-X-VERSION:3") && !text.contains("EXT-X-MAP"))
        #expect(text.split(separator: "\n").filter { $0.hasSuffix(".ts") }.count == 3)
        let hashes = CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", playlist, "-f", "framemd5", "-"]).text)
        #expect(hashes.count == 90)
    }
#endif
}
