#if FFmpeg
import Capture
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// `streamkit encode` and `decode` against ffmpeg: quality, bit-exact decoding, and bad input.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct EncodeDecodeCommandTests {
    /// Writes `count` frames of the synthetic camera as a Y4M file (the source the quality is measured against).
    private func syntheticSource(_ path: String, frames count: Int, width: Int = 640, height: Int = 480) async throws {
        let camera = try SyntheticCamera(width: width, height: height, frameRate: 30, format: .nv12, realTime: false)
        var writer = try Y4MWriter(path: path, header: Y4MHeader(width: width, height: height, frameRate: Y4MRatio(30, 1)))
        for _ in 0..<count {
            guard let frame = try await camera.nextFrame() else { break }
            try writer.write(frame.pixelBuffer)
        }
        try writer.finish()
    }

    @Test func syntheticCameraAt2MbitHasPSNRAbove35dB() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = directory.appendingPathComponent("camera.y4m").path
        let encoded = directory.appendingPathComponent("camera.h264").path
        try await syntheticSource(source, frames: 60)
        let output = try CLI.run(["encode", source, "-o", encoded, "--bitrate", "2M"])
        #expect(output.status == 0, "\(output.standardError)")
        let average = try CLI.psnr(of: encoded, against: source, width: 640, height: 480)
        #expect(average >= 35, "PSNR \(average) dB")
    }

    /// The 8-bit conformance streams with a verified per-frame reference (`references/framemd5`).
    static var conformanceReferences: [String] {
        let folder = MediaFiles.url("references/framemd5").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".framemd5") && !$0.hasPrefix("PPH10") && !$0.hasPrefix("CVFC1") }
            .map { String($0.dropLast(".framemd5".count)) }.sorted()
    }

    @Test(.requiresMedia, arguments: conformanceReferences)
    func decodingMatchesTheReferenceFrameHashes(stream: String) async throws {
        let input = try #require(MediaFiles.h264Streams.first { $0.hasSuffix("/" + stream) })
        let reference = try String(contentsOf: MediaFiles.url("references/framemd5/\(stream).framemd5"), encoding: .utf8)
        let dimensions = try #require(reference.split(separator: "\n").first { $0.hasPrefix("#dimensions 0:") }?
            .split(separator: " ").last.map(String.init))
        let directory = try ExternalTool.temporaryDirectory()
        let yuv = directory.appendingPathComponent("out.yuv").path
        let output = try CLI.run(["decode", MediaFiles.url(input).path, "-o", yuv])
        #expect(output.status == 0, "\(output.standardError)")
        let ours = try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", dimensions,
                                                    "-i", yuv, "-f", "framemd5", "-"])
        #expect(CLI.frameHashes(ours.text) == CLI.frameHashes(reference))
    }

    @Test func decodingAnX265StreamMatchesFFmpeg() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let stream = directory.appendingPathComponent("x.h265").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25", "-frames:v", "40",
                                          "-c:v", "libx265", "-x265-params", "log-level=error:bframes=3:keyint=16", stream])
        let y4m = directory.appendingPathComponent("x.y4m").path
        let output = try CLI.run(["decode", stream, "-o", y4m])
        #expect(output.status == 0, "\(output.standardError)")
        let ours = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", y4m, "-f", "framemd5", "-"])
        let theirs = try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", stream, "-pix_fmt", "yuv420p", "-f", "framemd5", "-"])
        #expect(CLI.frameHashes(ours.text).count == 40)
        #expect(CLI.frameHashes(ours.text) == CLI.frameHashes(theirs.text))
    }

    @Test func wavToAACAndBack() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let wav = directory.appendingPathComponent("tone.wav").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=22050", "-t", "2",
                                          "-ac", "2", "-c:a", "pcm_s16le", wav])
        let aac = directory.appendingPathComponent("tone.aac").path
        #expect(try CLI.run(["encode", wav, "-o", aac]).status == 0)
        let stream = try #require(try CLI.probe(aac, ["-show_streams"]).first)
        #expect(stream["codec_name"] == "aac" && stream["profile"] == "LC")
        #expect(stream["sample_rate"] == "22050" && stream["channels"] == "2")
        let back = directory.appendingPathComponent("back.wav").path
        #expect(try CLI.run(["decode", aac, "-o", back]).status == 0)
        let decoded = try #require(try CLI.probe(back, ["-show_streams"]).first)
        #expect(decoded["sample_rate"] == "22050" && decoded["channels"] == "2")
    }

    @Test(.requiresMedia) func rawYUVInputInEveryLayout() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        for layout in ["i420", "nv12", "nv21"] {
            let raw = directory.appendingPathComponent("cars.\(layout)").path
            try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240",
                                              "-i", MediaFiles.url("sequences/cars_320x240.i420").path, "-f", "rawvideo",
                                              "-pix_fmt", layout == "i420" ? "yuv420p" : layout, raw])
            let encoded = directory.appendingPathComponent("cars-\(layout).h264").path
            let output = try CLI.run(["encode", raw, "-o", encoded, "--size", "320x240", "--pix-fmt", layout, "--qp", "10"])
            #expect(output.status == 0, "\(output.standardError)")
            // A wrong chroma order or stride would ruin the PSNR against the I420 source.
            let psnr = try CLI.psnr(of: encoded, against: MediaFiles.url("sequences/cars_320x240.i420").path,
                                    inputArguments: ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240"], width: 320, height: 240)
            #expect(psnr >= 40, "\(layout): PSNR \(psnr) dB")
        }
    }

    @Test(arguments: [
        (["--size", "641x480"], "even width and height"),
        (["--bitrate", "0"], "bitrate"),
        (["--codec", "vp9"], "unknown codec"),
        (["--engine", "nonexistent"], "unknown engine"),
    ])
    func badOptionsFailClearly(arguments: [String], message: String) throws {
        let directory = try ExternalTool.temporaryDirectory()
        let output = try CLI.run(["encode", "testsrc", "-o", directory.appendingPathComponent("x.h264").path, "--frames", "5"] + arguments)
        #expect(output.status != 0)
        #expect(output.standardError.contains(message), "\(output.standardError)")
    }

    @Test(.requiresMedia) func missingAndTruncatedY4M() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let missing = try CLI.run(["encode", directory.appendingPathComponent("nope.y4m").path, "-o",
                                   directory.appendingPathComponent("x.h264").path])
        #expect(missing.status != 0 && missing.standardError.contains("nope.y4m"))
        // Foreman with its last frame cut in half: the 7 whole frames are encoded, the file is valid, the exit is non-zero.
        let source = try MediaFiles.bytes("sequences/foreman_cif8.y4m")
        let cut = directory.appendingPathComponent("cut.y4m")
        try Data(source.prefix(source.count - 352 * 288)).write(to: cut)
        let encoded = directory.appendingPathComponent("cut.h264").path
        let truncated = try CLI.run(["encode", cut.path, "-o", encoded, "--qp", "24"])
        #expect(truncated.status != 0)
        #expect(truncated.standardError.lowercased().contains("truncated") || truncated.standardError.contains("frame 7"))
        let stream = try #require(try CLI.probe(encoded, ["-count_frames", "-show_streams"]).first)
        #expect(stream["nb_read_frames"] == "7")
    }

    @Test func wavThatIsNotPCMIsRefused() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let wav = directory.appendingPathComponent("adpcm.wav").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine", "-t", "1", "-c:a", "adpcm_ms", wav])
        let output = try CLI.run(["encode", wav, "-o", directory.appendingPathComponent("x.aac").path])
        #expect(output.status != 0 && output.standardError.contains("ADPCM"), "\(output.standardError)")
    }
}
#endif
