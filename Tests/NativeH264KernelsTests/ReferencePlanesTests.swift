import NativeH264Kernels
import Testing
import TestSupport

/// The padded reference planes (full sample plus b, h, j half-sample planes) predict every
/// quarter-sample position exactly as the clause's clamped interpolation, inside the picture, in the
/// padding and beyond it.
@Suite struct ReferencePlanesTests {
    @Test(arguments: BlockSize.allCases)
    func planesPredictLikeTheReferenceInterpolation(size: BlockSize) {
        var random = SplitMix64(seed: 0x9AD + UInt64(size.width * 100 + size.height))
        let plane = RandomPlane(width: 48, height: 32, generator: &random)
        var fast = [UInt8](repeating: 0, count: 16 * 16), reference = fast
        let planes = plane.withView { LumaReferencePlanes($0) }
        plane.withView { view in
            for round in 0..<800 {
                // Most positions within the padding (read in place), some far beyond (the fallback).
                let range = round % 8 == 0 ? 1200 : 4 * (48 + 2 * LumaReferencePlanes.padding - 40)
                let qx = Int(random.next() % UInt64(range)) - range / 2 + 96, qy = Int(random.next() % UInt64(range)) - range / 2 + 64
                fast.withUnsafeMutableBufferPointer {
                    planes.predict(quarterX: qx, quarterY: qy, size: size, into: $0.baseAddress!, stride: 16)
                }
                reference.withUnsafeMutableBufferPointer {
                    LumaInterpolation.reference(view, quarterX: qx, quarterY: qy, size: size, into: $0.baseAddress!, stride: 16)
                }
                #expect(fast == reference, "planes \(size) at \(qx), \(qy)")
            }
        }
    }

    @Test func fullSamplePlaneRepeatsTheEdges() {
        var random = SplitMix64(seed: 0xED6E)
        let plane = RandomPlane(width: 20, height: 12, generator: &random)
        let planes = plane.withView { LumaReferencePlanes($0) }
        let pad = LumaReferencePlanes.padding
        plane.withView { view in
            for y in -pad..<(12 + pad) {
                for x in -pad..<(20 + pad) {
                    let value = planes.full[y * planes.stride + x]
                    if value != view.clampedSample(x: x, y: y) { Issue.record("G(\(x), \(y)) = \(value)"); return }
                }
            }
        }
    }

    /// Planes built over the storage of other planes (another picture, written first) equal planes
    /// built in fresh memory, in every sample of all four padded planes; a storage of another size is
    /// not used.
    @Test func planesBuiltInRecycledStorageEqualFreshOnes() {
        var random = SplitMix64(seed: 0x2EC7)
        let first = RandomPlane(width: 48, height: 32, generator: &random)
        let second = RandomPlane(width: 48, height: 32, generator: &random)
        let retired = first.withView { LumaReferencePlanes($0) }.storage
        let rebuilt = second.withView { LumaReferencePlanes($0, recycling: retired) }
        let fresh = second.withView { LumaReferencePlanes($0) }
        #expect(rebuilt.storage === retired)
        #expect(fresh.storage !== retired)
        let pad = LumaReferencePlanes.padding
        for (name, a, b) in [("G", rebuilt.full, fresh.full), ("b", rebuilt.horizontalHalf, fresh.horizontalHalf),
                             ("h", rebuilt.verticalHalf, fresh.verticalHalf), ("j", rebuilt.centre, fresh.centre)] {
            var differences = 0
            for y in -pad..<(32 + pad) {
                for x in -pad..<(48 + pad) where a[y * rebuilt.stride + x] != b[y * fresh.stride + x] { differences += 1 }
            }
            #expect(differences == 0, "plane \(name): \(differences) samples differ")
        }
        let other = RandomPlane(width: 32, height: 32, generator: &random)
        #expect(other.withView { LumaReferencePlanes($0, recycling: retired) }.storage !== retired)
    }

    /// Planes computed in bands of rows on 2, 3 and 7 threads equal the planes of one thread, in every sample of all
    /// four padded planes (bands meet where h and j read b1 rows of the band above and below).
    @Test(arguments: [2, 3, 7])
    func planesOnSeveralThreadsEqualOneThread(threads: Int) {
        var random = SplitMix64(seed: 0x7EAD + UInt64(threads))
        let plane = RandomPlane(width: 64, height: 48, generator: &random)
        let one = plane.withView { LumaReferencePlanes($0) }
        let several = plane.withView { LumaReferencePlanes($0, threads: threads) }
        let pad = LumaReferencePlanes.padding
        for (name, a, b) in [("G", one.full, several.full), ("b", one.horizontalHalf, several.horizontalHalf),
                             ("h", one.verticalHalf, several.verticalHalf), ("j", one.centre, several.centre)] {
            var differences = 0
            for y in -pad..<(48 + pad) {
                for x in -pad..<(64 + pad) where a[y * one.stride + x] != b[y * several.stride + x] { differences += 1 }
            }
            #expect(differences == 0, "plane \(name), \(threads) threads: \(differences) samples differ")
        }
    }

    @Test(arguments: [BlockSize.w16h16, .w8h8, .w4h4])
    func averageFastAgreesWithReference(size: BlockSize) {
        var random = SplitMix64(seed: 0xA7E + UInt64(size.width))
        let a = RandomPlane(width: 40, height: 40, generator: &random)
        let b = RandomPlane(width: 40, height: 40, generator: &random)
        var fast = [UInt8](repeating: 0, count: 256), reference = fast
        a.withView { pa in
            b.withView { pb in
                for _ in 0..<300 {
                    let p = pa.base + Int(random.next() % 20) * pa.stride + Int(random.next() % 20)
                    let q = pb.base + Int(random.next() % 20) * pb.stride + Int(random.next() % 20)
                    fast.withUnsafeMutableBufferPointer {
                        PixelAverage.fast(size, p, stride: pa.stride, q, stride: pb.stride, into: $0.baseAddress!, stride: 16)
                    }
                    reference.withUnsafeMutableBufferPointer {
                        PixelAverage.reference(size, p, stride: pa.stride, q, stride: pb.stride, into: $0.baseAddress!, stride: 16)
                    }
                    #expect(fast == reference)
                }
            }
        }
    }
}
