import CodecInterface
import Foundation
import MediaCore
import NativeH264
import Synchronization
import Testing
import TestSupport

/// Threads under the oracle: sliced threads (one slice per thread, as `--threads N` makes them) decode in ffmpeg to the
/// encoder's reconstruction, and give the same bytes on every run; the deblocking wavefront and the reference planes
/// computed in bands give the one-thread picture; the engine turns ``CompressionConfiguration/threadCount`` into threads
/// and slices.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct ThreadedEncoderTests {
    /// 640x480 is 40x30 macroblocks: 2 and 3 slices split it mid-picture, 3 of them mid-row (400 macroblocks each).
    @Test("sliced threads 1, 2, 3 at 640x480: ffmpeg's decode = the reconstruction, the same bytes on a second run",
          arguments: [EncoderPreset.ultrafast, .veryfast])
    func slicedThreads(preset: EncoderPreset) async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 640, height: 480, count: 4)
        for threads in 1...3 {
            let layout: NativeH264Encoder.SliceLayout = threads == 1 ? .single : .count(threads)
            let run = try SliceEncoderBitExactnessTests.encode(frames, qp: 28, keyFrameInterval: 30, layout: layout, threads: threads,
                                                               preset: preset)
            let label = "\(preset), \(threads) threads"
            try SliceEncoderBitExactnessTests.expectSlices(run, width: 640, height: 480, layout: layout, label: label)
            try SliceEncoderBitExactnessTests.expectDecodesToReconstruction(run, width: 640, height: 480, frames: frames.count, label: label)
            let again = try SliceEncoderBitExactnessTests.encode(frames, qp: 28, keyFrameInterval: 30, layout: layout, threads: threads,
                                                                 preset: preset)
            #expect(again.stream == run.stream, "\(label): a second run gave other bytes")
            #expect(run.types.predicted16x16 + run.types.skipped > 0, "\(label): \(run.types)")
        }
    }

    /// One slice on several threads: only the deblocking filter (a wavefront over rows) and the reference planes (bands
    /// of rows) run in parallel, and the picture is the one of one thread, sample for sample.
    @Test("one slice on 2, 3 and 8 threads: the deblocking wavefront and the reference planes give the one-thread stream",
          .requiresMedia, arguments: [2, 3, 8])
    func deblockingWavefront(threads: Int) throws {
        let frames = try SliceEncoderBitExactnessTests.foreman(8)
        let one = try SliceEncoderBitExactnessTests.encode(frames, qp: 30, keyFrameInterval: 30, layout: .single, threads: 1)
        let several = try SliceEncoderBitExactnessTests.encode(frames, qp: 30, keyFrameInterval: 30, layout: .single, threads: threads)
        #expect(several.stream == one.stream, "\(threads) threads: the stream differs")
        #expect(several.reconstruction == one.reconstruction, "\(threads) threads: the reconstruction differs")
        // With 4 slices on as many threads the wavefront runs over rows of slices coded on different threads.
        let sliced = try SliceEncoderBitExactnessTests.encode(frames, qp: 30, keyFrameInterval: 30, layout: .count(4), threads: threads)
        let slicedOne = try SliceEncoderBitExactnessTests.encode(frames, qp: 30, keyFrameInterval: 30, layout: .count(4), threads: 1)
        #expect(sliced.stream == slicedOne.stream && sliced.reconstruction == slicedOne.reconstruction, "\(threads) threads, 4 slices")
        try SliceEncoderBitExactnessTests.expectDecodesToReconstruction(sliced, width: 176, height: 144, frames: frames.count,
                                                                        label: "4 slices on \(threads) threads")
    }

    @Test("the engine: threadCount gives threads and one slice per thread; nil keeps one slice on one thread; threadLimit caps")
    func engineThreading() throws {
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: ProfileLevel(profile: .constrainedBaseline))
        let engine = NativeCodecEngine()
        #expect(engine.threading(for: configuration) == (.single, 1))
        configuration.threadCount = .count(3)
        #expect(engine.threading(for: configuration) == (.count(3), 3))
        configuration.threadCount = .count(1)
        #expect(engine.threading(for: configuration) == (.single, 1))
        configuration.threadCount = .automatic
        let processors = NativeH264Encoder.availableProcessorCount
        #expect(engine.threading(for: configuration) == (processors > 1 ? .count(processors) : .single, processors))
        configuration.threadCount = .count(6)
        #expect(NativeCodecEngine(threadLimit: 2).threading(for: configuration) == (.count(2), 2))
        // An engine with a layout of its own keeps it.
        #expect(NativeCodecEngine(sliceLayout: .maximumBytes(1200)).threading(for: configuration) == (.maximumBytes(1200), 6))
        configuration.threadCount = .count(0)
        #expect(throws: CodecError.invalidConfiguration(property: .threadCount, reason: "must be at least 1, got 0")) {
            try configuration.validate()
        }
        #expect(EncoderThreadCount("auto") == .automatic && EncoderThreadCount("4") == .count(4))
        #expect(EncoderThreadCount("0") == nil && EncoderThreadCount("two") == nil)
    }

    @Test("a session with threadCount 2: every frame holds two slices, and ffmpeg decodes it to the reconstruction")
    func sessionWithTwoThreads() async throws {
        let frames = try await IntraEncoderBitExactnessTests.cameraFrames(width: 320, height: 240, count: 6)
        var configuration = CompressionConfiguration(codec: .h264, width: 320, height: 240, profileLevel: ProfileLevel(profile: .constrainedBaseline))
        configuration.allowFrameReordering = false
        configuration.quantizer = 28
        configuration.threadCount = .count(2)
        let pictures = ReconstructionCollector()
        let engine = NativeCodecEngine(reconstructionHandler: { picture, _ in pictures.append(picture.packedBytes) })
        let encoder = try engine.makeVideoEncoder(configuration)
        var stream = [UInt8]()
        for (index, frame) in frames.enumerated() {
            let pts = MediaTime(value: Int64(index), timescale: 30)
            for coded in try encoder.encode(frame, pts: pts, duration: MediaTime(value: 1, timescale: 30), forceKeyFrame: false) {
                let units = try AVCCUnits.split(coded.data, lengthSize: 4)
                #expect(units.filter { [1, 5].contains($0.first.map { $0 & 0x1F } ?? 0) }.count == 2, "frame \(index)")
                stream += units.flatMap { [0, 0, 0, 1] + $0 }
            }
        }
        try ReconstructionOracle.expectDecodes(stream, toReconstruction: pictures.bytes, width: 320, height: 240, frames: frames.count,
                                               label: "session, 2 threads")
    }
}

/// The reconstructions an engine hands out, gathered from the session's thread.
final class ReconstructionCollector: Sendable {
    private let storage = Mutex<[UInt8]>([])

    /// Appends one picture's I420 bytes.
    func append(_ bytes: [UInt8]) { storage.withLock { $0 += bytes } }

    /// Every picture so far, one after the other.
    var bytes: [UInt8] { storage.withLock { $0 } }
}

/// The NAL units of an AVCC sample.
enum AVCCUnits {
    /// Splits `sample` at its big-endian `lengthSize`-byte lengths.
    static func split(_ sample: [UInt8], lengthSize: Int) throws -> [[UInt8]] {
        var units = [[UInt8]]()
        var offset = 0
        while offset + lengthSize <= sample.count {
            let length = sample[offset..<(offset + lengthSize)].reduce(0) { $0 << 8 | Int($1) }
            offset += lengthSize
            guard offset + length <= sample.count else { throw CocoaError(.coderReadCorrupt) }
            units.append(Array(sample[offset..<(offset + length)]))
            offset += length
        }
        return units
    }
}
