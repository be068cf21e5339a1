import NativeH264Kernels
import Testing
import TestSupport

@Suite struct DeblockingTests {
    @Test func fastAgreesWithReferenceOnRandomEdges() {
        var random = SplitMix64(seed: 0xDEB)
        for round in 0..<400 {
            let source = RandomPlane(width: 24, height: 24, generator: &random, smooth: round % 4 != 0)
            let strength = Int(random.next() % 5)
            let qPp = Int(random.next() % 52), qPq = Int(random.next() % 52)
            let offsetA = Int(random.next() % 25) - 12, offsetB = Int(random.next() % 25) - 12
            let thresholds = DeblockingThresholds(qPp: qPp, qPq: qPq, filterOffsetA: offsetA, filterOffsetB: offsetB)
            for direction in [EdgeDirection.vertical, .horizontal] {
                for isChroma in [false, true] {
                    var fast = source, reference = source
                    fast.withMutableView {
                        DeblockingFilter.filter($0, x: 8, y: 8, direction: direction, length: 16, strength: strength,
                                                thresholds: thresholds, isChroma: isChroma)
                    }
                    reference.withMutableView {
                        DeblockingFilter.filterReference($0, x: 8, y: 8, direction: direction, length: 16, strength: strength,
                                                         thresholds: thresholds, isChroma: isChroma)
                    }
                    #expect(fast.samples == reference.samples, "bS \(strength) qP \(qPp)/\(qPq) \(direction) chroma \(isChroma)")
                }
            }
        }
    }

    /// A step 100 | 110 at qP 40 (α 80, β 13; tC0 4 at bS 1), worked through 8-475 … 8-494 by hand.
    @Test func handCheckedStepEdge() {
        func filtered(strength: Int, isChroma: Bool, fast: Bool) -> [UInt8] {
            var row: [UInt8] = [100, 100, 100, 100, 110, 110, 110, 110]
            row.withUnsafeMutableBufferPointer { buffer in
                let view = MutablePlaneView(base: buffer.baseAddress!, width: 8, height: 1, stride: 8)
                let thresholds = DeblockingThresholds(qPp: 40, qPq: 40)
                if fast {
                    DeblockingFilter.filter(view, x: 4, y: 0, direction: .vertical, length: 1, strength: strength, thresholds: thresholds, isChroma: isChroma)
                } else {
                    DeblockingFilter.filterReference(view, x: 4, y: 0, direction: .vertical, length: 1, strength: strength, thresholds: thresholds, isChroma: isChroma)
                }
            }
            return row
        }
        for fast in [false, true] {
            #expect(filtered(strength: 4, isChroma: false, fast: fast) == [100, 101, 103, 104, 106, 108, 109, 110])
            // bS 1: tC = 4 + 1 + 1; Δ = ((10 << 2) + (100 − 110) + 4) >> 3 = 4; p1 += (100 + 105 − 200) >> 1 = 2;
            // q1 += (110 + 105 − 220) >> 1 = −3.
            #expect(filtered(strength: 1, isChroma: false, fast: fast) == [100, 100, 102, 104, 106, 107, 110, 110])
            // Chroma bS 4: p0 = (200 + 100 + 110 + 2) >> 2 = 103, q0 = (220 + 110 + 100 + 2) >> 2 = 108.
            #expect(filtered(strength: 4, isChroma: true, fast: fast) == [100, 100, 100, 103, 108, 110, 110, 110])
            #expect(filtered(strength: 0, isChroma: false, fast: fast) == [100, 100, 100, 100, 110, 110, 110, 110])
        }
        let thresholds = DeblockingThresholds(qPp: 40, qPq: 40)
        #expect(thresholds.alpha == 80 && thresholds.beta == 13 && thresholds.tC0(strength: 1) == 4)
        #expect(DeblockingThresholds(qPp: 51, qPq: 51, filterOffsetA: 12).alpha == 255)
        // qPav (10 + 12 + 1) >> 1 = 11: indexA 15 is still 0 (filter off), 16 is the first 4.
        #expect(DeblockingThresholds(qPp: 10, qPq: 12, filterOffsetA: 4).alpha == 0)
        #expect(DeblockingThresholds(qPp: 10, qPq: 12, filterOffsetA: 5).alpha == 4)
    }

