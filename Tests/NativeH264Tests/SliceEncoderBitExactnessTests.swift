import Bitstream
import CodecInterface
import Containers
import Foundation
import MediaCore
import NativeH264
import Testing
import TestSupport

/// Several slices per picture under the oracle: ffmpeg decodes the stream with `-err_detect explode`
/// and every decoded frame's md5 equals the md5 of the encoder's reconstruction. Each test also checks
/// the slice structure itself (how many slice NAL units, where each starts, their sizes), and that
/// slice threading gives the single-thread bytes.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct SliceEncoderBitExactnessTests {
    /// What an encode produced.
    struct Run {
        var stream = [UInt8]()
        var reconstruction = [UInt8]()
        /// Per picture, its slice NAL units (nal_unit_type 1 or 5), in order.
        var slices = [[[UInt8]]]()
        var types = NativeH264Encoder.MacroblockTypeCounts()
        var keyFrames = 0
    }

    /// Encodes `frames`; `preset` defaults to `fast`, whose tools (every partition, intra trials) this suite was written for.
    static func encode(_ frames: [PixelBuffer], qp: Int, keyFrameInterval: Int, layout: NativeH264Encoder.SliceLayout,
                       threads: Int = 1, preset: EncoderPreset = .fast) throws -> Run {
        var encoder = try NativeH264Encoder(width: frames[0].width, height: frames[0].height, quantisationParameter: qp,
                                            keyFrameInterval: keyFrameInterval, sliceLayout: layout, threadCount: threads, preset: preset)
        #expect(encoder.sliceLayout == layout && encoder.threadCount == threads)
        var run = Run()
        for frame in frames {
            let picture = try encoder.encode(frame)
            run.stream += picture.annexB
            run.reconstruction += picture.reconstruction.packedBytes
            run.slices.append(picture.nalUnits.filter { [1, 5].contains($0[0] & 0x1F) })
            run.types.add(picture.macroblockTypes)
            if picture.isKeyFrame { run.keyFrames += 1 }
        }
        return run
    }

    /// ffmpeg decodes `run.stream` without an error, and its framemd5 equals our reconstruction's, frame by frame.
    static func expectDecodesToReconstruction(_ run: Run, width: Int, height: Int, frames: Int, label: String) throws {
        try ReconstructionOracle.expectDecodes(run.stream, toReconstruction: run.reconstruction, width: width, height: height,
                                               frames: frames, label: label)
    }

    /// first_mb_in_slice of a slice NAL unit: the first ue(v) of its RBSP (§7.3.3).
    static func firstMacroblock(_ nalUnit: [UInt8]) throws -> Int {
        var reader = BitReader(EmulationPrevention.rbsp(fromEBSP: nalUnit.dropFirst()))
        return Int(try reader.ue("first_mb_in_slice"))
    }

    /// Checks each picture's slices against the layout: a count gives exactly that many slices at
    /// ⌊i · total / n⌋; a byte limit gives slices no larger than it (or of one macroblock), in order,
    /// from macroblock 0. Returns how many slices exceeded a byte limit (each of one macroblock).
    @discardableResult
    static func expectSlices(_ run: Run, width: Int, height: Int, layout: NativeH264Encoder.SliceLayout, label: String) throws -> Int {
        let total = ((width + 15) / 16) * ((height + 15) / 16)
        var oversized = 0
        for (index, slices) in run.slices.enumerated() {
            let starts = try slices.map(firstMacroblock)
            switch layout {
            case .single:
                #expect(starts == [0], "\(label): picture \(index) slices start at \(starts)")
            case let .count(requested):
                let count = min(requested, total)
                #expect(starts == (0..<count).map { $0 * total / count }, "\(label): picture \(index) slices start at \(starts)")
            case let .maximumBytes(limit):
                #expect(starts.first == 0 && zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 } && (starts.last ?? total) < total,
                        "\(label): picture \(index) slices start at \(starts)")
                let ends = Array(starts.dropFirst()) + [total]
                for (slice, (start, end)) in zip(slices, zip(starts, ends)) where slice.count > limit {
                    #expect(end - start == 1, "\(label): picture \(index): a slice of \(end - start) macroblocks has \(slice.count) > \(limit) bytes")
                    oversized += 1
                }
                // Slices are filled: two neighbours together would not have fitted (the second's first
                // macroblock can differ when coded again, hence the slack of a macroblock's worth).
                let bytes = slices.reduce(0) { $0 + $1.count }
                #expect(slices.count <= 2 * bytes / limit + 2, "\(label): picture \(index): \(slices.count) slices for \(bytes) bytes")
            }
        }
        return oversized
    }

    /// Encodes, checks the slice structure and the oracle; returns the run.
    @discardableResult
    static func expectBitExact(_ frames: [PixelBuffer], qp: Int, keyFrameInterval: Int, layout: NativeH264Encoder.SliceLayout,
                               label: String) throws -> Run {
        let run = try encode(frames, qp: qp, keyFrameInterval: keyFrameInterval, layout: layout)
        let label = "\(label) [\(layout)]"
        try expectSlices(run, width: frames[0].width, height: frames[0].height, layout: layout, label: label)
        try expectDecodesToReconstruction(run, width: frames[0].width, height: frames[0].height, frames: frames.count, label: label)
        return run
    }

    static func foreman(_ count: Int) throws -> [PixelBuffer] {
        var reader = try Y4MReader(path: MediaFiles.url("sequences/foreman_qcif8.y4m").path)
        var frames = [PixelBuffer]()
        while frames.count < count, let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    // MARK: - Count

    /// QCIF is 11x9 macroblocks: 9 slices are one per row, 5 and 7 split rows, 99 is one per macroblock,
    /// 1000 more than there are macroblocks.
    @Test("slice counts on the synthetic camera: every frame bit-exact, the slices where asked",
          arguments: [NativeH264Encoder.SliceLayout.single, .count(2), .count(3), .count(5), .count(7), .count(9), .count(99), .count(1000)])
    func counts(layout: NativeH264Encoder.SliceLayout) async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 176, height: 144, count: 10)
        let run = try Self.expectBitExact(frames, qp: 26, keyFrameInterval: 30, layout: layout, label: "camera")
        #expect(run.types.skipped > 0 && run.types.predicted16x16 > 0, "\(run.types)")
    }

    @Test("panned texture split mid-row: P partitions and intra across slice edges stay bit-exact", arguments: [3, 7, 12])
    func pannedTexture(count: Int) throws {
        let frames = try InterEncoderBitExactnessTests.pannedFrames(width: 176, height: 144, count: 10)
        let run = try Self.expectBitExact(frames, qp: 26, keyFrameInterval: 30, layout: .count(count), label: "pan")
        #expect(run.types.predicted16x16 > 0, "\(run.types)")
    }

    // MARK: - Maximum bytes

    @Test("a byte limit on foreman and the synthetic camera: every slice NAL unit fits, every frame bit-exact",
          .requiresMedia, arguments: [1500, 500])
    func maximumBytes(limit: Int) async throws {
        let foreman = try Self.foreman(10)
        let run = try Self.expectBitExact(foreman, qp: 26, keyFrameInterval: 30, layout: .maximumBytes(limit), label: "foreman")
        let oversized = try Self.expectSlices(run, width: 176, height: 144, layout: .maximumBytes(limit), label: "foreman")
        #expect(oversized == 0)
        // The IDR picture needs several slices at either limit.
        #expect(run.slices[0].count > 1, "IDR picture: \(run.slices[0].map(\.count)) bytes")
        #expect(run.slices.allSatisfy { $0.allSatisfy { $0.count <= limit } })

        let camera = try await IntraEncoderBitExactnessTests.cameraFrames(width: 176, height: 144, count: 8)
        let cameraRun = try Self.expectBitExact(camera, qp: 26, keyFrameInterval: 30, layout: .maximumBytes(limit), label: "camera")
        #expect(cameraRun.slices.allSatisfy { $0.allSatisfy { $0.count <= limit } })
    }

    // MARK: - QP, GOP, sizes, natural sequences

    @Test("foreman at QP 10, 26, 40, 51 with split rows and a byte limit", .requiresMedia, arguments: [10, 26, 40, 51])
    func quantisation(qp: Int) throws {
        let frames = try Self.foreman(6)
        try Self.expectBitExact(frames, qp: qp, keyFrameInterval: 30, layout: .count(5), label: "foreman QP \(qp)")
        let run = try Self.expectBitExact(frames, qp: qp, keyFrameInterval: 30, layout: .maximumBytes(500), label: "foreman QP \(qp)")
        // At QP 10 a macroblock of the IDR picture may need more than 500 bytes: it then has a slice of its own.
        let oversized = try Self.expectSlices(run, width: 176, height: 144, layout: .maximumBytes(500), label: "foreman QP \(qp)")
        if qp >= 26 { #expect(oversized == 0) }
    }

    @Test("GOP 1, 30 and 250 with slices", arguments: [1, 30, 250])
    func groupOfPictures(keyFrameInterval: Int) async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 176, height: 144, count: 8)
        let counted = try Self.expectBitExact(frames, qp: 30, keyFrameInterval: keyFrameInterval, layout: .count(7), label: "GOP \(keyFrameInterval)")
        #expect(counted.keyFrames == (keyFrameInterval == 1 ? 8 : 1))
        try Self.expectBitExact(frames, qp: 30, keyFrameInterval: keyFrameInterval, layout: .maximumBytes(500), label: "GOP \(keyFrameInterval)")
    }

    /// 640x480 is 40x30 macroblocks, 1280x720 80x45, 1918x1078 120x68 (cropped): 7 slices split rows
    /// (an IDR and a P picture each); a 1500-byte limit at 640x480 and 1280x720 (at 1918x1078 the same
    /// NAL unit sizing runs over 8160 macroblocks, minutes in a debug build); one slice per macroblock row at 640x480.
    @Test("640x480, 1280x720 and 1918x1078 (cropped) with slices", arguments: [(640, 480), (1280, 720), (1918, 1078)])
    func sizes(size: (Int, Int)) async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: size.0, height: size.1, count: 2)
        let label = "camera \(size.0)x\(size.1)"
        try Self.expectBitExact(frames, qp: 28, keyFrameInterval: 30, layout: .count(7), label: label)
        if size.0 > 1280 { return }
        let run = try Self.expectBitExact(frames, qp: 28, keyFrameInterval: 30, layout: .maximumBytes(1500), label: label)
        #expect(run.slices[0].count > 1 && run.slices.allSatisfy { $0.allSatisfy { $0.count <= 1500 } }, "\(run.slices.map { $0.map(\.count) })")
        if size.0 == 640 { try Self.expectBitExact(frames, qp: 28, keyFrameInterval: 30, layout: .count(30), label: label) }
    }

    @Test("cars 320x240: 12 frames with split rows and with a 1200-byte limit", .requiresMedia,
          arguments: [NativeH264Encoder.SliceLayout.count(4), .maximumBytes(1200)])
    func cars(layout: NativeH264Encoder.SliceLayout) throws {
        var reader = try RawVideoReader(path: MediaFiles.url("sequences/cars_320x240.i420").path, width: 320, height: 240, format: .i420)
        var frames = [PixelBuffer]()
        while frames.count < 12, let frame = try reader.nextFrame() { frames.append(frame) }
        let run = try Self.expectBitExact(frames, qp: 26, keyFrameInterval: 30, layout: layout, label: "cars")
        if case .count = layout {
            #expect(run.slices.allSatisfy { $0.count == 4 }, "\(run.slices.map(\.count))")
        } else {
            // The IDR picture takes several slices; a small P picture may fit in one.
            #expect(run.slices[0].count > 1 && run.slices.allSatisfy { $0.allSatisfy { $0.count <= 1200 } }, "\(run.slices.map { $0.map(\.count) })")
        }
        #expect(run.types.skipped > 0 && run.types.predicted16x16 > 0, "\(run.types)")
    }

    // MARK: - Threads

    @Test("slice threading: 2 and 3 threads give the single-thread bytes and reconstruction", .requiresMedia,
          arguments: [NativeH264Encoder.SliceLayout.count(7), .count(99), .count(2), .maximumBytes(500), .single])
    func threads(layout: NativeH264Encoder.SliceLayout) throws {
        let frames = try Self.foreman(8)
        let single = try Self.encode(frames, qp: 26, keyFrameInterval: 30, layout: layout, threads: 1)
        for threads in [2, 3] {
            let threaded = try Self.encode(frames, qp: 26, keyFrameInterval: 30, layout: layout, threads: threads)
            #expect(threaded.stream == single.stream, "\(layout), \(threads) threads: the stream differs")
            #expect(threaded.reconstruction == single.reconstruction, "\(layout), \(threads) threads: the reconstruction differs")
            #expect(threaded.types == single.types)
        }
        try Self.expectDecodesToReconstruction(single, width: 176, height: 144, frames: frames.count, label: "threads \(layout)")
    }

    @Test("slice threading at 640x480, one slice per macroblock row: same bytes on 1 and 2 threads")
    func threadsLarge() async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 640, height: 480, count: 3)
        let single = try Self.encode(frames, qp: 26, keyFrameInterval: 30, layout: .count(30), threads: 1)
        let threaded = try Self.encode(frames, qp: 26, keyFrameInterval: 30, layout: .count(30), threads: 2)
        #expect(threaded.stream == single.stream && threaded.reconstruction == single.reconstruction)
    }

    // MARK: - API

    @Test("the defaults: one slice, every available processor; bad layouts and thread counts are refused")
    func defaultsAndRefusals() throws {
        let encoder = try NativeH264Encoder(width: 64, height: 48, quantisationParameter: 26)
        #expect(encoder.sliceLayout == .single)
        #expect(encoder.threadCount == NativeH264Encoder.availableProcessorCount && encoder.threadCount >= 1)
        #expect(throws: NativeH264EncoderError.sliceCountOutOfRange(0)) {
            try NativeH264Encoder(width: 64, height: 48, quantisationParameter: 26, sliceLayout: .count(0))
        }
        #expect(throws: NativeH264EncoderError.maximumSliceBytesOutOfRange(20)) {
            try NativeH264Encoder(width: 64, height: 48, quantisationParameter: 26, sliceLayout: .maximumBytes(20))
        }
        #expect(throws: NativeH264EncoderError.threadCountOutOfRange(0)) {
            try NativeH264Encoder(width: 64, height: 48, quantisationParameter: 26, threadCount: 0)
        }
        #expect(throws: NativeH264EncoderError.threadCountOutOfRange(NativeH264Encoder.maximumThreadCount + 1)) {
            try NativeH264Encoder(width: 64, height: 48, quantisationParameter: 26, threadCount: NativeH264Encoder.maximumThreadCount + 1)
        }
    }

    /// The program a user writes to send each slice in one RTP packet: a byte limit, then one NAL unit
    /// per packet.
    @Test("a user's program: slices that fit a 1200-byte RTP payload")
    func userProgram() async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 320, height: 240, count: 3)
        var encoder = try NativeH264Encoder(width: 320, height: 240, quantisationParameter: 26, keyFrameInterval: 30,
                                            sliceLayout: .maximumBytes(1200))
        var packets = [[UInt8]]()
        for frame in frames {
            let picture = try encoder.encode(frame)
            packets += picture.nalUnits  // SPS, PPS and each slice: one RTP packet each (RFC 6184 §5.6)
        }
        #expect(packets.allSatisfy { $0.count <= 1200 })
        #expect(packets.filter { $0[0] & 0x1F == 5 }.count > 1, "the IDR picture is cut into several slices")
    }
}
