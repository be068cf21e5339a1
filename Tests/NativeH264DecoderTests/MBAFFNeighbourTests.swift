@testable import NativeH264Decoder
import Testing

/// The MBAFF neighbour derivation (§6.4.10, §6.4.12.2 Table 6-4, §6.4.1, §7.4.4) against rows of the table
/// written out, and against an independent oracle: the sample's position in the frame.
@Suite("Native H.264 decoder: MBAFF neighbours (Table 6-4)")
struct MBAFFNeighbourTests {
    typealias Pair = MBAFFNeighbourPair

    /// Where the neighbouring sample (xN, yN) of the current macroblock lies in the frame, found by geometry
    /// rather than by the table: a field macroblock's rows are every other frame row of its pair (its own
    /// parity), a frame macroblock's are consecutive; the pair covering the sample says by its own coding
    /// which of its macroblocks holds it. Only the pairs decoded before the current macroblock count.
    static func geometric(xN: Int, yN: Int, maxW: Int, maxH: Int, currentIsField: Bool, currentIsBottom: Bool,
                          fieldPairs: MBAFFFieldPairs) -> MBAFFNeighbourLocation? {
        // Rows relative to the current pair's top row, in samples of this component.
        let row = currentIsField ? (currentIsBottom ? 1 : 0) + 2 * yN : (currentIsBottom ? maxH : 0) + yN
        let pairHeight = 2 * maxH
        guard row < pairHeight, yN < maxH else { return nil }
        let pair: Pair
        switch (xN < 0, xN >= maxW, row < 0) {
        case (true, _, true): pair = .d
        case (true, _, false): pair = .a
        case (false, false, true): pair = .b
        case (false, true, true): pair = .c
        case (false, false, false): pair = .current
        case (false, true, false): return nil  // right of the current pair: not decoded yet
        }
        // The current macroblock's own samples below its location are not neighbours (yN > maxH − 1 above);
        // in the current pair only the top macroblock precedes a bottom one.
        let rowInPair = row < 0 ? row + pairHeight : row
        let isField: Bool
        switch pair {
        case .current: isField = currentIsField
        case .a: isField = fieldPairs.contains(.a)
        case .b: isField = fieldPairs.contains(.b)
        case .c: isField = fieldPairs.contains(.c)
        case .d: isField = fieldPairs.contains(.d)
        }
        let bottom = isField ? rowInPair & 1 != 0 : rowInPair >= maxH
        let yW = isField ? rowInPair >> 1 : rowInPair % maxH
        if pair == .current && bottom && !currentIsBottom { return nil }
        return MBAFFNeighbourLocation(pair: pair, isBottom: bottom, xW: (xN + maxW) % maxW, yW: yW)
    }

    @Test("every location, every coding of the current macroblock and its neighbours: Table 6-4 equals the geometry")
    func tableEqualsGeometry() {
        var compared = 0, available = 0
        for (maxW, maxH) in [(16, 16), (8, 8)] {
            for mask in UInt8(0)..<16 {
                let fields = MBAFFFieldPairs(rawValue: mask)
                for currentIsField in [false, true] {
                    for currentIsBottom in [false, true] {
                        for yN in -1...maxH {
                            for xN in -1...maxW {
                                let table = MBAFFGeometry.locate(xN: xN, yN: yN, maxW: maxW, maxH: maxH, currentIsField: currentIsField,
                                                                 currentIsBottom: currentIsBottom, fieldPairs: fields)
                                let oracle = Self.geometric(xN: xN, yN: yN, maxW: maxW, maxH: maxH, currentIsField: currentIsField,
                                                            currentIsBottom: currentIsBottom, fieldPairs: fields)
                                #expect(table == oracle, "(\(xN), \(yN)) field \(currentIsField) bottom \(currentIsBottom) fields \(mask) \(maxW)x\(maxH)")
                                compared += 1
                                if table != nil { available += 1 }
                            }
                        }
                    }
                }
            }
        }
        print("MBAFF Table 6-4: \(compared) locations compared with the geometry, \(available) available")
        #expect(compared == 16 * 4 * (18 * 18 + 10 * 10))
    }

