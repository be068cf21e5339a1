import Foundation
import Testing
import TestSupport

/// The peer and the arithmetic of `scripts/benchmark-native-h264.sh`, checked against oracles: the
/// openh264 driver (`scripts/native-h264-benchmark/openh264-encode.c`, built with gcc against
/// libopenh264) writes Constrained Baseline streams that ffmpeg decodes strictly, one picture per input
/// frame, whose size follows the QP and the target bitrate; the BD-rate module passes its self-test
/// (curves with a known answer: +10 % rate, 1 dB better on a 3 dB/octave line, no overlap).
@Suite(.enabled(if: ExternalTool.isRunnable("gcc", "ffmpeg", "ffprobe", "python3")))
struct NativeH264BenchmarkToolsTests {
    static let folder = MediaFiles.packageRoot.appendingPathComponent("scripts/native-h264-benchmark")

    /// Builds the driver and makes a 176x144 testsrc2 clip of `frames` frames; returns (driver, clip).
    func prepare(frames: Int) throws -> (driver: String, clip: String, directory: URL) {
        let directory = try ExternalTool.temporaryDirectory()
        let driver = directory.appendingPathComponent("openh264-encode").path
        try ExternalTool.check("gcc", ["-O2", "-Wall", "-Wextra", "-Werror", "-o", driver,
                                       Self.folder.appendingPathComponent("openh264-encode.c").path, "-lopenh264"])
        let clip = directory.appendingPathComponent("clip.y4m").path
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=30",
                                          "-frames:v", "\(frames)", "-pix_fmt", "yuv420p", clip])
        return (driver, clip, directory)
    }

    /// Encodes with the driver and returns the stream's size; checks its own report and ffmpeg's strict decode.
    func encode(_ driver: String, _ clip: String, to stream: String, _ rate: [String], frames: Int) throws -> Int {
        let output = try ExternalTool.check(driver, [clip, stream] + rate + ["--keyint", "10"])
        #expect(output.text.hasPrefix("frames \(frames) bytes "), "driver said: \(output.text)")
        let decoded = try ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", stream,
                                                        "-f", "framemd5", "-"])
        #expect(decoded.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == frames)
        let probe = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                       "stream=profile,width,height", "-of", "default=nw=1", stream])
        #expect(probe.text.contains("profile=Constrained Baseline"))
        #expect(probe.text.contains("width=176") && probe.text.contains("height=144"))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: stream)[.size] as? Int)
        #expect(output.text.contains("bytes \(size) "), "the reported byte count is the file's")
        return size
    }

    @Test func openh264DriverFollowsTheQPAndTheBitrate() throws {
        let frames = 60
        let (driver, clip, directory) = try prepare(frames: frames)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fine = try encode(driver, clip, to: directory.appendingPathComponent("qp20.264").path, ["--qp", "20"], frames: frames)
        let coarse = try encode(driver, clip, to: directory.appendingPathComponent("qp40.264").path, ["--qp", "40"], frames: frames)
        #expect(coarse * 3 < fine, "QP 40 (\(coarse) B) should be far smaller than QP 20 (\(fine) B)")
        let target = 400_000
        let bytes = try encode(driver, clip, to: directory.appendingPathComponent("400k.264").path,
                               ["--bitrate", "\(target)"], frames: frames)
        let bitsPerSecond = Double(bytes * 8) * 30 / Double(frames)
        #expect(abs(bitsPerSecond / Double(target) - 1) < 0.3, "openh264 at 400 kbit/s made \(Int(bitsPerSecond)) bit/s")
    }

    @Test func driverRefusesAmbiguousRateOptions() async throws {
        let (driver, clip, directory) = try prepare(frames: 2)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stream = directory.appendingPathComponent("x.264").path
        let both = try await ExternalTool.run(driver, [clip, stream, "--qp", "30", "--bitrate", "100000"])
        #expect(both.status != 0 && both.standardError.contains("exactly one of --qp and --bitrate"))
        let neither = try await ExternalTool.run(driver, [clip, stream, "--keyint", "5"])
        #expect(neither.status != 0)
    }

    @Test func bdRateSelfTestPasses() async throws {
        let venv = MediaFiles.packageRoot.appendingPathComponent(".build/peers-venv/bin/python").path
        let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
        let output = try await ExternalTool.check(python, [Self.folder.appendingPathComponent("bdrate.py").path, "--self-test"])
        #expect(output.text.contains("bdrate self-test: ok"))
    }
}
