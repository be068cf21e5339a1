import Foundation
import NativeH264Decoder
import Testing
import TestSupport

/// x264 streams of interlaced sequences (frame_mbs_only_flag 0). `--fake-interlaced` codes frame pictures in an
/// interlaced sequence (the frame half of PAFF: frames stored as field pairs, reference lists of frames whose
/// fields are both references, direct prediction with direct_8x8_inference): every frame must hash like ffmpeg's.
/// `--tff`/`--bff` code MBAFF frames: I, P and B slices (CAVLC or CABAC), here without deblocking (the reconstruction
/// alone) but for the intra sets; ``MBAFFDeblockingStreamTests`` has P and B slices deblocked. Every frame must hash
/// like ffmpeg's.
@Suite("Native H.264 decoder: x264 interlaced streams against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct InterlacedStreamTests {
    /// (size, source filter, x264 options) of frame pictures in interlaced sequences.
    static let frameOptionSets: [(String, String?, [String])] = [
        ("176x144", nil, ["--profile", "main", "--fake-interlaced", "--bframes", "2", "--direct", "temporal", "--ref", "2"]),
        ("176x144", nil, ["--profile", "high", "--fake-interlaced", "--bframes", "3", "--b-pyramid", "normal", "--direct", "spatial",
                          "--8x8dct", "--ref", "3", "--partitions", "all"]),
        ("200x120", "fade=in:0:20", ["--profile", "high", "--fake-interlaced", "--bframes", "3", "--weightb", "--weightp", "2",
                                     "--ref", "3", "--direct", "temporal"]),
        ("176x144", nil, ["--profile", "high", "--fake-interlaced", "--no-cabac", "--bframes", "2", "--direct", "auto",
                          "--weightp", "2", "--cqm", "jvt", "--slices", "2"]),
    ]

    @Test("x264 --fake-interlaced (frame pictures, frame_mbs_only_flag 0): every frame equals ffmpeg's, in display order",
          arguments: frameOptionSets.indices)
    func fakeInterlaced(_ index: Int) throws {
        let (size, filter, options) = Self.frameOptionSets[index]
        let path = try CABACBSliceStreamTests.x264Stream(size: size, filter: filter, options: options)
        let reference = try PeerStreamTests.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ours.count == 24 && ours == reference, "\(size) \(options): \(ours.count) frames; first differing \(String(describing: firstBad))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
    }

    /// (source filter, x264 options) of MBAFF frames the decoder decodes: I slices (CAVLC or CABAC), from interlaced sources (two
    /// moments woven into each frame) so that x264 codes a mix of field and frame pairs; without deblocking (the
    /// reconstruction alone) and with it (§8.7 in MBAFF frames: field macroblocks per field, mixed edges).
    static let mbaffIntraOptionSets: [(String, [String])] = [
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--keyint", "1", "--no-deblock"]),
        ("tinterlace=mode=interleave_top", ["--profile", "high", "--bff", "--no-cabac", "--keyint", "1", "--no-deblock", "--slices", "3"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "main", "--tff", "--no-cabac", "--keyint", "1", "--no-deblock",
                                                                 "--qp", "12"]),
        ("tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--keyint", "1", "--no-deblock", "--cqm", "jvt", "--qp", "40"]),
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--keyint", "1", "--qp", "36"]),
        ("tinterlace=mode=interleave_top", ["--profile", "main", "--bff", "--no-cabac", "--keyint", "1", "--slices", "3",
                                            "--deblock", "2:1", "--qp", "30"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--keyint", "1",
                                                                 "--deblock", "-1:-2", "--qp", "44"]),
        // CABAC.
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--keyint", "1", "--no-deblock"]),
        ("tinterlace=mode=interleave_top", ["--profile", "main", "--bff", "--keyint", "1", "--slices", "3", "--qp", "30"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--keyint", "1", "--qp", "14"]),
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--keyint", "1", "--cqm", "jvt", "--qp", "38"]),
    ]

    @Test("x264 --tff/--bff intra-only (MBAFF I slices, CAVLC or CABAC, with and without deblocking): every frame equals ffmpeg's",
          arguments: mbaffIntraOptionSets.indices)
    func mbaffIntra(_ index: Int) throws {
        let (filter, options) = Self.mbaffIntraOptionSets[index]
        try Self.expectMBAFFEqual(filter: filter, options: options)
    }

    /// (source filter, x264 options) of MBAFF frames with P slices (`--bframes 0`): skipped pairs (flag inferred, or carried
    /// by the bottom macroblock), motion vector prediction across frame and field pairs (§8.4.1.3 with Table 6-4), field
    /// references of field macroblocks (§8.4.2.1), explicit weights; CAVLC and CABAC, without deblocking (the reconstruction).
    static let mbaffPOptionSets: [(String, [String])] = [
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--bframes", "0", "--no-deblock"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--bff", "--no-cabac", "--bframes", "0", "--no-deblock",
                                                                 "--ref", "3", "--partitions", "all", "--slices", "3"]),
        ("tinterlace=mode=interleave_top", ["--profile", "main", "--tff", "--no-cabac", "--bframes", "0", "--no-deblock", "--weightp", "2",
                                            "--ref", "2"]),
        // CABAC.
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "0", "--no-deblock"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--bff", "--bframes", "0", "--no-deblock", "--ref", "3",
                                                                 "--partitions", "all", "--8x8dct", "--slices", "3"]),
        ("fade=in:0:20,scroll=h=0.01,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "0", "--no-deblock",
                                                                       "--weightp", "2", "--ref", "3"]),
    ]

    @Test("x264 --tff/--bff with P slices (MBAFF inter, CAVLC or CABAC, no deblocking): every frame equals ffmpeg's",
          arguments: mbaffPOptionSets.indices)
    func mbaffP(_ index: Int) throws {
        let (filter, options) = Self.mbaffPOptionSets[index]
        try Self.expectMBAFFEqual(filter: filter, options: options)
    }

    /// MBAFF with constrained_intra_pred_flag (x264 --constrained-intra): inter neighbours are not available for intra
    /// prediction (§8.3.1.2 through Table 6-4, the left column by halves), nor for Intra4x4PredMode's prediction.
    static let mbaffConstrainedIntraOptionSets: [(String, [String])] = [
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "3", "--b-pyramid", "normal",
                                                                 "--no-deblock", "--direct", "spatial", "--ref", "4", "--partitions", "all",
                                                                 "--8x8dct", "--slices", "4", "--constrained-intra", "--qp", "26"]),
        ("scroll=h=-0.02:v=-0.03,tinterlace=mode=interleave_bottom", ["--profile", "high", "--bff", "--no-cabac", "--bframes", "2",
                                                                      "--no-deblock", "--constrained-intra", "--qp", "30", "--partitions", "all",
                                                                      "--8x8dct"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "main", "--tff", "--bframes", "0", "--no-deblock",
                                                                 "--constrained-intra", "--qp", "40"]),
    ]

    @Test("x264 --tff/--bff --constrained-intra with P/B slices (MBAFF, no deblocking): every frame equals ffmpeg's",
          arguments: mbaffConstrainedIntraOptionSets.indices)
    func mbaffConstrainedIntra(_ index: Int) throws {
        let (filter, options) = Self.mbaffConstrainedIntraOptionSets[index]
        try Self.expectMBAFFEqual(filter: filter, options: options)
    }

    /// Decodes an x264 MBAFF stream of 24 frames and expects every frame to hash as ffmpeg's (prints how many do).
    static func expectMBAFFEqual(filter: String?, options: [String]) throws {
        let path = try CABACBSliceStreamTests.x264Stream(size: "176x144", filter: filter, options: options)
        let reference = try PeerStreamTests.ffmpegHashes(path)
        let result = DecoderRun.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(result.errors.isEmpty, "\(options): \(result.errors)")
        let ours = result.frames.map(DecoderRun.md5)
        let firstBad = zip(ours, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        print("x264 MBAFF \(options): \(ours.count) frames, \(zip(ours, reference).filter { $0.0 == $0.1 }.count) equal to ffmpeg's")
        #expect(ours.count == 24 && ours == reference, "\(options): \(ours.count) frames; first differing \(String(describing: firstBad))")
        #expect(result.frames.allSatisfy { $0.concealedMacroblocks == 0 && $0.problems.isEmpty })
    }

    /// (source filter, x264 options) of MBAFF frames with B slices: direct prediction spatial and temporal with co-located
    /// pairs of either structure (§8.4.1.2.1, Table 8-8), B_Skip and B_Direct pairs, implicit and explicit weights of field
    /// macroblocks, pyramids (B frames as co-located pictures); CAVLC and CABAC, without deblocking. The first three are
    /// ``MBAFFDeblockingStreamTests/optionSets``' first three with --no-deblock.
    static let mbaffBOptionSets: [(String?, [String])] = [
        (nil, ["--profile", "high", "--tff", "--bframes", "2", "--no-deblock"]),
        (nil, ["--profile", "high", "--bff", "--bframes", "3", "--weightp", "2", "--direct", "temporal", "--no-deblock"]),
        (nil, ["--profile", "main", "--tff", "--no-cabac", "--bframes", "2", "--weightp", "2", "--no-deblock"]),
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--bframes", "2", "--no-deblock",
                                                           "--direct", "temporal"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--bframes", "3",
                                                                 "--b-pyramid", "normal", "--no-deblock", "--direct", "auto", "--ref", "3",
                                                                 "--partitions", "all", "--8x8dct", "--slices", "3", "--weightb", "--weightp", "2"]),
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "2", "--no-deblock", "--direct", "spatial"]),
        ("fade=in:0:20,scroll=h=0.01,tinterlace=mode=interleave_top", ["--profile", "high", "--bff", "--bframes", "3", "--b-pyramid", "normal",
                                                                       "--no-deblock", "--direct", "temporal", "--ref", "3", "--partitions", "all",
                                                                       "--8x8dct", "--weightb", "--weightp", "2"]),
        ("fade=in:0:20,scroll=h=0.01,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "3", "--b-pyramid", "strict",
                                                                       "--no-deblock", "--direct", "spatial", "--ref", "4", "--partitions", "all",
                                                                       "--weightb", "--slices", "2"]),
    ]

    @Test("x264 --tff/--bff with B slices (MBAFF direct and bi-prediction, CAVLC or CABAC, no deblocking): every frame equals ffmpeg's",
          arguments: mbaffBOptionSets.indices)
    func mbaffB(_ index: Int) throws {
        let (filter, options) = Self.mbaffBOptionSets[index]
        try Self.expectMBAFFEqual(filter: filter, options: options)
    }
}