    @Test("rows of Table 6-4 written out")
    func tableRows() {
        func at(_ xN: Int, _ yN: Int, field: Bool, bottom: Bool, _ fields: MBAFFFieldPairs = [], maxH: Int = 16) -> MBAFFNeighbourLocation? {
            MBAFFGeometry.locate(xN: xN, yN: yN, maxW: maxH, maxH: maxH, currentIsField: field, currentIsBottom: bottom, fieldPairs: fields)
        }
        func loc(_ pair: Pair, _ bottom: Bool, _ xW: Int, _ yW: Int) -> MBAFFNeighbourLocation {
            MBAFFNeighbourLocation(pair: pair, isBottom: bottom, xW: xW, yW: yW)
        }
        // Frame top macroblock: D and B and C are the bottom macroblocks of the pairs above, whatever their coding.
        #expect(at(-1, -1, field: false, bottom: false) == loc(.d, true, 15, 15))
        #expect(at(-1, -1, field: false, bottom: false, .d) == loc(.d, true, 15, 15))
        #expect(at(5, -1, field: false, bottom: false, .b) == loc(.b, true, 5, 15))
        #expect(at(16, -1, field: false, bottom: false) == loc(.c, true, 0, 15))
        // Frame bottom macroblock: above is the top macroblock of its own pair; C is not available; D lies in A.
        #expect(at(3, -1, field: false, bottom: true) == loc(.current, false, 3, 15))
        #expect(at(16, -1, field: false, bottom: true) == nil)
        #expect(at(-1, -1, field: false, bottom: true) == loc(.a, false, 15, 15))
        #expect(at(-1, -1, field: false, bottom: true, .a) == loc(.a, true, 15, 7))
        // Frame macroblocks next to a field pair: rows alternate between its macroblocks, yM = yN >> 1 (+ 8 below).
        #expect(at(-1, 4, field: false, bottom: false, .a) == loc(.a, false, 15, 2))
        #expect(at(-1, 5, field: false, bottom: false, .a) == loc(.a, true, 15, 2))
        #expect(at(-1, 5, field: false, bottom: true, .a) == loc(.a, true, 15, 10))
        #expect(at(-1, 6, field: false, bottom: true) == loc(.a, true, 15, 6))
        // Field macroblocks next to a frame pair: yM = 2·yN (+1 for the bottom field), into the lower macroblock past 8.
        #expect(at(-1, 3, field: true, bottom: false) == loc(.a, false, 15, 6))
        #expect(at(-1, 9, field: true, bottom: false) == loc(.a, true, 15, 2))
        #expect(at(-1, 3, field: true, bottom: true) == loc(.a, false, 15, 7))
        #expect(at(-1, 12, field: true, bottom: true) == loc(.a, true, 15, 9))
        #expect(at(-1, 12, field: true, bottom: true, .a) == loc(.a, true, 15, 12))
        // Field macroblocks under a frame pair: the top field looks two frame rows up (row 14 of B + 1), the bottom one row.
        #expect(at(0, -1, field: true, bottom: false) == loc(.b, true, 0, 14))
        #expect(at(0, -1, field: true, bottom: false, .b) == loc(.b, false, 0, 15))
        #expect(at(0, -1, field: true, bottom: true) == loc(.b, true, 0, 15))
        #expect(at(16, -1, field: true, bottom: true, .c) == loc(.c, true, 0, 15))
        #expect(at(-1, -1, field: true, bottom: false) == loc(.d, true, 15, 14))
        // Chroma (maxH 8).
        #expect(at(-1, 5, field: false, bottom: true, .a, maxH: 8) == loc(.a, true, 7, 6))
        #expect(at(2, -1, field: true, bottom: false, maxH: 8) == loc(.b, true, 2, 6))
        // Below or right of the macroblock: not available.
        #expect(at(16, 0, field: false, bottom: false) == nil)
        #expect(at(0, 16, field: true, bottom: false) == nil)
    }

    @Test("neighbouring pairs at the picture's edges (§6.4.10) and sample origins (§6.4.1)")
    func pairsAndOrigins() {
        let geometry = MBAFFGeometry(widthInMbs: 3)
        // Pairs: 0 1 2 / 3 4 5; macroblock 9 is the bottom of pair 4 (second row, middle).
        #expect(geometry.neighbourPairs(of: 9) == MBAFFNeighbourPairs(a: 6, b: 2, c: 4, d: 0))
        #expect(geometry.neighbourPairs(of: 6) == MBAFFNeighbourPairs(a: -1, b: 0, c: 2, d: -1))
        #expect(geometry.neighbourPairs(of: 11) == MBAFFNeighbourPairs(a: 8, b: 4, c: -1, d: 2))
        #expect(geometry.neighbourPairs(of: 3) == MBAFFNeighbourPairs(a: 0, b: -1, c: -1, d: -1))
        #expect(geometry.neighbourPairs(of: 9).topAddress(of: .current, current: 9) == 8)
        func origin(_ mb: Int, _ field: Bool) -> [Int] {
            let o = geometry.lumaOrigin(of: mb, isField: field)
            return [o.x, o.y, o.rowStep]
        }
        #expect(origin(8, false) == [16, 32, 1])
        #expect(origin(9, false) == [16, 48, 1])
        #expect(origin(9, true) == [16, 33, 2])
        #expect(origin(5, true) == [32, 1, 2])
    }

    @Test("mb_field_decoding_flag: inference (§7.4.4) and ctxIdxInc (§9.3.3.1.1)")
    func fieldDecodingFlag() {
        #expect(MBAFFGeometry.inferredFieldDecodingFlag(leftAvailable: true, leftIsField: true, aboveAvailable: true, aboveIsField: false))
        #expect(!MBAFFGeometry.inferredFieldDecodingFlag(leftAvailable: true, leftIsField: false, aboveAvailable: true, aboveIsField: true))
        #expect(MBAFFGeometry.inferredFieldDecodingFlag(leftAvailable: false, leftIsField: false, aboveAvailable: true, aboveIsField: true))
        #expect(!MBAFFGeometry.inferredFieldDecodingFlag(leftAvailable: false, leftIsField: true, aboveAvailable: false, aboveIsField: true))
        #expect(MBAFFGeometry.fieldDecodingFlagContextIncrement(leftAvailable: true, leftIsField: true, aboveAvailable: true, aboveIsField: true) == 2)
        #expect(MBAFFGeometry.fieldDecodingFlagContextIncrement(leftAvailable: false, leftIsField: true, aboveAvailable: true, aboveIsField: true) == 1)
        #expect(MBAFFGeometry.fieldDecodingFlagContextIncrement(leftAvailable: true, leftIsField: false, aboveAvailable: true, aboveIsField: false) == 0)
    }
}
