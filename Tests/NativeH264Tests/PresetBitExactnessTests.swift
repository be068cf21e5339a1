import CodecInterface
import Containers
import MediaCore
import NativeH264
import Testing
import TestSupport

/// Every preset under the oracle (ffmpeg's decode = the encoder's reconstruction, frame for frame), on one
/// thread and with slices on two threads; each preset's partitions are the ones its tools allow, and the
/// slower presets do not spend more bits than the fastest at the same QP.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct PresetBitExactnessTests {
    /// The CIF foreman sequence (8 frames played forwards then backwards: 16), or `nil` without the media.
    static func foreman() throws -> [PixelBuffer] {
        var reader = try Y4MReader(path: MediaFiles.url("sequences/foreman_cif8.y4m").path)
        var frames = [PixelBuffer]()
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames + frames.reversed()
    }

    @Test("foreman CIF: every preset decodes to its reconstruction, on one thread and as 3 slices on 2 threads",
          .requiresMedia, arguments: EncoderPreset.allCases)
    func foremanBitExact(preset: EncoderPreset) throws {
        let frames = try Self.foreman()
        let oracle = InterEncoderBitExactnessTests()
        let single = try oracle.expectBitExact(frames, qp: 28, keyFrameInterval: 10, preset: preset, label: "foreman \(preset)")
        let sliced = try oracle.expectBitExact(frames, qp: 28, keyFrameInterval: 10, preset: preset, sliceLayout: .count(3), threadCount: 2,
                                               label: "foreman \(preset), 3 slices on 2 threads")
        for types in [single.types, sliced.types] {
            #expect(types.predicted16x16 > 0 && types.skipped > 0, "\(preset): \(types)")
            switch preset {
            case .ultrafast, .superfast, .veryfast:
                #expect(types.predicted16x8 + types.predicted8x16 == 0, "\(preset) searches 16x16 and 8x8 only: \(types)")
            case .faster, .fast, .medium:
                #expect(types.predicted8x8 + types.predicted16x8 + types.predicted8x16 > 0, "\(preset) searches every partition: \(types)")
            }
        }
    }

    @Test("panned texture with a cut to mandelbrot: every preset bit-exact, the cut coded intra in the P picture",
          arguments: EncoderPreset.allCases)
    func cutBitExact(preset: EncoderPreset) throws {
        let frames = try InterEncoderBitExactnessTests.pannedFrames(width: 176, height: 144, count: 6)
            + InterEncoderBitExactnessTests.lavfiFrames("mandelbrot=size=176x144:rate=30", count: 4)
        let outcome = try InterEncoderBitExactnessTests().expectBitExact(frames, qp: 26, keyFrameInterval: 30, preset: preset,
                                                                         label: "cut \(preset)")
        #expect(outcome.keyFrameBytes.count == 1)
        #expect(outcome.intraInPredicted > 0, "\(preset): \(outcome.types)")
    }

    @Test("foreman CIF at QP 30: the thorough presets spend fewer bits than ultrafast", .requiresMedia)
    func slowerPresetsCompressBetter() throws {
        let frames = try Self.foreman()
        let oracle = InterEncoderBitExactnessTests()
        func bytes(_ preset: EncoderPreset) throws -> Int {
            let outcome = try oracle.expectBitExact(frames, qp: 30, keyFrameInterval: 30, preset: preset, label: "foreman \(preset) QP 30")
            return outcome.keyFrameBytes.reduce(0, +) + outcome.predictedBytes.reduce(0, +)
        }
        let fastest = try bytes(.ultrafast), thorough = try bytes(.medium)
        #expect(thorough < fastest, "medium \(thorough) bytes, ultrafast \(fastest)")
    }

    @Test("VideoToolbox's speed and quality properties map onto presets as documented")
    func videoToolboxMapping() {
        #expect(EncoderPreset(realTime: true, prioritizeSpeedOverQuality: true, quality: nil) == .ultrafast)
        #expect(EncoderPreset(realTime: true, prioritizeSpeedOverQuality: false, quality: nil) == .veryfast)
        #expect(EncoderPreset(realTime: false, prioritizeSpeedOverQuality: false, quality: 0.25) == .faster)
        #expect(EncoderPreset(realTime: false, prioritizeSpeedOverQuality: false, quality: 1) == .medium)
        #expect(EncoderPreset(realTime: false, prioritizeSpeedOverQuality: false, quality: nil) == nil)
        #expect(EncoderPreset.allCases.sorted() == EncoderPreset.allCases)
        #expect(EncoderPreset.ultrafast < .medium)
    }
}
