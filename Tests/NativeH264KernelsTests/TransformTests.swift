import NativeH264Kernels
import Testing
import TestSupport

@Suite struct TransformTests {
    func randomBlock(_ random: inout SplitMix64, range: Int32) -> [Int32] {
        (0..<16).map { _ in Int32(truncatingIfNeeded: random.next() % UInt64(2 * range + 1)) - range }
    }

    @Test func forwardAndInverseFastAgreeWithReference() {
        var random = SplitMix64(seed: 0x7F0)
        for _ in 0..<2000 {
            let residual = randomBlock(&random, range: 255)
            var fast = residual
            fast.withUnsafeMutableBufferPointer { Transform4x4.forward($0.baseAddress!) }
            #expect(fast == Transform4x4.forwardReference(residual))
            let coefficients = randomBlock(&random, range: 4000)
            var inverse = coefficients
            inverse.withUnsafeMutableBufferPointer { Transform4x4.inverse($0.baseAddress!) }
            #expect(inverse == Transform4x4.inverseReference(coefficients))
        }
    }

    /// The fused residual + forward transform on random source and prediction blocks read in place
    /// from strided planes (and at the extremes 0 and 255).
    @Test func forwardDifferenceFastAgreesWithReference() {
        var random = SplitMix64(seed: 0xD1FF)
        let source = RandomPlane(width: 40, height: 40, generator: &random)
        let prediction = RandomPlane(width: 24, height: 24, generator: &random)
        source.withView { s in
            prediction.withView { p in
                for round in 0..<1000 {
                    let a = s.base + Int(random.next() % 36) * s.stride + Int(random.next() % 36)
                    let b = p.base + Int(random.next() % 20) * p.stride + Int(random.next() % 20)
                    var fast = [Int32](repeating: 0, count: 16)
                    fast.withUnsafeMutableBufferPointer {
                        Transform4x4.forwardDifference(a, stride: s.stride, b, stride: p.stride, into: $0.baseAddress!)
                    }
                    #expect(fast == Transform4x4.forwardDifferenceReference(a, stride: s.stride, b, stride: p.stride), "round \(round)")
                }
            }
        }
        let high = [UInt8](repeating: 255, count: 16), low = [UInt8](repeating: 0, count: 16)
        high.withUnsafeBufferPointer { h in
            low.withUnsafeBufferPointer { l in
                var out = [Int32](repeating: 0, count: 16)
                out.withUnsafeMutableBufferPointer { Transform4x4.forwardDifference(h.baseAddress!, stride: 4, l.baseAddress!, stride: 4, into: $0.baseAddress!) }
                // A flat residual of 255 has only a DC of 16 · 255.
                #expect(out == [16 * 255] + [Int32](repeating: 0, count: 15))
            }
        }
    }

    @Test func handCheckedTransforms() {
        // A flat residual of 1 has only a DC of 16; a DC of 64 alone inverts to 1 everywhere ((64 + 32) >> 6).
        var flat = [Int32](repeating: 1, count: 16)
        flat.withUnsafeMutableBufferPointer { Transform4x4.forward($0.baseAddress!) }
        #expect(flat == [16] + [Int32](repeating: 0, count: 15))
        #expect(Transform4x4.inverseReference([64] + [Int32](repeating: 0, count: 15)) == [Int32](repeating: 1, count: 16))
        // d[0][1] = 64: rows give (64, 32, −32, −64) shapes: f = [e+h, f+g, f−g, e−h] with h = 64, g = 32.
        var single = [Int32](repeating: 0, count: 16)
        single[1] = 64
        #expect(Transform4x4.inverseReference(single) == [1, 1, 0, -1, 1, 1, 0, -1, 1, 1, 0, -1, 1, 1, 0, -1])
    }

    @Test func dcTransformsFastAgreeWithReference() {
        var random = SplitMix64(seed: 0xDC)
        for qP in 0...51 {
            for _ in 0..<50 {
                let levels = randomBlock(&random, range: 300)
                var fast = levels
                fast.withUnsafeMutableBufferPointer { DCTransforms.inverseLumaDC($0.baseAddress!, qP: qP) }
                #expect(fast == DCTransforms.inverseLumaDCReference(levels, qP: qP), "qP \(qP)")
                let chroma = Array(levels.prefix(4))
                var fastChroma = chroma
                fastChroma.withUnsafeMutableBufferPointer { DCTransforms.inverseChromaDC($0.baseAddress!, qP: qP) }
                #expect(fastChroma == DCTransforms.inverseChromaDCReference(chroma, qP: qP), "qP \(qP)")
            }
        }
    }

    @Test func handCheckedDCScaling() {
        // c[0][0] = 1 spreads 1 over all 16 (8-320); qP 36: LevelScale(0,0,0) = 160, shift 0 (8-321).
        #expect(DCTransforms.inverseLumaDCReference([1] + [Int32](repeating: 0, count: 15), qP: 36) == [Int32](repeating: 160, count: 16))
        // qP 12: (1·160 + 2^3) >> 4 = 10 (8-322).
        #expect(DCTransforms.inverseLumaDCReference([1] + [Int32](repeating: 0, count: 15), qP: 12) == [Int32](repeating: 10, count: 16))
        // Chroma qP 30: ((1·160) << 5) >> 5 = 160; qP 4: ((1·16·16) << 0) >> 5 = 8 (8-330).
        #expect(DCTransforms.inverseChromaDCReference([1, 0, 0, 0], qP: 30) == [160, 160, 160, 160])
        #expect(DCTransforms.inverseChromaDCReference([1, 0, 0, 0], qP: 4) == [8, 8, 8, 8])
        #expect(DCTransforms.inverseChromaDCReference([0, 1, 0, 0], qP: 30) == [160, -160, 160, -160])
    }

