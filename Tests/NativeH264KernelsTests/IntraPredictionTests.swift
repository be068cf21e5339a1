import NativeH264Kernels
import Testing
import TestSupport

@Suite struct IntraPredictionTests {
    /// Every subset of the four neighbour flags.
    static let neighbourSets: [IntraNeighbours] = (0..<16).map { IntraNeighbours(rawValue: UInt8($0)) }

    @Test func intra16x16FastAgreesWithReference() {
        var random = SplitMix64(seed: 0x1616)
        for round in 0..<40 {
            let plane = RandomPlane(width: 40, height: 40, generator: &random, smooth: round % 2 == 0)
            plane.withView { view in
                for mode in Intra16x16Mode.allCases {
                    for neighbours in Self.neighbourSets where mode.isUsable(with: neighbours) {
                        var fast = [UInt8](repeating: 0, count: 256), reference = fast
                        Intra16x16Prediction.fast(mode, plane: view, x: 17, y: 9, neighbours: neighbours, into: &fast, stride: 16)
                        Intra16x16Prediction.reference(mode, plane: view, x: 17, y: 9, neighbours: neighbours, into: &reference, stride: 16)
                        #expect(fast == reference, "\(mode) \(neighbours)")
                    }
                }
            }
        }
    }

    @Test func intraChromaFastAgreesWithReference() {
        var random = SplitMix64(seed: 0xC8C8)
        for round in 0..<40 {
            let plane = RandomPlane(width: 24, height: 24, generator: &random, smooth: round % 2 == 0)
            plane.withView { view in
                for mode in IntraChromaMode.allCases {
                    for neighbours in Self.neighbourSets where mode.isUsable(with: neighbours) {
                        var fast = [UInt8](repeating: 0, count: 64), reference = fast
                        IntraChromaPrediction.fast(mode, plane: view, x: 9, y: 5, neighbours: neighbours, into: &fast, stride: 8)
                        IntraChromaPrediction.reference(mode, plane: view, x: 9, y: 5, neighbours: neighbours, into: &reference, stride: 8)
                        #expect(fast == reference, "\(mode) \(neighbours)")
                    }
                }
            }
        }
    }

    @Test func intra4x4FastAgreesWithReference() {
        var random = SplitMix64(seed: 0x4444)
        for round in 0..<60 {
            let plane = RandomPlane(width: 20, height: 20, generator: &random, smooth: round % 2 == 0)
            plane.withView { view in
                for mode in Intra4x4Mode.allCases {
                    for neighbours in Self.neighbourSets where mode.isUsable(with: neighbours) {
                        var fast = [UInt8](repeating: 0, count: 16), reference = fast
                        Intra4x4Prediction.fast(mode, plane: view, x: 6, y: 3, neighbours: neighbours, into: &fast, stride: 4)
                        Intra4x4Prediction.reference(mode, plane: view, x: 6, y: 3, neighbours: neighbours, into: &reference, stride: 4)
                        #expect(fast == reference, "\(mode) \(neighbours)")
                    }
                }
            }
        }
    }

