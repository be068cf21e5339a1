import Foundation
import NativeH264Decoder
import Testing
import TestSupport

/// B slices with CABAC (§9.3: B mb_type, sub_mb_type, ref_idx and mvd of both lists, B_Skip through mb_skip_flag)
/// and the 8x8 transform in B slices (transform_size_8x8_flag under §7.3.5's conditions, CAVLC and CABAC), from x264
/// in the combinations its users run: B-pyramids, weighted prediction, spatial and temporal direct prediction,
/// scaling matrices, slices, odd sizes. Every frame must hash like ffmpeg's (`-f framemd5`), in display order.
@Suite("Native H.264 decoder: x264 B-frame streams with CABAC and the 8x8 transform against ffmpeg",
       .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct CABACBSliceStreamTests {
    /// Encodes `frames` frames of a moving lavfi source (with an optional filter, e.g. a fade for weighted
    /// prediction) with x264, one thread, then the given options; a `--cqmfile` argument is replaced by
    /// ``CABACStreamTests/customMatrices`` written beside the stream.
    static func x264Stream(size: String, frames: Int = 24, filter: String? = nil, options: [String]) throws -> String {
        let directory = try ExternalTool.temporaryDirectory()
        let y4m = directory.appendingPathComponent("source.y4m").path
        var source = ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25"]
        if let filter { source += ["-vf", filter] }
        try ExternalTool.check("ffmpeg", source + ["-frames:v", "\(frames)", "-pix_fmt", "yuv420p", "-y", y4m])
        var arguments = ["--quiet", "--threads", "1"] + options
        if let index = arguments.firstIndex(of: "--cqmfile"), index + 1 < arguments.count {
            let file = directory.appendingPathComponent("matrices.cqm")
            try CABACStreamTests.customMatrices.write(to: file, atomically: true, encoding: .utf8)
            arguments[index + 1] = file.path
        }
        let out = directory.appendingPathComponent("x264.264").path
        try ExternalTool.check("x264", arguments + ["-o", out, y4m])
        return out
    }

    /// (size, source filter, x264 options).
    static let optionSets: [(String, String?, [String])] = [
        ("176x144", nil, ["--profile", "main", "--bframes", "1", "--b-pyramid", "none", "--direct", "spatial", "--ref", "1", "--no-weightb"]),
        ("176x144", nil, ["--profile", "main", "--bframes", "2", "--b-pyramid", "none", "--direct", "temporal", "--ref", "2"]),
        ("176x144", nil, ["--profile", "high", "--bframes", "3", "--b-pyramid", "normal", "--weightp", "2", "--direct", "temporal",
                          "--8x8dct", "--ref", "3"]),
        ("176x144", nil, ["--profile", "high", "--bframes", "3", "--b-pyramid", "normal", "--weightp", "2", "--direct", "spatial",
                          "--8x8dct", "--ref", "3", "--partitions", "all"]),
        ("176x144", nil, ["--profile", "high", "--bframes", "3", "--b-pyramid", "strict", "--direct", "auto", "--cqm", "jvt"]),
        ("200x120", "fade=in:0:20", ["--profile", "high", "--bframes", "3", "--b-pyramid", "normal", "--weightb", "--weightp", "2",
                                     "--ref", "3", "--direct", "temporal"]),
        ("98x66", nil, ["--profile", "high", "--bframes", "2", "--direct", "temporal", "--weightb", "--keyint", "8", "--ref", "2"]),
        ("112x64", nil, ["--profile", "high", "--bframes", "1", "--direct", "auto", "--ref", "2", "--open-gop", "--keyint", "10",
                         "--qp", "20"]),
        ("320x240", nil, ["--profile", "high", "--bframes", "3", "--b-pyramid", "normal", "--direct", "spatial", "--partitions", "all",
                          "--subme", "7", "--slices", "3", "--qp", "35", "--b-adapt", "2"]),
        ("176x144", "fade=out:8:16", ["--profile", "high", "--bframes", "2", "--b-adapt", "2", "--weightp", "2", "--weightb", "--ref", "4",
                                      "--direct", "auto", "--deblock", "-2:1", "--crf", "20", "--cqmfile", "matrices.cqm"]),
        ("200x120", nil, ["--profile", "high", "--bframes", "3", "--b-pyramid", "normal", "--ref", "5", "--slices", "3",
                          "--partitions", "all", "--me", "umh", "--subme", "8", "--keyint", "12", "--min-keyint", "1", "--qp", "12"]),
        ("176x144", nil, ["--profile", "high", "--no-cabac", "--bframes", "3", "--b-pyramid", "normal", "--direct", "spatial",
                          "--8x8dct", "--ref", "3", "--partitions", "all"]),
        ("98x66", "fade=in:0:12", ["--profile", "high", "--no-cabac", "--bframes", "2", "--direct", "temporal", "--weightp", "2",
                                   "--weightb", "--cqm", "jvt", "--chroma-qp-offset", "-3"]),
    ]

    @Test("x264 with B-frames (CABAC and CAVLC, 8x8 transform): every frame equals ffmpeg's, in display order",
          arguments: optionSets.indices)
    func x264BFrames(_ index: Int) throws {
        let (size, filter, options) = Self.optionSets[index]
        let path = try Self.x264Stream(size: size, filter: filter, options: options)
        let reference = try PeerStreamTests.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours.count == 24 && ours == reference, "\(size) \(options): \(ours.count) frames; first differing \(String(describing: firstBad))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
        #expect(Set(result.frames.map(\.timestamp)).count == result.frames.count)
    }

    @Test("openh264-extra's Cisco_Men_whisper CABAC B-frame stream equals ffmpeg's", .requiresMedia)
    func ciscoCABACBFrames() throws {
        let path = "h264-conformance/openh264-extra/Cisco_Men_whisper_640x320_CABAC_Bframe_9.264"
        let reference = try PeerStreamTests.ffmpegHashes(MediaFiles.url(path).path)
        let result = DecoderRun.decode(try MediaFiles.bytes(path))
        #expect(result.errors.isEmpty, "\(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        #expect(!ours.isEmpty && ours == reference, "\(ours.count) frames of \(reference.count)")
    }
}