    @Test func quantisationFastAgreesWithReference() {
        var random = SplitMix64(seed: 0x0A)
        for qP in 0...51 {
            for kind in [Quantisation.Kind.intra, .inter] {
                for _ in 0..<40 {
                    let coefficients = randomBlock(&random, range: 9000)
                    var fast = coefficients
                    let nonZero = fast.withUnsafeMutableBufferPointer {
                        Quantisation.quantise($0.baseAddress!, qP: qP, kind: kind, skippingDC: qP % 2 == 0)
                    }
                    let reference = Quantisation.quantiseReference(coefficients, qP: qP, kind: kind, skippingDC: qP % 2 == 0)
                    #expect(fast == reference)
                    #expect(nonZero == reference.filter { $0 != 0 }.count)
                    let levels = randomBlock(&random, range: 200)
                    var dequantised = levels
                    dequantised.withUnsafeMutableBufferPointer { Quantisation.dequantise($0.baseAddress!, qP: qP, keepingDC: qP % 3 == 0) }
                    #expect(dequantised == Quantisation.dequantiseReference(levels, qP: qP, keepingDC: qP % 3 == 0))
                }
            }
        }
    }

    /// Zero-block detection: every residual block whose SAD is within the limit quantises to all zeros (random
    /// blocks, and the worst cases: the whole SAD on one sample where a coefficient of each position class
    /// weighs it most); and the limit is tight — one more on that worst sample gives a non-zero level.
    @Test func zeroBlockLimitLeavesNoLevel() {
        var random = SplitMix64(seed: 0x2E80)
        for qP in 0...51 {
            for kind in [Quantisation.Kind.intra, .inter] {
                let limit = Quantisation.zeroBlockLimit(qP: qP, kind: kind)
                #expect(limit >= 0)
                func levels(_ residual: [Int32]) -> [Int32] {
                    Quantisation.quantiseReference(Transform4x4.forwardReference(residual), qP: qP, kind: kind, skippingDC: false)
                }
                for _ in 0..<60 {
                    // A random split of a SAD of at most the limit over random positions and signs.
                    var residual = [Int32](repeating: 0, count: 16)
                    var left = Int(random.next() % UInt64(limit + 1))
                    while left > 0 {
                        let position = Int(random.next() % 16)
                        let room = 255 - Int(abs(residual[position]))
                        let step = min(left, room, 1 + Int(random.next() % 40))
                        guard step > 0 else { continue }
                        residual[position] += residual[position] < 0 || (residual[position] == 0 && random.next() % 2 == 0)
                            ? -Int32(step) : Int32(step)
                        left -= step
                    }
                    #expect(levels(residual).allSatisfy { $0 == 0 }, "qP \(qP) \(kind) SAD ≤ \(limit): \(residual)")
                }
                // The worst cases: one sample at the corner (row 0 weighs it 1 in Cf rows 0 and 2, 2 in rows 1 and 3).
                for value in [limit, limit + 1] where value <= 255 {
                    var residual = [Int32](repeating: 0, count: 16)
                    residual[0] = Int32(value)
                    let zero = levels(residual).allSatisfy { $0 == 0 }
                    #expect(zero == (value == limit), "qP \(qP) \(kind) corner sample \(value), limit \(limit)")
                }
            }
        }
    }

    @Test func handCheckedScalingAndQuantisation() {
        // qP 28 (m 4): LevelScale(4,0,0) = 16·16 = 256, shift 0 (8-336); (0,1) uses v2 = 20 → 320; (1,1) v1 = 25 → 400.
        var levels = [Int32](repeating: 0, count: 16)
        levels[0] = 1; levels[1] = 1; levels[5] = 1
        let d = Quantisation.dequantiseReference(levels, qP: 28, keepingDC: false)
        #expect(d[0] == 256 && d[1] == 320 && d[5] == 400)
        // qP 10 (m 4, qP/6 = 1): (256 + 4) >> 3 = 32 (8-337).
        #expect(Quantisation.dequantiseReference(levels, qP: 10, keepingDC: false)[0] == 32)
        #expect(Quantisation.dequantiseReference(levels, qP: 10, keepingDC: true)[0] == 1)
        // Quantiser at qP 0: MF 13107, qbits 15, intra f = 32768/3: 5 → (5·13107 + 10922) >> 15 = 2.
        var coefficients = [Int32](repeating: 0, count: 16)
        coefficients[0] = 5; coefficients[3] = -5
        let q = Quantisation.quantiseReference(coefficients, qP: 0, kind: .intra, skippingDC: false)
        #expect(q[0] == 2 && q[3] == -1)  // (0,3) is class 2: (5·8066 + 10922) >> 15 = 1
    }

    @Test func zigzagMatchesTable813AndInverts() {
        let raster = (0..<16).map { Int32($0) }
        #expect(Zigzag.scanReference(raster) == [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15])
        var scanned = [Int32](repeating: 0, count: 16), back = scanned
        raster.withUnsafeBufferPointer { Zigzag.scan($0.baseAddress!, into: &scanned) }
        #expect(scanned == Zigzag.scanReference(raster))
        scanned.withUnsafeBufferPointer { Zigzag.unscan($0.baseAddress!, into: &back) }
        #expect(back == raster)
    }
}
