import Bitstream
import Foundation
import NativeH264Decoder
import Testing
import TestSupport

/// Damaged CABAC input (the arithmetic decoder reads on past a cut or a flipped byte and decodes
/// nonsense, which must end in a typed, concealed slice error, never a trap): slices cut short, bytes
/// flipped, slices dropped, in x264 High streams (CABAC, 8x8 transform, scaling matrices).
@Suite("Native H.264 decoder: damaged CABAC input", .enabled(if: ExternalTool.isRunnable("ffmpeg", "x264")))
struct DamagedCABACInputTests {
    /// An x264 High stream of 24 pictures, 4 slices each, and its NAL units.
    static func slicedStream(_ extra: [String] = []) throws -> [[UInt8]] {
        let path = try CABACStreamTests.x264Stream(size: "176x144", options: ["--profile", "high", "--slices", "4", "--ref", "3", "--keyint", "12"] + extra)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
    }

    @Test("every 5th CABAC slice cut in half: 24 pictures out, each cut reported and concealed")
    func truncatedSlices() throws {
        let units = try Self.slicedStream()
        var sliceIndex = 0, cuts = 0
        let damaged = units.map { unit -> [UInt8] in
            guard DamagedInputTests.isSlice(unit) else { return unit }
            sliceIndex += 1
            guard sliceIndex % 5 == 2, unit.count > 40 else { return unit }
            cuts += 1
            return Array(unit.prefix(unit.count / 2))
        }
        let result = DecoderRun.decode(DamagedInputTests.annexB(damaged), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 24)
        let reported = result.frames.map(\.problems.count).reduce(0, +)
        #expect(cuts > 0 && reported >= cuts / 2, "\(cuts) cuts, \(reported) problems reported")
        #expect(result.frames.map(\.concealedMacroblocks).reduce(0, +) > 0)
    }

    @Test("every 7th CABAC slice dropped: 24 pictures out, the lost macroblocks concealed")
    func droppedSlices() throws {
        let units = try Self.slicedStream(["--cqm", "jvt"])
        var sliceIndex = 0
        let kept = units.filter { unit in
            guard DamagedInputTests.isSlice(unit) else { return true }
            sliceIndex += 1
            return sliceIndex % 7 != 3
        }
        let result = DecoderRun.decode(DamagedInputTests.annexB(kept), stopOnError: false)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.frames.count == 24)
        #expect(result.frames.map(\.concealedMacroblocks).reduce(0, +) > 0)
    }

    @Test("random bytes flipped in CABAC slice data: no crash, pictures of the right size", arguments: [1, 2, 3, 4, 5, 6])
    func flippedBytes(_ seed: UInt64) throws {
        let units = try Self.slicedStream(seed % 2 == 0 ? ["--cqm", "jvt"] : [])
        var generator = SplitMix64(seed: seed)
        var flipped = 0
        let damaged = units.map { unit -> [UInt8] in
            guard DamagedInputTests.isSlice(unit), unit.count > 12 else { return unit }
            var copy = unit
            for _ in 0..<3 {
                let index = Int.random(in: 8..<copy.count, using: &generator)
                copy[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            flipped += 1
            return copy
        }
        let result = DecoderRun.decode(DamagedInputTests.annexB(damaged), stopOnError: false)
        #expect(flipped > 0)
        #expect(result.frames.count > 0 && result.frames.count <= 30)
        #expect(result.frames.allSatisfy { $0.picture.width == 176 && $0.picture.height == 144 })
        // Nonsense decoded from flipped bits ends in reported slice errors (or decodes to something).
        #expect(result.frames.contains { !$0.problems.isEmpty } || result.frames.count == 24)
    }
}
