#if FFmpeg
import Foundation
import Testing
import TestSupport

/// `record -o x.flv`, `encode … -o x.flv` (H.264, and H.265 through Enhanced RTMP), and `.flv` as an input of
/// `inspect` and `decode`, checked with ffprobe/ffmpeg (the modern FFmpeg for H.265).
@Suite(.serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct FLVCommandTests {
    /// The packets ffprobe demuxes, per stream type, in order.
    static func packets(_ path: String) throws -> [(type: String, pts: Double, key: Bool)] {
        let output = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,pts_time,flags", "-of", "csv=p=0", path])
        return output.text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let pts = Double(fields[1]) else { return nil }
            return (String(fields[0]), pts, fields[2].contains("K"))
        }
    }

    @Test("record -o x.flv: 90 H.264 pictures with 3 key frames and 3 s of AAC, read by ffprobe")
    func record() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("x.flv").path
        let output = try CLI.run(["record", "-o", path, "--frames", "90", "--size", "320x240", "--fps", "30", "--gop", "30"])
        #expect(output.status == 0, "\(output.standardError)")
        let packets = try Self.packets(path)
        let video = packets.filter { $0.type == "video" }
        #expect(video.count == 90)
        #expect(video.filter(\.key).count == 3)
        let audio = packets.filter { $0.type == "audio" }
        // The audio lasts as long as the pictures' capture times: frames the camera dropped (a slow machine) count.
        let seconds = Double(90 + CLI.framesTheCameraDropped(output.standardError)) / 30
        #expect(abs(Double(audio.count) * 1024 / 44_100 - seconds) < 0.1, "\(audio.count) AAC frames for \(seconds) s of pictures")
        let inspect = try CLI.run(["inspect", path])
        #expect(inspect.status == 0, "\(inspect.standardError)")
        #expect(inspect.text.contains("90 pictures, 3 key frames"))
    }

    @Test("encode testsrc -o x.flv with B-frames: ffmpeg decodes the same pictures as from the .h264 of the same encode; decode x.flv gives them too")
    func encodeH264() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["--frames", "60", "--size", "320x240", "--fps", "30", "--gop", "30", "--bframes", "2"]
        let flv = folder.appendingPathComponent("x.flv").path
        let annexB = folder.appendingPathComponent("x.h264").path
        let first = try CLI.run(["encode", "testsrc", "-o", flv] + common)
        #expect(first.status == 0, "\(first.standardError)")
        let second = try CLI.run(["encode", "testsrc", "-o", annexB] + common)
        #expect(second.status == 0, "\(second.standardError)")
        let ours = CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", flv, "-f", "framemd5", "-"]).text)
        let reference = await CLI.frameHashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", annexB, "-f", "framemd5", "-"]).text)
        #expect(ours.count == 60 && ours == reference)
        let fromFLV = folder.appendingPathComponent("flv.y4m").path
        let fromAnnexB = folder.appendingPathComponent("h264.y4m").path
        #expect(try CLI.run(["decode", flv, "-o", fromFLV]).status == 0)
        #expect(try CLI.run(["decode", annexB, "-o", fromAnnexB]).status == 0)
        let decodedFLV = try Data(contentsOf: URL(fileURLWithPath: fromFLV))
        let decodedAnnexB = try Data(contentsOf: URL(fileURLWithPath: fromAnnexB))
        #expect(!decodedFLV.isEmpty && decodedFLV == decodedAnnexB)
    }

    @Test("encode testsrc --codec hevc -o x.flv: Enhanced RTMP FLV that the modern FFmpeg decodes to the pictures of the .h265",
          .enabled(if: ModernFFmpeg.isRunnable))
    func encodeHEVC() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["--codec", "hevc", "--frames", "30", "--size", "320x240", "--fps", "30", "--gop", "15"]
        let flv = folder.appendingPathComponent("x.flv").path
        let annexB = folder.appendingPathComponent("x.h265").path
        #expect(try CLI.run(["encode", "testsrc", "-o", flv] + common).status == 0)
        #expect(try CLI.run(["encode", "testsrc", "-o", annexB] + common).status == 0)
        let ours = CLI.frameHashes(try await ModernFFmpeg.check(["-v", "error", "-i", flv, "-f", "framemd5", "-"]).text)
        let reference = await CLI.frameHashes(try ModernFFmpeg.check(["-v", "error", "-i", annexB, "-f", "framemd5", "-"]).text)
        #expect(ours.count == 30 && ours == reference)
    }

    @Test("encode x.flv (H.264 with B-frames + AAC that ffmpeg wrote) -o .h264 / .mp4: its pictures decoded and encoded again, size and rate kept",
          arguments: ["out.h264", "out.mp4"])
    func encodeFromFLV(output name: String) async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.flv").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi",
                                          "-i", "sine=frequency=440:sample_rate=44100", "-t", "2", "-c:v", "libx264", "-bf", "2",
                                          "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "flv", input])
        let output = folder.appendingPathComponent(name).path
        let run = try CLI.run(["encode", input, "-o", output, "--bitrate", "2M"])
        #expect(run.status == 0, "\(run.standardError)")
        let streams = try CLI.probe(output, ["-count_frames", "-show_entries", "stream=width,height,nb_read_frames,r_frame_rate"])
        #expect(streams.first?["width"] == "320" && streams.first?["height"] == "240", "\(streams)")
        #expect(streams.first?["nb_read_frames"] == "50", "\(streams)")
        #expect(streams.first?["r_frame_rate"] == "25/1", "\(streams)")
        // The same pictures as ffmpeg decodes from the FLV (each once: no frame-rate conversion), in display order,
        // encoded again.
        let decoded = folder.appendingPathComponent("reference.y4m").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", input, "-fps_mode", "passthrough", decoded])
        let psnr = try CLI.psnr(of: output, against: decoded, width: 320, height: 240)
        #expect(psnr > 30, "PSNR \(psnr) dB against the FLV's own pictures")
    }
}
#endif
