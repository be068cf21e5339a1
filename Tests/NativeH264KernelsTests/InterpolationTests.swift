import NativeH264Kernels
import Testing
import TestSupport

@Suite struct InterpolationTests {
    @Test(arguments: BlockSize.allCases)
    func lumaFastAgreesWithReferenceEverywhereIncludingOutside(size: BlockSize) {
        var random = SplitMix64(seed: 0x1ABE1 + UInt64(size.width * 100 + size.height))
        let plane = RandomPlane(width: 37, height: 29, generator: &random)
        var fast = [UInt8](repeating: 0, count: 16 * 16), reference = fast
        plane.withView { view in
            for _ in 0..<600 {
                // Positions from far outside to far outside, every fraction.
                let qx = Int(random.next() % 240) - 100, qy = Int(random.next() % 200) - 90
                fast.withUnsafeMutableBufferPointer {
                    LumaInterpolation.fast(view, quarterX: qx, quarterY: qy, size: size, into: $0.baseAddress!, stride: 16)
                }
                reference.withUnsafeMutableBufferPointer {
                    LumaInterpolation.reference(view, quarterX: qx, quarterY: qy, size: size, into: $0.baseAddress!, stride: 16)
                }
                #expect(fast == reference, "luma \(size) at \(qx), \(qy)")
            }
        }
    }

    @Test(arguments: [(8, 8), (8, 4), (4, 8), (4, 4), (4, 2), (2, 4), (2, 2)])
    func chromaFastAgreesWithReference(width: Int, height: Int) {
        var random = SplitMix64(seed: 0xC4 + UInt64(width * 10 + height))
        let plane = RandomPlane(width: 19, height: 15, generator: &random)
        var fast = [UInt8](repeating: 0, count: 64), reference = fast
        plane.withView { view in
            for _ in 0..<600 {
                let ex = Int(random.next() % 300) - 120, ey = Int(random.next() % 260) - 110
                fast.withUnsafeMutableBufferPointer {
                    ChromaInterpolation.fast(view, eighthX: ex, eighthY: ey, width: width, height: height, into: $0.baseAddress!, stride: 8)
                }
                reference.withUnsafeMutableBufferPointer {
                    ChromaInterpolation.reference(view, eighthX: ex, eighthY: ey, width: width, height: height, into: $0.baseAddress!, stride: 8)
                }
                #expect(fast == reference, "chroma \(width)x\(height) at \(ex), \(ey)")
            }
        }
    }

    /// A horizontal ramp 10·x: the 6-tap filter reproduces a straight line, so b = 10x + 5 and the
    /// quarter positions are the rounded averages (8-243, 8-250).
    @Test func handCheckedLumaOnARamp() {
        let width = 24, height = 24
        var samples = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { samples[y * width + x] = UInt8(10 * x) } }
        var out = [UInt8](repeating: 0, count: 16)
        samples.withUnsafeBufferPointer { buffer in
            let view = PlaneView(base: buffer.baseAddress!, width: width, height: height, stride: width)
            for (frac, expected) in [(0, 30), (1, 33), (2, 35), (3, 38)] {
                for kernel in [LumaInterpolation.fast, LumaInterpolation.reference] {
                    out.withUnsafeMutableBufferPointer {
                        kernel(view, 3 * 4 + frac, 8 * 4 + 2, .w4h4, $0.baseAddress!, 4)
                    }
                    // Vertical half position on a horizontal ramp changes nothing; j equals b.
                    #expect(out[0] == UInt8(expected), "xFrac \(frac)")
                }
            }
            // Left of the picture every sample is the clamped column 0.
            LumaInterpolation.reference(view, quarterX: -40 * 4 + 2, quarterY: 5, size: .w4h4, into: &out, stride: 4)
            #expect(out.allSatisfy { $0 == 0 })
        }
    }

    /// (8−xF)(8−yF)A + xF(8−yF)B … with xF = 4 between 10 and 20: (32·10 + 32·20 + 32) >> 6 = 15 (8-266).
    @Test func handCheckedChroma() {
        let samples: [UInt8] = [10, 20, 10, 20]
        var out = [UInt8](repeating: 0, count: 4)
        samples.withUnsafeBufferPointer { buffer in
            let view = PlaneView(base: buffer.baseAddress!, width: 2, height: 2, stride: 2)
            ChromaInterpolation.fast(view, eighthX: 4, eighthY: 0, width: 1, height: 1, into: &out, stride: 2)
            #expect(out[0] == 15)
            ChromaInterpolation.reference(view, eighthX: 2, eighthY: 3, width: 1, height: 1, into: &out, stride: 2)
            // (30·10 + 10·20 + 18·10 + 6·20 + 32) >> 6 = 832 >> 6 = 13.
            #expect(out[0] == 13)
        }
    }
}
