import Foundation
import NativeH264Decoder
import Testing
import TestSupport

/// x264 streams of the Main and High profiles without B slices: CABAC (§9.3), the 8x8 transform and
/// Intra_8x8 (§8.3.2, §8.5.13) and scaling matrices (§7.4.2.1.1, §8.5.9). Every frame must hash like
/// ffmpeg's (`-f framemd5`).
@Suite("Native H.264 decoder: x264 Main and High (CABAC, 8x8 transform, scaling matrices) against ffmpeg",
       .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct CABACStreamTests {
    /// Encodes `frames` frames of a moving lavfi source with x264: no B frames and no weighted prediction
    /// (not supported yet), one thread, then the given options.
    static func x264Stream(size: String, frames: Int = 24, options: [String]) throws -> String {
        let directory = try ExternalTool.temporaryDirectory()
        let y4m = directory.appendingPathComponent("source.y4m").path
        try ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25",
                                          "-frames:v", "\(frames)", "-pix_fmt", "yuv420p", "-y", y4m])
        var arguments = ["--quiet", "--threads", "1", "--bframes", "0", "--weightp", "0"] + options
        if let index = options.firstIndex(of: "--cqmfile"), index + 1 < options.count {
            let file = directory.appendingPathComponent("matrices.cqm")
            try Self.customMatrices.write(to: file, atomically: true, encoding: .utf8)
            arguments[arguments.firstIndex(of: "--cqmfile")! + 1] = file.path
        }
        let out = directory.appendingPathComponent("x264.264").path
        try ExternalTool.check("x264", arguments + ["-o", out, y4m])
        return out
    }

    /// A custom x264 matrix file: steep luma lists, chroma left to x264's fall-back.
    static let customMatrices = """
        INTRA4X4_LUMA =
        6,12,19,26,
        12,19,26,31,
        19,26,31,35,
        26,31,35,39
        INTER4X4_LUMA =
        9,13,18,21,
        13,18,21,24,
        18,21,24,27,
        21,24,27,30
        INTRA8X8_LUMA =
        6,10,13,16,18,23,25,27,
        10,11,16,18,23,25,27,29,
        13,16,18,23,25,27,29,31,
        16,18,23,25,27,29,31,33,
        18,23,25,27,29,31,33,36,
        23,25,27,29,31,33,36,38,
        25,27,29,31,33,36,38,40,
        27,29,31,33,36,38,40,42
        INTER8X8_LUMA =
        9,13,15,17,19,21,22,24,
        13,13,17,19,21,22,24,25,
        15,17,19,21,22,24,25,27,
        17,19,21,22,24,25,27,28,
        19,21,22,24,25,27,28,30,
        21,22,24,25,27,28,30,32,
        22,24,25,27,28,30,32,33,
        24,25,27,28,30,32,33,35

        """

    static let optionSets: [(String, [String])] = [
        ("176x144", ["--profile", "main"]),
        ("176x144", ["--profile", "main", "--keyint", "1", "--qp", "12"]),
        ("176x144", ["--profile", "main", "--ref", "4", "--partitions", "all", "--qp", "30"]),
        ("176x144", ["--profile", "main", "--slices", "4", "--ref", "2"]),
        ("200x120", ["--profile", "main", "--qp", "44", "--deblock", "-2:1"]),
        ("176x144", ["--profile", "high"]),
        ("176x144", ["--profile", "high", "--keyint", "6", "--qp", "8"]),
        ("176x144", ["--profile", "high", "--no-8x8dct"]),
        ("176x144", ["--profile", "high", "--no-cabac", "--ref", "3"]),
        ("200x120", ["--profile", "high", "--slices", "3", "--partitions", "all", "--ref", "3"]),
        ("176x144", ["--profile", "high", "--cqm", "jvt"]),
        ("176x144", ["--profile", "high", "--cqm", "jvt", "--no-cabac"]),
        ("176x144", ["--profile", "high", "--cqmfile", "matrices.cqm", "--qp", "20"]),
        ("98x66", ["--profile", "high", "--cqmfile", "matrices.cqm", "--no-cabac", "--chroma-qp-offset", "-3"]),
    ]

    @Test("x264 Main/High without B frames: every frame equals ffmpeg's", arguments: optionSets.indices)
    func x264MainHigh(_ index: Int) throws {
        let (size, options) = Self.optionSets[index]
        let path = try Self.x264Stream(size: size, options: options)
        let reference = try PeerStreamTests.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        #expect(ours.count == 24 && ours == reference, "\(size) \(options): \(ours.count) frames; first differing \(String(describing: zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
    }
}