    @Test func boundaryStrength() {
        let intra = DeblockingBlockInfo(isIntra: true)
        let coded = DeblockingBlockInfo(isIntra: false, hasCoefficients: true)
        let still = DeblockingBlockInfo(isIntra: false)
        let moved = DeblockingBlockInfo(isIntra: false, motionVector: [4, 0])
        let nearly = DeblockingBlockInfo(isIntra: false, motionVector: [3, -3])
        let otherReference = DeblockingBlockInfo(isIntra: false, referencePicture: 1)
        #expect(BoundaryStrength.derive(p: intra, q: still, isMacroblockEdge: true) == 4)
        #expect(BoundaryStrength.derive(p: still, q: intra, isMacroblockEdge: false) == 3)
        #expect(BoundaryStrength.derive(p: coded, q: still, isMacroblockEdge: true) == 2)
        #expect(BoundaryStrength.derive(p: moved, q: still, isMacroblockEdge: false) == 1)
        #expect(BoundaryStrength.derive(p: otherReference, q: still, isMacroblockEdge: false) == 1)
        #expect(BoundaryStrength.derive(p: nearly, q: still, isMacroblockEdge: true) == 0)
    }

    /// One line with every position a constant the optimiser can fold (x = 4, a vertical edge, one
    /// line, literal bS): the p0/p1 stores must survive the q0 store after them. Swift 6.3's dead-store
    /// elimination dropped them when the filter addressed them at negative offsets from q0
    /// (swiftlang/swift#77558); only an optimised build (`swift test -c release`) can show it.
    @Test("bS 1…4 on a constant-folded line keeps the p-side stores (optimised builds)")
    func constantLineKeepsPSideStores() {
        #expect(Self.filteredLine(strength: 1, isChroma: false) == Self.plainlyFilteredLine(strength: 1, isChroma: false))
        #expect(Self.filteredLine(strength: 2, isChroma: false) == Self.plainlyFilteredLine(strength: 2, isChroma: false))
        #expect(Self.filteredLine(strength: 3, isChroma: false) == Self.plainlyFilteredLine(strength: 3, isChroma: false))
        #expect(Self.filteredLine(strength: 4, isChroma: false) == Self.plainlyFilteredLine(strength: 4, isChroma: false))
        #expect(Self.filteredLine(strength: 3, isChroma: true) == Self.plainlyFilteredLine(strength: 3, isChroma: true))
        #expect(Self.filteredLine(strength: 4, isChroma: true) == Self.plainlyFilteredLine(strength: 4, isChroma: true))
        #expect(Self.plainlyFilteredLine(strength: 3, isChroma: false)[3] != 239, "the line is one the filter changes")
    }

    /// p3…p0 = 232 234 237 239, q0…q3 = 230 225 236 231 at QP 26 (α 15, β 6): every filter changes p0.
    static let line: [UInt8] = [232, 234, 237, 239, 230, 225, 236, 231]

    /// The line through the fast filter, inlined so that its arguments are constants.
    @inline(__always)
    static func filteredLine(strength: Int, isChroma: Bool) -> [UInt8] {
        var samples = line
        samples.withUnsafeMutableBufferPointer {
            DeblockingFilter.filter(MutablePlaneView(base: $0.baseAddress!, width: 8, height: 1, stride: 8), x: 4, y: 0, direction: .vertical,
                                    length: 1, strength: strength, thresholds: DeblockingThresholds(qPp: 26, qPq: 26), isChroma: isChroma)
        }
        return samples
    }

    /// The line through the plain filter.
    static func plainlyFilteredLine(strength: Int, isChroma: Bool) -> [UInt8] {
        var samples = line
        samples.withUnsafeMutableBufferPointer {
            DeblockingFilter.filterReference(MutablePlaneView(base: $0.baseAddress!, width: 8, height: 1, stride: 8), x: 4, y: 0, direction: .vertical,
                                             length: 1, strength: strength, thresholds: DeblockingThresholds(qPp: 26, qPq: 26), isChroma: isChroma)
        }
        return samples
    }
}
