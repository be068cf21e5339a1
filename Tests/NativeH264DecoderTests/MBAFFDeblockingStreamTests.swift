import NativeH264Decoder
import Testing
import TestSupport

/// The deblocking filter over MBAFF frames with P and B slices (§8.7, §8.7.2.1 in MBAFF frames): x264 `--tff`/`--bff`
/// streams from interlaced sources (two moments woven into each frame, so that x264 mixes field and frame macroblock
/// pairs and every mixed edge occurs: field next to frame pairs, frame pairs under field pairs), with deblocking on,
/// at quantisers and offsets that make bS 1 and 2 edges filter visibly. Every frame must hash like ffmpeg's.
@Suite("Native H.264 decoder: MBAFF deblocking of inter frames against ffmpeg", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct MBAFFDeblockingStreamTests {
    /// (source filter, x264 options).
    static let optionSets: [(String?, [String])] = [
        (nil, ["--profile", "high", "--tff", "--bframes", "2"]),
        (nil, ["--profile", "high", "--bff", "--bframes", "3", "--weightp", "2", "--direct", "temporal"]),
        (nil, ["--profile", "main", "--tff", "--no-cabac", "--bframes", "2", "--weightp", "2"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--no-cabac", "--bframes", "0", "--qp", "34"]),
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "0", "--qp", "38", "--deblock", "2:2"]),
        ("tinterlace=mode=interleave_top", ["--profile", "main", "--bff", "--bframes", "0", "--ref", "3", "--slices", "3", "--qp", "30"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "0", "--8x8dct", "--partitions", "all",
                                                                 "--qp", "40", "--deblock", "-1:1"]),
        ("scroll=h=0.03:v=0.02,tinterlace=mode=interleave_top", ["--profile", "high", "--tff", "--bframes", "2", "--qp", "36"]),
        ("scroll=h=0.004,tinterlace=mode=interleave_top", ["--profile", "high", "--bff", "--no-cabac", "--bframes", "3", "--weightp", "2",
                                                           "--direct", "temporal", "--qp", "42", "--deblock", "3:0"]),
    ]

    @Test("x264 --tff/--bff with P and B slices and deblocking (mixed field/frame edges, bS 1 and 2): every frame equals ffmpeg's",
          arguments: optionSets.indices)
    func interFrames(_ index: Int) throws {
        let (filter, options) = Self.optionSets[index]
        try InterlacedStreamTests.expectMBAFFEqual(filter: filter, options: options)
    }
}
