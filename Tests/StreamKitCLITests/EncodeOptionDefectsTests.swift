#if FFmpeg
import Foundation
import Testing
import TestSupport

/// `streamkit encode` options that used to be overridden, ignored or refused by the encoder, each
/// checked against ffprobe/ffmpeg: `--fps` given vs default, `--gop`'s default, `--qp 0` (lossless),
/// the bit rate of an `.aac` encode, and an input without frames.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct EncodeOptionDefectsTests {
    /// A Y4M of ffmpeg's test pattern at `rate` frames per second.
    private func testPattern(_ path: String, frames: Int, rate: Int, size: String = "320x240") throws {
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)",
                                          "-frames:v", String(frames), "-pix_fmt", "yuv420p", path])
    }

    @Test func explicitFPS30IsNotMistakenForTheDefault() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = directory.appendingPathComponent("25fps.y4m").path
        try testPattern(source, frames: 10, rate: 25)
        let own = directory.appendingPathComponent("own.h264").path
        let forced = directory.appendingPathComponent("forced.h264").path
        #expect(try CLI.run(["encode", source, "-o", own, "--qp", "20"]).status == 0)
        let result = try CLI.run(["encode", source, "-o", forced, "--qp", "20", "--fps", "30"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try CLI.probe(own, ["-show_streams"]).first?["r_frame_rate"] == "25/1", "without --fps: the Y4M's rate")
        #expect(try CLI.probe(forced, ["-show_streams"]).first?["r_frame_rate"] == "30/1", "--fps 30 given: 30, not the Y4M's 25")
    }

    @Test func encodeKeyFramesDefaultToOnePerSecondAsRecordDoes() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let encoded = directory.appendingPathComponent("gop.h264").path
        let result = try CLI.run(["encode", "testsrc", "-o", encoded, "--frames", "40", "--fps", "10", "--size", "320x240"])
        #expect(result.status == 0, "\(result.standardError)")
        let frames = try CLI.probe(encoded, ["-show_frames", "-show_entries", "frame=key_frame"])
        #expect(frames.count == 40)
        #expect(frames.enumerated().filter { $0.element["key_frame"] == "1" }.map(\.offset) == [0, 10, 20, 30])
    }

    @Test func qpZeroIsLosslessHigh444Predictive() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = directory.appendingPathComponent("source.y4m").path
        try testPattern(source, frames: 12, rate: 30, size: "352x288")
        let encoded = directory.appendingPathComponent("lossless.h264").path
        let result = try CLI.run(["encode", source, "-o", encoded, "--qp", "0"])
        #expect(result.status == 0, "\(result.standardError)")
        let stream = try #require(try CLI.probe(encoded, ["-show_streams"]).first)
        #expect(stream["profile"] == "High 4:4:4 Predictive" && stream["pix_fmt"] == "yuv420p")
        // Lossless: every decoded picture equals its source picture, by ffmpeg's decoder and by ours.
        let reference = CLI.frameHashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", source, "-f", "framemd5", "-"]).text)
        let theirs = await CLI.frameHashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", encoded, "-f", "framemd5", "-"]).text)
        let decoded = directory.appendingPathComponent("decoded.y4m").path
        let decode = try CLI.run(["decode", encoded, "-o", decoded])
        #expect(decode.status == 0, "\(decode.standardError)")
        let ours = await CLI.frameHashes(try ExternalTool.check("ffmpeg", ["-v", "error", "-i", decoded, "-f", "framemd5", "-"]).text)
        #expect(reference.count == 12)
        #expect(theirs == reference, "ffmpeg's decode of --qp 0 differs from the source")
        #expect(ours == reference, "streamkit's decode of --qp 0 differs from the source")
    }

    @Test func qpZeroWithAnotherProfileFailsBeforeWriting() throws {
        let directory = try ExternalTool.temporaryDirectory()
        let encoded = directory.appendingPathComponent("x.h264").path
        let result = try CLI.run(["encode", "testsrc", "-o", encoded, "--frames", "3", "--qp", "0", "--profile", "main"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--qp 0 is lossless") && result.standardError.contains("--profile high444"),
                "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: encoded))
    }

    /// The bit rate of an ADTS file by ffprobe: packet bytes over the duration of its AAC frames.
    private func measuredBitRate(_ path: String, sampleRate: Double) throws -> Double {
        let packets = try CLI.probe(path, ["-show_packets", "-select_streams", "a:0", "-show_entries", "packet=size"])
        let bytes = packets.compactMap { $0["size"].flatMap(Int.init) }.reduce(0, +)
        try #require(packets.count > 10)
        return Double(bytes * 8) / (Double(packets.count * 1024) / sampleRate)
    }

    @Test func bitrateSetsTheAACRateOfAnAudioEncode() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let wav = directory.appendingPathComponent("noise.wav").path
        // Noise, so the encoder needs every bit it is given.
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "anoisesrc=sample_rate=48000:amplitude=0.5", "-t", "4",
                                          "-ac", "2", "-c:a", "pcm_s16le", wav])
        var rates: [String: Double] = [:]
        for (name, arguments) in [("16k", ["--bitrate", "16k"]), ("128k", ["--bitrate", "128k"]), ("audio-16k", ["--audio-bitrate", "16k"])] {
            let aac = directory.appendingPathComponent("\(name).aac").path
            let result = try CLI.run(["encode", wav, "-o", aac] + arguments)
            #expect(result.status == 0, "\(result.standardError)")
            rates[name] = try measuredBitRate(aac, sampleRate: 48000)
        }
        let low = try #require(rates["16k"]), high = try #require(rates["128k"]), alias = try #require(rates["audio-16k"])
        #expect(low > 8_000 && low < 24_000, "--bitrate 16k measured \(low) bit/s")
        #expect(high > 96_000 && high < 160_000, "--bitrate 128k measured \(high) bit/s")
        #expect(high / low > 4, "128k vs 16k: \(high) vs \(low)")
        #expect(abs(alias - low) < 0.1 * low, "--audio-bitrate 16k and --bitrate 16k agree: \(alias) vs \(low)")
    }

    @Test func inputWithoutFramesIsAnErrorAndLeavesNoFile() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let empty = directory.appendingPathComponent("empty.y4m")
        try Data("YUV4MPEG2 W320 H240 F30:1 Ip A1:1 C420jpeg\n".utf8).write(to: empty)
        let encoded = directory.appendingPathComponent("empty.h264").path
        let result = try CLI.run(["encode", empty.path, "-o", encoded])
        #expect(result.status != 0)
        #expect(result.standardError.contains("has no frames"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: encoded), "no empty output is left behind")

        let wav = directory.appendingPathComponent("empty.wav").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "anullsrc=sample_rate=44100", "-frames:a", "0",
                                          "-c:a", "pcm_s16le", wav])
        let aac = directory.appendingPathComponent("empty.aac").path
        let audio = try CLI.run(["encode", wav, "-o", aac])
        #expect(audio.status != 0 && audio.standardError.contains("has no samples"), "\(audio.standardError)")
        #expect(!FileManager.default.fileExists(atPath: aac))
    }
}
#endif
