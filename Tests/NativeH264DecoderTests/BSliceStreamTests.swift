import Foundation
import NativeH264Decoder
import Testing
import TestSupport

/// B slices with CAVLC from x264 (Main profile, `--no-cabac --no-8x8dct`): B-pyramids, spatial and
/// temporal direct prediction, implicit and explicit weighted prediction, several references, slices,
/// odd sizes and open GOPs (x264 weights B pictures implicitly unless `--no-weightb`: some sets turn it off
/// for the default average). Every frame must hash like ffmpeg's (`-f framemd5`), in display order.
@Suite("Native H.264 decoder: x264 B-frame streams (CAVLC) against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct BSliceStreamTests {
    /// Encodes `frames` frames of a moving lavfi source (with an optional filter, e.g. a fade for weighted
    /// prediction) with x264 in Main profile with CAVLC and no 8x8 transform, plus the given options.
    static func x264MainStream(size: String, frames: Int = 24, filter: String? = nil, options: [String]) throws -> String {
        let directory = try ExternalTool.temporaryDirectory()
        let y4m = directory.appendingPathComponent("source.y4m").path
        var arguments = ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25"]
        if let filter { arguments += ["-vf", filter] }
        try ExternalTool.check("ffmpeg", arguments + ["-frames:v", "\(frames)", "-pix_fmt", "yuv420p", "-y", y4m])
        let out = directory.appendingPathComponent("x264.264").path
        try ExternalTool.check("x264", ["--quiet", "--profile", "main", "--no-cabac", "--no-8x8dct", "--threads", "1"] + options + ["-o", out, y4m])
        return out
    }

    /// (size, source filter, x264 options).
    static let optionSets: [(String, String?, [String])] = [
        ("176x144", nil, ["--bframes", "1", "--b-pyramid", "none", "--direct", "spatial", "--ref", "1", "--no-weightb"]),
        ("176x144", nil, ["--bframes", "2", "--b-pyramid", "none", "--direct", "temporal", "--ref", "2", "--no-weightb"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "strict", "--direct", "spatial", "--ref", "3"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "normal", "--direct", "temporal", "--ref", "4", "--b-adapt", "2"]),
        ("200x120", nil, ["--bframes", "3", "--b-pyramid", "normal", "--direct", "auto", "--weightb", "--ref", "3"]),
        ("176x144", "fade=in:0:20", ["--bframes", "2", "--weightb", "--weightp", "1", "--ref", "5", "--slices", "3"]),
        ("200x120", "fade=in:0:20", ["--bframes", "3", "--b-pyramid", "normal", "--weightb", "--weightp", "2", "--ref", "3",
                                     "--direct", "temporal"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "normal", "--open-gop", "--keyint", "12", "--ref", "2", "--no-weightb"]),
        ("98x66", nil, ["--bframes", "2", "--direct", "temporal", "--weightb", "--keyint", "8", "--ref", "2"]),
        ("320x240", nil, ["--bframes", "3", "--b-pyramid", "normal", "--direct", "spatial", "--partitions", "all", "--subme", "7",
                          "--slices", "3", "--qp", "35"]),
        ("176x144", nil, ["--bframes", "3", "--b-pyramid", "strict", "--ref", "1", "--direct", "temporal", "--partitions", "all",
                          "--no-deblock", "--no-weightb"]),
        ("176x144", "fade=out:8:16", ["--bframes", "2", "--b-adapt", "2", "--weightp", "2", "--weightb", "--ref", "4",
                                      "--direct", "auto", "--deblock", "-2:1", "--crf", "20"]),
        ("200x120", nil, ["--bframes", "3", "--b-adapt", "2", "--b-pyramid", "normal", "--direct", "spatial", "--ref", "5",
                          "--slices", "3", "--partitions", "all", "--me", "umh", "--subme", "8"]),
        ("176x144", "fade=in:0:12", ["--bframes", "3", "--b-pyramid", "strict", "--weightp", "2", "--weightb", "--direct", "temporal",
                                     "--keyint", "6", "--min-keyint", "1", "--ref", "3", "--chroma-qp-offset", "-3"]),
        ("112x64", nil, ["--bframes", "1", "--direct", "auto", "--ref", "2", "--open-gop", "--keyint", "10", "--qp", "20", "--no-weightb"]),
    ]

    @Test("x264 --profile main --no-cabac with B-frames: every frame equals ffmpeg's, in display order", arguments: optionSets.indices)
    func x264BFrames(_ index: Int) throws {
        let (size, filter, options) = Self.optionSets[index]
        let path = try Self.x264MainStream(size: size, filter: filter, options: options)
        let reference = try PeerStreamTests.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours.count == 24 && ours == reference, "\(size) \(options): \(ours.count) frames; first differing \(String(describing: firstBad))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
        // Display order: each access unit comes out once (its timestamp), the picture order counts rising between IDRs.
        #expect(Set(result.frames.map(\.timestamp)).count == result.frames.count)
    }

    @Test("openh264-extra's Cisco_Men_whisper CAVLC B-frame stream equals ffmpeg's", .requiresMedia)
    func ciscoBFrames() throws {
        let path = "h264-conformance/openh264-extra/Cisco_Men_whisper_640x320_CAVLC_Bframe_9.264"
        let reference = try PeerStreamTests.ffmpegHashes(MediaFiles.url(path).path)
        let result = DecoderRun.decode(try MediaFiles.bytes(path))
        #expect(result.errors.isEmpty, "\(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        #expect(!ours.isEmpty && ours == reference, "\(ours.count) frames of \(reference.count)")
    }
}
