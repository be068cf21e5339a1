import CAllocationCounter
import MediaCore
import NativeH264
import Testing
import TestSupport

/// Whether this test binary was compiled with optimisation (SwiftPM defines DEBUG in debug builds).
#if DEBUG
private let encoderAllocationsAreMeasurable = false
#else
private let encoderAllocationsAreMeasurable = true
#endif

/// Coding a macroblock makes no heap allocation: predictions, levels and search candidates live in
/// the slice coder's preallocated scratch, so the allocations of a frame (its planes, the bitstream,
/// the reconstruction handed back) are a small constant, the same for 12 macroblocks as for 192.
///
/// Optimised builds only: in a debug build the standard library's unspecialised generics, the
/// un-inlined `withUnsafe…` closures and the copy-on-write checks the optimiser removes allocate per
/// macroblock, so the count there measures the compiler's debug mode, not the encoder.
@Suite(.enabled(if: encoderAllocationsAreMeasurable, "heap allocations are only meaningful where the codecs are optimised (-c release)"))
struct EncoderAllocationTests {
    /// Allocations the calling thread makes while `body` runs, or `nil` where the counter is not available.
    private func allocations(_ body: () throws -> Void) rethrows -> Int? {
        let before = streamkit_thread_allocation_count()
        try body()
        let after = streamkit_thread_allocation_count()
        return before < 0 ? nil : after - before
    }

    /// What one IDR and one P frame cost at a size, after four frames of warm-up.
    private func frameAllocations(width: Int, height: Int) throws -> (keyFrame: Int?, predicted: Int?, types: NativeH264Encoder.MacroblockTypeCounts) {
        let frames = try InterEncoderBitExactnessTests.pannedFrames(width: width, height: height, count: 6)
        var encoder = try NativeH264Encoder(width: width, height: height, quantisationParameter: 26, keyFrameInterval: 4)
        for frame in frames.prefix(4) { _ = try encoder.encode(frame) }
        var key: NativeH264Encoder.EncodedPicture?, predicted: NativeH264Encoder.EncodedPicture?
        let keyCount = try allocations { key = try encoder.encode(frames[4]) }
        let predictedCount = try allocations { predicted = try encoder.encode(frames[5]) }
        #expect(key?.isKeyFrame == true && predicted?.isKeyFrame == false)
        var types = key?.macroblockTypes ?? .init()
        types.add(predicted?.macroblockTypes ?? .init())
        return (keyCount, predictedCount, types)
    }

    @Test func allocationsPerFrameDoNotGrowWithTheMacroblockCount() throws {
        let small = try frameAllocations(width: 64, height: 48)  // 12 macroblocks
        let large = try frameAllocations(width: 256, height: 192)  // 192 macroblocks
        guard let smallKey = small.keyFrame, let smallP = small.predicted, let largeKey = large.keyFrame, let largeP = large.predicted else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        // The frames exercise intra 16x16 and 4x4, P_Skip and searched partitions.
        #expect(large.types.intra16x16 + large.types.intra4x4 > 0)
        #expect(large.types.skipped > 0)
        #expect(large.types.predicted16x16 + large.types.predicted16x8 + large.types.predicted8x16 + large.types.predicted8x8 > 0)
        // 16x the macroblocks, the same allocations: none is made per macroblock.
        #expect(largeKey <= smallKey + 2, "IDR frame: \(smallKey) allocations at 12 macroblocks, \(largeKey) at 192")
        #expect(largeP <= smallP + 2, "P frame: \(smallP) allocations at 12 macroblocks, \(largeP) at 192")
        #expect(largeKey < 80 && largeP < 80, "allocations per frame: IDR \(largeKey), P \(largeP)")
    }
}
