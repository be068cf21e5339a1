import CodecInterface
import Containers
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport

/// P pictures under the oracle: ffmpeg decodes the IDR + P stream with `-err_detect explode` and the md5
/// of every decoded frame equals the md5 of the encoder's reconstruction; P_Skip and P_L0_16x16 occur and
/// P pictures are much smaller than IDR pictures.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct InterEncoderBitExactnessTests {
    /// What an encode produced.
    struct Outcome {
        var types = NativeH264Encoder.MacroblockTypeCounts()
        var keyFrameBytes = [Int]()
        var predictedBytes = [Int]()
        /// Intra macroblocks inside P pictures.
        var intraInPredicted = 0
    }

    /// Encodes `frames` with a GOP, has ffmpeg hash the decoded stream and our reconstruction frame by frame.
    /// `preset` defaults to `fast`, whose tools (every partition, intra trials in P pictures) these suites were
    /// written for; ``PresetBitExactnessTests`` runs every preset.
    @discardableResult
    func expectBitExact(_ frames: [PixelBuffer], qp: Int, keyFrameInterval: Int, forcingKeyFrameAt forced: Set<Int> = [],
                        preset: EncoderPreset = .fast, sliceLayout: NativeH264Encoder.SliceLayout = .single, threadCount: Int = 1,
                        label: String) throws -> Outcome {
        let width = frames[0].width, height = frames[0].height
        var encoder = try NativeH264Encoder(width: width, height: height, quantisationParameter: qp, keyFrameInterval: keyFrameInterval,
                                            sliceLayout: sliceLayout, threadCount: threadCount, preset: preset)
        var stream = [UInt8](), reconstruction = [UInt8]()
        var outcome = Outcome()
        for (index, frame) in frames.enumerated() {
            let picture = try encoder.encode(frame, forcingKeyFrame: forced.contains(index))
            outcome.types.add(picture.macroblockTypes)
            let expectedKey = index % keyFrameInterval == 0 || forced.contains(index)
            if forced.isEmpty { #expect(picture.isKeyFrame == expectedKey, "\(label): frame \(index) key frame \(picture.isKeyFrame)") }
            if forced.contains(index) { #expect(picture.isKeyFrame, "\(label): frame \(index) was forced") }
            if !picture.isKeyFrame { outcome.intraInPredicted += picture.macroblockTypes.intra16x16 + picture.macroblockTypes.intra4x4 }
            let bytes = picture.annexB
            if picture.isKeyFrame { outcome.keyFrameBytes.append(bytes.count) } else { outcome.predictedBytes.append(bytes.count) }
            stream += bytes
            reconstruction += picture.reconstruction.packedBytes
        }
        try ReconstructionOracle.expectDecodes(stream, toReconstruction: reconstruction, width: width, height: height,
                                               frames: frames.count, label: label)
        return outcome
    }

    /// Frames of a smooth texture panned by a fraction of a sample each frame (so the vectors are
    /// sub-sample ones), with a block moving the other way: real motion with a known direction.
    static func pannedFrames(width: Int, height: Int, count: Int) throws -> [PixelBuffer] {
        try (0..<count).map { t in
            var luma = [UInt8](repeating: 0, count: width * height)
            var cb = [UInt8](repeating: 0, count: width * height / 4), cr = cb
            func texture(_ x: Double, _ y: Double) -> Double {
                let a = (x * 0.21).truncatingRemainder(dividingBy: 6.283), b = (y * 0.17 + x * 0.05).truncatingRemainder(dividingBy: 6.283)
                return 128 + 60 * Self.sine(a) + 40 * Self.sine(b)
            }
            let shift = Double(t) * 1.75, boxX = width - 20 - 3 * t, boxY = height / 3
            for y in 0..<height {
                for x in 0..<width {
                    var value = texture(Double(x) + shift, Double(y) + shift * 0.5)
                    if (boxX..<(boxX + 12)).contains(x) && (boxY..<(boxY + 10)).contains(y) { value = Double((x * 13 + y * 7) % 64 + 20) }
                    luma[y * width + x] = UInt8(max(0, min(255, value)))
                }
            }
            for y in 0..<(height / 2) {
                for x in 0..<(width / 2) {
                    cb[y * width / 2 + x] = UInt8(128 + 30 * Self.sine((Double(2 * x) + shift) * 0.1))
                    cr[y * width / 2 + x] = UInt8(128 + 30 * Self.sine((Double(2 * y) + shift * 0.5) * 0.13))
                }
            }
            return try PixelBuffer(width: width, height: height, format: .i420, planes: [
                .init(bytes: luma, bytesPerRow: width, rowLength: width, rowCount: height),
                .init(bytes: cb, bytesPerRow: width / 2, rowLength: width / 2, rowCount: height / 2),
                .init(bytes: cr, bytesPerRow: width / 2, rowLength: width / 2, rowCount: height / 2)])
        }
    }

    /// sin without Foundation's overloads getting in the way (Taylor series after range reduction).
    static func sine(_ x: Double) -> Double {
        var v = x.truncatingRemainder(dividingBy: 6.283185307179586)
        if v > 3.141592653589793 { v -= 6.283185307179586 }
        if v < -3.141592653589793 { v += 6.283185307179586 }
        var term = v, sum = v
        for n in 1...9 { term *= -v * v / Double((2 * n) * (2 * n + 1)); sum += term }
        return sum
    }

    @Test("panned texture: P pictures decode bit-exactly", arguments: [(16, 16), (176, 144), (50, 30)], [10, 26, 40, 51])
    func pannedTexture(size: (Int, Int), qp: Int) throws {
        let frames = try Self.pannedFrames(width: size.0, height: size.1, count: 12)
        let outcome = try expectBitExact(frames, qp: qp, keyFrameInterval: 30, label: "pan \(size.0)x\(size.1) QP \(qp)")
        #expect(outcome.keyFrameBytes.count == 1 && outcome.predictedBytes.count == 11)
        if size.0 >= 50 && qp <= 40 { #expect(outcome.types.predicted16x16 > 0, "\(outcome.types)") }
    }

    /// Every QP whose deblocking tC0 (Table 8-17) is non-zero: P pictures are where bS 1 and 2 edges
    /// (motion and residual edges) read the bS = 1 and 2 columns, which intra pictures never do (an error
    /// at indexA 37 and 38 once passed every intra test and broke rate-controlled P pictures).
    @Test("panned texture: P pictures decode bit-exactly at every QP with a non-zero tC0", arguments: 17...51)
    func everyDeblockingQP(qp: Int) throws {
        let frames = try Self.pannedFrames(width: 64, height: 48, count: 4)
        let outcome = try expectBitExact(frames, qp: qp, keyFrameInterval: 30, label: "pan 64x48 QP \(qp)")
        #expect(outcome.predictedBytes.count == 3)
    }

    @Test("synthetic camera: GOP 1, 5 and 250 decode bit-exactly, P pictures far smaller", arguments: [1, 5, 250])
    func syntheticCamera(keyFrameInterval: Int) async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 176, height: 144, count: 12)
        let outcome = try expectBitExact(frames, qp: 26, keyFrameInterval: keyFrameInterval, label: "camera GOP \(keyFrameInterval)")
        if keyFrameInterval > 1 {
            #expect(outcome.types.skipped > 0, "\(outcome.types)")
            let meanKey = outcome.keyFrameBytes.reduce(0, +) / outcome.keyFrameBytes.count
            let meanPredicted = outcome.predictedBytes.reduce(0, +) / max(outcome.predictedBytes.count, 1)
            #expect(meanPredicted * 2 < meanKey, "P \(meanPredicted) bytes vs IDR \(meanKey) bytes")
        } else {
            #expect(outcome.predictedBytes.isEmpty)
        }
    }

    @Test("a forced key frame starts a new GOP", arguments: [26])
    func forcedKeyFrame(qp: Int) throws {
        let frames = try Self.pannedFrames(width: 64, height: 48, count: 10)
        let outcome = try expectBitExact(frames, qp: qp, keyFrameInterval: 250, forcingKeyFrameAt: [4, 7], label: "forced")
        #expect(outcome.keyFrameBytes.count == 3, "\(outcome.keyFrameBytes)")
    }

    @Test("foreman QCIF, still and panned: P_Skip and P_L0_16x16 both occur, P pictures far smaller", .requiresMedia, arguments: [10, 26, 40, 51])
    func foreman(qp: Int) throws {
        var reader = try Y4MReader(path: MediaFiles.url("sequences/foreman_qcif8.y4m").path)
        var frames = [PixelBuffer]()
        while frames.count < 16, let frame = try reader.nextFrame() { frames.append(frame) }
        let outcome = try expectBitExact(frames, qp: qp, keyFrameInterval: 30, label: "foreman QP \(qp)")
        if qp <= 40 {
            #expect(outcome.types.predicted16x16 > 0, "\(outcome.types)")
            #expect(outcome.types.skipped > 0 || qp == 10, "\(outcome.types)")
        }
        let meanPredicted = outcome.predictedBytes.reduce(0, +) / outcome.predictedBytes.count
        #expect(meanPredicted * (qp == 10 ? 1 : 2) < outcome.keyFrameBytes[0], "P \(meanPredicted) bytes vs IDR \(outcome.keyFrameBytes[0])")

        // A panned crop: the 128x96 window moves 3 samples right and 1 down per frame.
        let panned = try frames.prefix(12).enumerated().map { index, frame in try Self.crop(frame, x: 4 + 3 * index, y: 2 + index, width: 128, height: 96) }
        let pan = try expectBitExact(panned, qp: qp, keyFrameInterval: 30, label: "foreman pan QP \(qp)")
        if qp <= 40 { #expect(pan.types.predicted16x16 > 0, "\(pan.types)") }
        // The partitions of §8.4.1.3's directional predictors are under the oracle too.
        if qp <= 26 { #expect(outcome.types.predicted16x8 + pan.types.predicted16x8 > 0 && outcome.types.predicted8x16 + pan.types.predicted8x16 > 0, "\(outcome.types) \(pan.types)") }
    }

    @Test("lavfi testsrc (moving), then a cut to mandelbrot inside the GOP: bit-exact over 40 frames with GOP 30, the cut coded intra")
    func testSource() throws {
        // 20 frames of testsrc, then a cut to 20 of mandelbrot with no key frame forced: new content in a P picture.
        let frames = try Self.lavfiFrames("testsrc=size=176x144:rate=30", count: 20) + Self.lavfiFrames("mandelbrot=size=176x144:rate=30", count: 20)
        #expect(frames.count == 40)
        let outcome = try expectBitExact(frames, qp: 30, keyFrameInterval: 30, label: "testsrc, then a cut")
        #expect(outcome.types.predicted16x16 > 0 && outcome.types.skipped > 0, "\(outcome.types)")
        #expect(outcome.types.predicted16x8 > 0 && outcome.types.predicted8x16 > 0 && outcome.types.predicted8x8 > 0, "\(outcome.types)")
        // New content (the cut) is coded intra inside P pictures: at least most of the cut's 99 macroblocks.
        #expect(outcome.intraInPredicted > 50, "\(outcome.types)")
    }

    /// `count` I420 frames of an ffmpeg lavfi source at 176x144.
    static func lavfiFrames(_ source: String, count: Int) throws -> [PixelBuffer] {
        let raw = try ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", source,
                                                  "-frames:v", "\(count)", "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
        #expect(raw.status == 0, "\(raw.standardError)")
        let frameBytes = 176 * 144 * 3 / 2
        let bytes = [UInt8](raw.standardOutput)
        return try stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { offset in
            try PixelBuffer(width: 176, height: 144, format: .i420, planes: [
                .init(bytes: Array(bytes[offset..<(offset + 176 * 144)]), bytesPerRow: 176, rowLength: 176, rowCount: 144),
                .init(bytes: Array(bytes[(offset + 176 * 144)..<(offset + 176 * 144 * 5 / 4)]), bytesPerRow: 88, rowLength: 88, rowCount: 72),
                .init(bytes: Array(bytes[(offset + 176 * 144 * 5 / 4)..<(offset + frameBytes)]), bytesPerRow: 88, rowLength: 88, rowCount: 72)])
        }
    }

    @Test("the encoder refuses a key-frame interval below 1")
    func refusesInterval() {
        #expect(throws: NativeH264EncoderError.keyFrameIntervalOutOfRange(0)) {
            try NativeH264Encoder(width: 16, height: 16, quantisationParameter: 26, keyFrameInterval: 0)
        }
    }

    static func crop(_ frame: PixelBuffer, x: Int, y: Int, width: Int, height: Int) throws -> PixelBuffer {
        let planar = frame.format == .i420 ? frame : frame.converted(to: .i420)
        func plane(_ index: Int, _ scale: Int) -> PixelBuffer.Plane {
            let source = planar.planes[index]
            var bytes = [UInt8]()
            for row in 0..<(height / scale) {
                let start = (y / scale + row) * source.bytesPerRow + x / scale
                bytes += source.bytes[start..<(start + width / scale)]
            }
            return .init(bytes: bytes, bytesPerRow: width / scale, rowLength: width / scale, rowCount: height / scale)
        }
        return try PixelBuffer(width: width, height: height, format: .i420, planes: [plane(0, 1), plane(1, 2), plane(2, 2)])
    }
}