    /// Hand-computed values: left column 10, 20, 30, 40, top row 50 … 120 (p[x, −1] = 50 + 10x), corner 5.
    @Test func handCheckedIntra4x4() {
        var samples = [UInt8](repeating: 0, count: 9 * 5)
        samples[0] = 5
        for x in 0..<8 { samples[1 + x] = UInt8(50 + 10 * x) }
        for y in 0..<4 { samples[(1 + y) * 9] = UInt8(10 + 10 * y) }
        samples.withUnsafeBufferPointer { buffer in
            let view = PlaneView(base: buffer.baseAddress!, width: 9, height: 5, stride: 9)
            func predict(_ mode: Intra4x4Mode, _ neighbours: IntraNeighbours = .all) -> [UInt8] {
                var out = [UInt8](repeating: 0, count: 16), other = out
                Intra4x4Prediction.reference(mode, plane: view, x: 1, y: 1, neighbours: neighbours, into: &out, stride: 4)
                Intra4x4Prediction.fast(mode, plane: view, x: 1, y: 1, neighbours: neighbours, into: &other, stride: 4)
                #expect(out == other)
                return out
            }
            // DC: (50+60+70+80 + 10+20+30+40 + 4) >> 3 = 45.
            #expect(predict(.dc) == [UInt8](repeating: 45, count: 16))
            #expect(predict(.dc, []) == [UInt8](repeating: 128, count: 16))
            // Diagonal down left (3,3): (p[6] + 3 p[7] + 2) >> 2 = (110 + 360 + 2) >> 2 = 118; (0,0) = (50 + 120 + 70 + 2) >> 2 = 60.
            let ddl = predict(.diagonalDownLeft)
            #expect(ddl[15] == 118 && ddl[0] == 60)
            // Without the top-right samples p[4…7, −1] become p[3, −1] = 80: (3,3) = 80.
            #expect(predict(.diagonalDownLeft, [.top, .left, .topLeft])[15] == 80)
            // Diagonal down right (0,0): (p[0,−1] + 2 p[−1,−1] + p[−1,0] + 2) >> 2 = (50 + 10 + 10 + 2) >> 2 = 18.
            #expect(predict(.diagonalDownRight)[0] == 18)
            // Horizontal up: z > 5 → p[−1, 3] = 40; z = 5 (x 1, y 2) → (30 + 120 + 2) >> 2 = 38.
            let hu = predict(.horizontalUp)
            #expect(hu[15] == 40 && hu[2 * 4 + 1] == 38)
            // Vertical left (0,0): (50 + 60 + 1) >> 1 = 55.
            #expect(predict(.verticalLeft)[0] == 55)
        }
    }

    /// Plane prediction of a 16x16 block on a neighbourhood that is itself a plane continues it.
    @Test func handCheckedIntra16x16AndChroma() {
        let stride = 17
        var samples = [UInt8](repeating: 0, count: stride * 17)
        for x in 0..<17 { samples[x] = UInt8(2 * x + 20) }  // p[x−1, −1] = 2(x) + 20
        for y in 0..<17 { samples[y * stride] = UInt8(2 * y + 20) }
        samples.withUnsafeBufferPointer { buffer in
            let view = PlaneView(base: buffer.baseAddress!, width: stride, height: 17, stride: stride)
            var out = [UInt8](repeating: 0, count: 256)
            Intra16x16Prediction.reference(.plane, plane: view, x: 1, y: 1, neighbours: .all, into: &out, stride: 16)
            // H = V = Σ (i+1)·2(i+2)… = 2·Σ(i+1)(2i+2) = 4·Σ(i+1)² = 816; b = c = (5·816 + 32) >> 6 = 64;
            // a = 16·(p[−1,15] + p[15,−1]) = 16·(52 + 52); pred(0,0) = (a − 7b − 7c + 16) >> 5 = 24.
            // pred(15,15) = (a + 8b + 8c + 16) >> 5 = 2704 >> 5 = 84.
            #expect(out[0] == 24 && out[255] == 84)
            Intra16x16Prediction.fast(.dc, plane: view, x: 1, y: 1, neighbours: [.left], into: &out, stride: 16)
            // Left column 22, 24, … 52: sum 592, (592 + 8) >> 4 = 37.
            #expect(out.allSatisfy { $0 == 37 })
            var chroma = [UInt8](repeating: 0, count: 64)
            IntraChromaPrediction.reference(.dc, plane: view, x: 1, y: 1, neighbours: [.top], into: &chroma, stride: 8)
            // Top only: every 4x4 takes its own top four (22+24+26+28+2)>>2 = 25 and (30+…+36+2)>>2 = 33.
            #expect(chroma[0] == 25 && chroma[4] == 33 && chroma[4 * 8] == 25 && chroma[63] == 33)
        }
    }
}
