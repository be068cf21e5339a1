import Bitstream
import CAllocationCounter
import Foundation
import NativeH264Decoder
import Testing
import TestSupport

#if DEBUG
private let decoderAllocationsAreMeasurable = false
#else
private let decoderAllocationsAreMeasurable = true
#endif

/// Decoding a macroblock makes no heap allocation: levels, motion caches and per-macroblock tables live
/// in memory the decoder owns, so what an access unit costs (its RBSP, the output picture) is the same
/// for 99 macroblocks as for 1584. Optimised builds only (see EncoderAllocationTests for why).
@Suite(.enabled(if: decoderAllocationsAreMeasurable && ExternalTool.isRunnable("ffmpeg", "x264"),
                "heap allocations are only meaningful where the codecs are optimised (-c release)"))
struct DecoderAllocationTests {
    /// Which stream an allocation count decodes.
    enum StreamKind {
        /// Constrained Baseline, CAVLC.
        case baseline
        /// CABAC High: the 8x8 transform, the JVT scaling matrices.
        case cabacHigh
        /// Main CAVLC with B pictures: temporal direct prediction and implicit weights.
        case bFrames
        /// High CABAC with B pictures: spatial direct prediction, the 8x8 transform in B macroblocks, implicit weights.
        case cabacBFrames
        /// MBAFF frames (x264 --tff, an interlaced source: field and frame pairs) with B pictures, CAVLC or CABAC, no deblocking.
        case mbaffBFrames(cabac: Bool)
    }

    /// Allocations of the calling thread while decoding the 10th access unit after warm-up pictures (a P picture; for
    /// `.bFrames` and `.cabacBFrames` the 9th, a B picture).
    func accessUnitAllocations(size: String, kind: StreamKind = .baseline) throws -> Int? {
        let path = switch kind {
        case .cabacHigh:
            try CABACStreamTests.x264Stream(size: size, frames: 30, options: ["--profile", "high", "--cqm", "jvt", "--ref", "3", "--keyint", "30"])
        case .bFrames:
            try BSliceStreamTests.x264MainStream(size: size, options: ["--bframes", "3", "--b-pyramid", "none", "--direct", "temporal",
                                                                      "--weightb", "--ref", "3", "--keyint", "30"])
        case .cabacBFrames:
            try CABACBSliceStreamTests.x264Stream(size: size, options: ["--profile", "high", "--bframes", "3", "--b-pyramid", "none",
                                                                       "--direct", "spatial", "--weightb", "--ref", "3", "--keyint", "30"])
        case .baseline:
            try PeerStreamTests.x264Stream(size: size, options: ["--ref", "3", "--keyint", "30"])
        case let .mbaffBFrames(cabac):
            try CABACBSliceStreamTests.x264Stream(size: size, filter: "scroll=h=0.01,tinterlace=mode=interleave_top",
                                                  options: ["--profile", "high", "--tff", "--bframes", "3", "--b-pyramid", "none", "--b-adapt", "0", "--direct", "auto",
                                                            "--weightb", "--ref", "3", "--keyint", "30", "--no-deblock"] + (cabac ? [] : ["--no-cabac"]))
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        let decoder = NativeH264Decoder()
        var pictures = 0, measured: Int?
        for unit in units {
            let isSlice = unit.first.map { $0 & 0x1F == 1 || $0 & 0x1F == 5 } ?? false
            if isSlice { pictures += 1 }
            if isSlice && pictures == (kind.measuresBPicture ? 9 : 10) {
                let before = streamkit_thread_allocation_count()
                _ = try decoder.decode(nalUnit: unit, timestamp: 0)
                _ = decoder.endAccessUnit()
                let after = streamkit_thread_allocation_count()
                measured = before < 0 ? nil : after - before
            } else {
                _ = try decoder.decode(nalUnit: unit, timestamp: 0)
                if isSlice { _ = decoder.endAccessUnit() }
            }
        }
        return measured
    }

    @Test func allocationsPerAccessUnitDoNotGrowWithTheMacroblockCount() throws {
        guard let small = try accessUnitAllocations(size: "176x144"), let large = try accessUnitAllocations(size: "704x576") else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(large <= small + 8, "176x144: \(small) allocations, 704x576: \(large)")
        #expect(small < 99, "\(small) allocations for 99 macroblocks")
    }

    @Test func cabacAllocationsPerAccessUnitDoNotGrowWithTheMacroblockCount() throws {
        guard let small = try accessUnitAllocations(size: "176x144", kind: .cabacHigh),
              let large = try accessUnitAllocations(size: "704x576", kind: .cabacHigh) else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(large <= small + 8, "CABAC High 176x144: \(small) allocations, 704x576: \(large)")
        #expect(small < 99, "\(small) allocations for 99 macroblocks")
    }

    @Test func bPicturesAllocateNoMoreWithTheMacroblockCount() throws {
        guard let small = try accessUnitAllocations(size: "176x144", kind: .bFrames),
              let large = try accessUnitAllocations(size: "704x576", kind: .bFrames) else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(large <= small + 8, "B pictures: 176x144: \(small) allocations, 704x576: \(large)")
        #expect(small < 99, "\(small) allocations for 99 macroblocks")
    }

    @Test(arguments: [false, true])
    func mbaffBPicturesAllocateNoMoreWithTheMacroblockCount(cabac: Bool) throws {
        guard let small = try accessUnitAllocations(size: "176x144", kind: .mbaffBFrames(cabac: cabac)),
              let large = try accessUnitAllocations(size: "704x576", kind: .mbaffBFrames(cabac: cabac)) else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(large <= small + 8, "MBAFF B pictures (CABAC \(cabac)): 176x144: \(small) allocations, 704x576: \(large)")
        #expect(small < 99, "\(small) allocations for 99 macroblocks")
    }

    @Test func cabacBPicturesAllocateNoMoreWithTheMacroblockCount() throws {
        guard let small = try accessUnitAllocations(size: "176x144", kind: .cabacBFrames),
              let large = try accessUnitAllocations(size: "704x576", kind: .cabacBFrames) else {
            Issue.record("the allocation counter is not available in this build (sanitizer or non-glibc)")
            return
        }
        #expect(large <= small + 8, "CABAC B pictures: 176x144: \(small) allocations, 704x576: \(large)")
        #expect(small < 99, "\(small) allocations for 99 macroblocks")
    }
}

extension DecoderAllocationTests.StreamKind {
    /// The measured access unit is a B picture (the 9th) rather than a P picture (the 10th).
    var measuresBPicture: Bool {
        switch self {
        case .bFrames, .cabacBFrames, .mbaffBFrames: true
        case .baseline, .cabacHigh: false
        }
    }
}
