import NativeH264Kernels
import Testing
import TestSupport

@Suite struct SADSATDTests {
    @Test(arguments: BlockSize.allCases)
    func fastAgreesWithReferenceOnRandomBlocks(size: BlockSize) {
        var random = SplitMix64(seed: 0x5AD + UInt64(size.width * 100 + size.height))
        let a = RandomPlane(width: 48, height: 48, generator: &random)
        let b = RandomPlane(width: 40, height: 40, generator: &random)
        a.withView { pa in
            b.withView { pb in
                for _ in 0..<500 {
                    let ax = Int(random.next() % 32), ay = Int(random.next() % 32)
                    let bx = Int(random.next() % 24), by = Int(random.next() % 24)
                    let p = pa.base + ay * pa.stride + ax, q = pb.base + by * pb.stride + bx
                    #expect(SAD.fast(size, p, stride: pa.stride, q, stride: pb.stride)
                        == SAD.reference(size, p, stride: pa.stride, q, stride: pb.stride))
                    #expect(SATD.fast(size, p, stride: pa.stride, q, stride: pb.stride)
                        == SATD.reference(size, p, stride: pa.stride, q, stride: pb.stride))
                }
            }
        }
    }

    /// The vector SATD's Int16 lanes at their limits: differences of ±255 in every pattern of signs
    /// (the largest coefficients), and the scalar version beside it.
    @Test(arguments: BlockSize.allCases)
    func fastAgreesWithReferenceAtExtremeDifferences(size: BlockSize) {
        var random = SplitMix64(seed: 0xE8 + UInt64(size.width * 100 + size.height))
        var a = [UInt8](repeating: 0, count: 32 * 32), b = a
        for round in 0..<300 {
            for i in a.indices {
                let bits = random.next()
                switch round % 3 {
                case 0: a[i] = bits & 1 == 0 ? 0 : 255; b[i] = bits & 2 == 0 ? 0 : 255
                case 1: a[i] = 255; b[i] = bits & 1 == 0 ? 0 : 255
                default: a[i] = bits & 1 == 0 ? 0 : 255; b[i] = 255 &- a[i]
                }
            }
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    let p = pa.baseAddress!, q = pb.baseAddress!
                    let expected = SATD.reference(size, p, stride: 32, q, stride: 32)
                    #expect(SATD.fast(size, p, stride: 32, q, stride: 32) == expected)
                    #expect(SATD.scalar(size, p, stride: 32, q, stride: 32) == expected)
                }
            }
        }
    }

    @Test func handCheckedValues() {
        let zeros = [UInt8](repeating: 0, count: 256), threes = [UInt8](repeating: 3, count: 256)
        var single = zeros
        single[0] = 1
        zeros.withUnsafeBufferPointer { z in
            threes.withUnsafeBufferPointer { t in
                single.withUnsafeBufferPointer { s in
                    #expect(SAD.fast(.w16h16, t.baseAddress!, stride: 16, z.baseAddress!, stride: 16) == 768)
                    #expect(SAD.reference(.w8h4, t.baseAddress!, stride: 16, z.baseAddress!, stride: 16) == 96)
                    // A flat difference d puts 16d in the Hadamard DC only: 16d / 2 per 4x4 block.
                    #expect(SATD.fast(.w4h4, t.baseAddress!, stride: 16, z.baseAddress!, stride: 16) == 24)
                    #expect(SATD.reference(.w16h16, t.baseAddress!, stride: 16, z.baseAddress!, stride: 16) == 16 * 24)
                    // One sample of difference 1 spreads ±1 over all 16 coefficients: 16 / 2.
                    #expect(SATD.fast(.w4h4, s.baseAddress!, stride: 16, z.baseAddress!, stride: 16) == 8)
                    #expect(SATD.reference(.w4h4, s.baseAddress!, stride: 16, z.baseAddress!, stride: 16) == 8)
                }
            }
        }
    }
}
