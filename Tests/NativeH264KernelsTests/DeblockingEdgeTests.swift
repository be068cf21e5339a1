import NativeH264Kernels
import Testing
import TestSupport

/// The filters that take a whole macroblock edge at once (luma bS < 4, both chroma planes), against the plain filter
/// (§8.7.2.3, §8.7.2.4).
@Suite struct DeblockingEdgeTests {
    /// 16 luma lines with bS 0…3 per 4-line segment, vertical edges through their 8x8 byte transposes, agree with the
    /// plain filter run segment by segment.
    @Test func wholeLumaEdgeAgreesWithReference() {
        var random = SplitMix64(seed: 0xED6E)
        for round in 0..<400 {
            let source = RandomPlane(width: 32, height: 32, generator: &random, smooth: round % 4 != 0)
            let s = (0..<4).map { _ in Int(random.next() % 4) }
            let thresholds = DeblockingThresholds(qPp: Int(random.next() % 52), qPq: Int(random.next() % 52),
                                                  filterOffsetA: Int(random.next() % 25) - 12, filterOffsetB: Int(random.next() % 25) - 12)
            for direction in [EdgeDirection.vertical, .horizontal] {
                var fast = source, reference = source
                fast.withMutableView { plane in
                    DeblockingFilter.filterLumaEdge(plane, x: 8, y: 8, direction: direction, strengths: (s[0], s[1], s[2], s[3]),
                                                    thresholds: thresholds)
                }
                reference.withMutableView { plane in
                    for segment in 0..<4 {
                        let along = segment * 4
                        DeblockingFilter.filterReference(plane, x: direction == .vertical ? 8 : 8 + along, y: direction == .vertical ? 8 + along : 8,
                                                         direction: direction, length: 4, strength: s[segment], thresholds: thresholds,
                                                         isChroma: false)
                    }
                }
                let differing = zip(fast.samples, reference.samples).filter { $0 != $1 }.count
                #expect(differing == 0, "bS \(s) \(direction): \(differing) samples differ")
            }
        }
    }

    /// A chroma edge of Cb and Cr together (8 lines each) with bS 0…4 per 2-line segment and each plane's own
    /// thresholds, vertical edges through 8x8 byte transposes, agrees with the plain filter run segment by segment.
    @Test func bothChromaEdgesAgreeWithReference() {
        var random = SplitMix64(seed: 0xC4E0)
        for round in 0..<400 {
            let sources = (0..<2).map { _ in RandomPlane(width: 24, height: 24, generator: &random, smooth: round % 4 != 0) }
            let s = (0..<4).map { _ in Int(random.next() % 5) }
            let thresholds = (0..<2).map { _ in
                DeblockingThresholds(qPp: Int(random.next() % 52), qPq: Int(random.next() % 52),
                                     filterOffsetA: Int(random.next() % 25) - 12, filterOffsetB: Int(random.next() % 25) - 12)
            }
            for direction in [EdgeDirection.vertical, .horizontal] {
                var fastCb = sources[0], fastCr = sources[1], reference = sources
                fastCb.withMutableView { cb in
                    fastCr.withMutableView { cr in
                        DeblockingFilter.filterChromaEdges(cb: cb, cr: cr, x: 8, y: 8, direction: direction, strengths: (s[0], s[1], s[2], s[3]),
                                                           cbThresholds: thresholds[0], crThresholds: thresholds[1])
                    }
                }
                for component in 0..<2 {
                    reference[component].withMutableView { plane in
                        for segment in 0..<4 {
                            let along = segment * 2
                            DeblockingFilter.filterReference(plane, x: direction == .vertical ? 8 : 8 + along,
                                                             y: direction == .vertical ? 8 + along : 8, direction: direction, length: 2,
                                                             strength: s[segment], thresholds: thresholds[component], isChroma: true)
                        }
                    }
                }
                let differing = zip([fastCb, fastCr], reference).map { fast, plain in zip(fast.samples, plain.samples).filter { $0 != $1 }.count }
                #expect(differing == [0, 0], "bS \(s) \(direction): \(differing) samples differ in Cb, Cr")
            }
        }
    }

    /// The 8x8 byte transpose moves byte j of row i to byte i of row j, and twice is the identity.
    @Test func transposeOfAnEightByEightBlock() {
        var block: DeblockingFilter.ByteBlock = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &block) { for i in 0..<64 { $0[i] = UInt8(i) } }
        DeblockingFilter.transpose(&block)
        let moved = withUnsafeBytes(of: &block) { bytes in (0..<64).filter { bytes[$0] != UInt8(($0 % 8) * 8 + $0 / 8) }.count }
        #expect(moved == 0)
        DeblockingFilter.transpose(&block)
        let restored = withUnsafeBytes(of: &block) { bytes in (0..<64).filter { bytes[$0] != UInt8($0) }.count }
        #expect(restored == 0)
    }
}
