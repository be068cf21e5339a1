/// What coding one macroblock changes in a ``SliceCoder`` besides its reconstructed samples: saved
/// before a macroblock that may not fit its slice, put back when it does not, so the macroblock can
/// be coded again as the first of the next slice (``NativeH264Encoder/SliceLayout/maximumBytes(_:)``).
///
/// The samples need no saving: every macroblock type writes all 16x16 luma and 2x8x8 chroma samples of
/// its own macroblock before anything reads them, and reads nothing of it from an earlier try.
struct MacroblockSnapshot {
    var lumaTotals = [UInt8](repeating: 0, count: 16)
    var chromaTotals = [UInt8](repeating: 0, count: 8)
    var intra4x4Modes = [UInt8](repeating: 0, count: 16)
    var motionVectors = [SIMD2<Int32>](repeating: .zero, count: 16)
    var isIntra = false
    var skipRun = 0
    var predictedQP = 0
    var macroblockTypes = NativeH264Encoder.MacroblockTypeCounts()
}

extension SliceCoder {
    /// Saves what coding macroblock `address` changes (see ``MacroblockSnapshot``) into `snapshot`.
    func save(macroblock address: Int, into snapshot: inout MacroblockSnapshot) {
        let mbX = address % widthInMbs, mbY = address / widthInMbs
        let stride = widthInMbs * 4, chromaStride = widthInMbs * 2
        for y in 0..<4 {
            for x in 0..<4 {
                let index = (mbY * 4 + y) * stride + mbX * 4 + x
                snapshot.lumaTotals[4 * y + x] = lumaTotals[index]
                snapshot.intra4x4Modes[4 * y + x] = intra4x4Modes[index]
                snapshot.motionVectors[4 * y + x] = motionVectors[index]
            }
        }
        for plane in 0..<2 {
            for y in 0..<2 { for x in 0..<2 { snapshot.chromaTotals[4 * plane + 2 * y + x] = chromaTotals[plane][(mbY * 2 + y) * chromaStride + mbX * 2 + x] } }
        }
        snapshot.isIntra = macroblockIsIntra[address]
        snapshot.skipRun = skipRun
        snapshot.predictedQP = predictedQP
        snapshot.macroblockTypes = macroblockTypes
    }

    /// Puts back what ``save(macroblock:into:)`` saved.
    mutating func restore(macroblock address: Int, from snapshot: MacroblockSnapshot) {
        let mbX = address % widthInMbs, mbY = address / widthInMbs
        let stride = widthInMbs * 4, chromaStride = widthInMbs * 2
        for y in 0..<4 {
            for x in 0..<4 {
                let index = (mbY * 4 + y) * stride + mbX * 4 + x
                lumaTotals[index] = snapshot.lumaTotals[4 * y + x]
                intra4x4Modes[index] = snapshot.intra4x4Modes[4 * y + x]
                motionVectors[index] = snapshot.motionVectors[4 * y + x]
            }
        }
        for plane in 0..<2 {
            for y in 0..<2 { for x in 0..<2 { chromaTotals[plane][(mbY * 2 + y) * chromaStride + mbX * 2 + x] = snapshot.chromaTotals[4 * plane + 2 * y + x] } }
        }
        macroblockIsIntra[address] = snapshot.isIntra
        skipRun = snapshot.skipRun
        predictedQP = snapshot.predictedQP
        macroblockTypes = snapshot.macroblockTypes
    }

    /// Takes over the coded state of macroblocks `addresses` (one slice) from `other`, a coder that
    /// coded that slice of the same picture on another thread: samples, TotalCoeff, modes, vectors and
    /// QPY, everything the deblocking filter reads. The macroblock type counts are not taken over.
    mutating func adopt(_ addresses: Range<Int>, from other: SliceCoder) {
        // Run by run of macroblocks on one row: each array's rows of the run copied whole.
        var address = addresses.lowerBound
        while address < addresses.upperBound {
            let mbY = address / widthInMbs, first = address % widthInMbs
            let count = min(widthInMbs - first, addresses.upperBound - address)
            adoptRun(mbY: mbY, first: first, count: count, from: other)
            address += count
        }
    }

    /// Takes over `count` macroblocks of row `mbY` from column `first` on (see ``adopt(_:from:)``).
    private mutating func adoptRun(mbY: Int, first: Int, count: Int, from other: SliceCoder) {
        let blocks = widthInMbs * 4, chromaBlocks = widthInMbs * 2
        Self.copyRows(&lumaTotals, from: other.lumaTotals, stride: blocks, rows: (mbY * 4)..<(mbY * 4 + 4), column: first * 4, count: count * 4)
        Self.copyRows(&intra4x4Modes, from: other.intra4x4Modes, stride: blocks, rows: (mbY * 4)..<(mbY * 4 + 4), column: first * 4,
                      count: count * 4)
        Self.copyRows(&motionVectors, from: other.motionVectors, stride: blocks, rows: (mbY * 4)..<(mbY * 4 + 4), column: first * 4,
                      count: count * 4)
        for plane in 0..<2 {
            Self.copyRows(&chromaTotals[plane], from: other.chromaTotals[plane], stride: chromaBlocks, rows: (mbY * 2)..<(mbY * 2 + 2),
                          column: first * 2, count: count * 2)
        }
        Self.copyRows(&macroblockIsIntra, from: other.macroblockIsIntra, stride: widthInMbs, rows: mbY..<(mbY + 1), column: first, count: count)
        Self.copyRows(&macroblockQPs, from: other.macroblockQPs, stride: widthInMbs, rows: mbY..<(mbY + 1), column: first, count: count)
        let lumaWidth = reconstruction.width, chromaWidth = reconstruction.chromaWidth
        Self.copyRows(&reconstruction.luma, from: other.reconstruction.luma, stride: lumaWidth, rows: (mbY * 16)..<(mbY * 16 + 16),
                      column: first * 16, count: count * 16)
        Self.copyRows(&reconstruction.cb, from: other.reconstruction.cb, stride: chromaWidth, rows: (mbY * 8)..<(mbY * 8 + 8),
                      column: first * 8, count: count * 8)
        Self.copyRows(&reconstruction.cr, from: other.reconstruction.cr, stride: chromaWidth, rows: (mbY * 8)..<(mbY * 8 + 8),
                      column: first * 8, count: count * 8)
    }

    /// Copies `count` elements from `column` on of each of `rows` (rows of `stride` elements) from `source` into
    /// `destination`, two arrays of the same geometry.
    private static func copyRows<Element>(_ destination: inout [Element], from source: [Element], stride: Int, rows: Range<Int>,
                                          column: Int, count: Int) {
        precondition(destination.count == source.count && rows.upperBound * stride <= source.count && column + count <= stride)
        destination.withUnsafeMutableBufferPointer { target in
            source.withUnsafeBufferPointer { origin in
                for row in rows {
                    (target.baseAddress! + row * stride + column).update(from: origin.baseAddress! + row * stride + column, count: count)
                }
            }
        }
    }
}
