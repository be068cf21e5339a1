import NativeH264Kernels
import Testing
import TestSupport

/// The High-profile kernels: the 8x8 inverse transform and zig-zag scan, 8x8 scaling, scaling with
/// weighting matrices and Intra_8x8 prediction, against hand-computed values of the spec's equations
/// and against the flat 4x4 kernels (which are bit-exact with FFmpeg).
@Suite struct HighProfileKernelTests {
    @Test func frameScan8x8IsAZigZagPermutation() {
        let scan = Transform8x8.frameScan
        #expect(Set(scan) == Set(0..<64))
        for k in 1..<64 {
            let (a, b) = (scan[k - 1], scan[k])
            // Each step moves to a neighbouring position (along a diagonal, or one step at an edge).
            #expect(abs((a & 7) - (b & 7)) <= 1 && abs((a >> 3) - (b >> 3)) <= 1, "step \(k)")
        }
    }

    @Test func inverse8x8OfADCAndOfARow() {
        for dc: Int32 in [-640, -33, 0, 31, 64, 1000] {
            var block = [Int32](repeating: 0, count: 64)
            block[0] = dc
            block.withUnsafeMutableBufferPointer { Transform8x8.inverse($0.baseAddress!) }
            #expect(block.allSatisfy { $0 == (dc + 32) >> 6 }, "DC \(dc)")
        }
        // Coefficients in the first row only: the columns see a DC each, so all rows are equal.
        var random = SplitMix64(seed: 0x88)
        for _ in 0..<50 {
            var block = [Int32](repeating: 0, count: 64)
            for j in 0..<8 { block[j] = Int32(truncatingIfNeeded: random.next() % 2001) - 1000 }
            block.withUnsafeMutableBufferPointer { Transform8x8.inverse($0.baseAddress!) }
            for i in 1..<8 { #expect(Array(block[(8 * i)..<(8 * i + 8)]) == Array(block[0..<8])) }
        }
        // d[0][1] = 64 alone: the horizontal pass of 8-337 … 8-368 gives e3 = 64, e5 = −64, e7 = 96, then
        // f1 = 24, f3 = 48, f5 = 80, f7 = 96, so row 0 is (96, 80, 48, 24, −24, −48, −80, −96) before rounding.
        var block = [Int32](repeating: 0, count: 64)
        block[1] = 64
        block.withUnsafeMutableBufferPointer { Transform8x8.inverse($0.baseAddress!) }
        #expect(Array(block[0..<8]) == [96, 80, 48, 24, -24, -48, -80, -96].map { ($0 + 32) >> 6 })
    }

    @Test func positionClassesAndFlatLevelScale() {
        var counts = [Int](repeating: 0, count: 6)
        for i in 0..<8 { for j in 0..<8 { counts[Quantisation8x8.positionClass(i, j)] += 1 } }
        #expect(counts == [4, 16, 4, 16, 8, 16])
        #expect(Quantisation8x8.flatLevelScale[0] == 16 * 20)
        #expect(Quantisation8x8.flatLevelScale[5 * 64 + 9] == 16 * 32)   // m 5, (1, 1): class 1
        #expect(Quantisation8x8.flatLevelScale[3 * 64 + 18] == 16 * 45)  // m 3, (2, 2): class 2
    }

    @Test func dequantise8x8FollowsTheTwoBranches() {
        var random = SplitMix64(seed: 0x8080)
        let scale = Quantisation8x8.flatLevelScale
        for qP in [0, 7, 20, 35, 36, 41, 51] {
            let levels = (0..<64).map { _ in Int32(truncatingIfNeeded: random.next() % 201) - 100 }
            var block = levels
            scale.withUnsafeBufferPointer { s in
                block.withUnsafeMutableBufferPointer {
                    Quantisation8x8.dequantise($0.baseAddress!, qP: qP, levelScale: s.baseAddress! + (qP % 6) * 64)
                }
            }
            for k in 0..<64 {
                let product = levels[k] * scale[(qP % 6) * 64 + k]
                let expected = qP >= 36 ? product << (qP / 6 - 6) : (product + (1 << (5 - qP / 6))) >> (6 - qP / 6)
                #expect(block[k] == expected, "qP \(qP) k \(k)")
            }
        }
    }

    @Test func flatWeightsScaleLikeTheFlatKernels() {
        var random = SplitMix64(seed: 0x4444)
        let flat = Quantisation.levelScale(weights: [Int32](repeating: 16, count: 16))
        for qP in 0...51 {
            for keepingDC in [false, true] {
                let levels = (0..<16).map { _ in Int32(truncatingIfNeeded: random.next() % 401) - 200 }
                var weighted = levels, reference = levels
                flat.withUnsafeBufferPointer { s in
                    weighted.withUnsafeMutableBufferPointer {
                        Quantisation.dequantise($0.baseAddress!, qP: qP, levelScale: s.baseAddress! + (qP % 6) * 16, keepingDC: keepingDC)
                    }
                }
                reference.withUnsafeMutableBufferPointer { Quantisation.dequantise($0.baseAddress!, qP: qP, keepingDC: keepingDC) }
                #expect(weighted == reference, "qP \(qP)")
            }
            let dc = (0..<16).map { _ in Int32(truncatingIfNeeded: random.next() % 401) - 200 }
            var lumaWeighted = dc, lumaReference = dc
            lumaWeighted.withUnsafeMutableBufferPointer { DCTransforms.inverseLumaDC($0.baseAddress!, qP: qP, dcScale: flat[(qP % 6) * 16]) }
            lumaReference.withUnsafeMutableBufferPointer { DCTransforms.inverseLumaDC($0.baseAddress!, qP: qP) }
            #expect(lumaWeighted == lumaReference)
            var chromaWeighted = Array(dc[0..<4]), chromaReference = Array(dc[0..<4])
            chromaWeighted.withUnsafeMutableBufferPointer { DCTransforms.inverseChromaDC($0.baseAddress!, qP: qP, dcScale: flat[(qP % 6) * 16]) }
            chromaReference.withUnsafeMutableBufferPointer { DCTransforms.inverseChromaDC($0.baseAddress!, qP: qP) }
            #expect(chromaWeighted == chromaReference)
        }
        // A weight of 32 doubles LevelScale4x4 (8-315).
        let doubled = Quantisation.levelScale(weights: [Int32](repeating: 32, count: 16))
        #expect(doubled.enumerated().allSatisfy { $0.element == 2 * flat[$0.offset] })
    }

    /// A plane with a ramp above the block (p[x, −1] = 10·x), zero to the left and in the corner.
    func rampPlane() -> [UInt8] {
        var samples = [UInt8](repeating: 0, count: 32 * 24)
        for x in 0..<16 { samples[7 * 32 + 8 + x] = UInt8(10 * x) }
        return samples
    }

    @Test func intra8x8FiltersTheReferenceSamples() {
        let samples = rampPlane()
        samples.withUnsafeBufferPointer { buffer in
            let plane = PlaneView(base: buffer.baseAddress!, width: 32, height: 24, stride: 32)
            var out = [UInt8](repeating: 0, count: 64)
            // Vertical: p′[0, −1] = (p[−1, −1] + 2·p[0, −1] + p[1, −1] + 2) >> 2 = 3; inside the ramp p′ = p.
            Intra8x8Prediction.predict(.vertical, plane: plane, x: 8, y: 8, neighbours: .all, into: &out, stride: 8)
            #expect(Array(out[0..<8]) == [3, 10, 20, 30, 40, 50, 60, 70])
            #expect(Array(out[56..<64]) == Array(out[0..<8]))
            // DC with the top row only: (Σ p′[x, −1] + 4) >> 3 over x = 0…7.
            Intra8x8Prediction.predict(.dc, plane: plane, x: 8, y: 8, neighbours: [.top, .topRight], into: &out, stride: 8)
            let top: [Int] = [(3 * 0 + 10 + 2) >> 2] + (1..<8).map { 10 * $0 }
            #expect(out.allSatisfy { Int($0) == (top.reduce(0, +) + 4) >> 3 })
            // Without the top-right block p[8…15, −1] repeat p[7, −1] = 70: diagonal down left ends at 70.
            Intra8x8Prediction.predict(.diagonalDownLeft, plane: plane, x: 8, y: 8, neighbours: [.top, .left, .topLeft], into: &out, stride: 8)
            #expect(out[63] == 70)
        }
    }

    @Test func intra8x8OfAFlatPictureIsFlat() {
        let samples = [UInt8](repeating: 77, count: 32 * 24)
        samples.withUnsafeBufferPointer { buffer in
            let plane = PlaneView(base: buffer.baseAddress!, width: 32, height: 24, stride: 32)
            for mode in Intra4x4Mode.allCases {
                var out = [UInt8](repeating: 0, count: 64)
                Intra8x8Prediction.predict(mode, plane: plane, x: 8, y: 8, neighbours: .all, into: &out, stride: 8)
                #expect(out.allSatisfy { $0 == 77 }, "\(mode)")
            }
        }
    }
}
