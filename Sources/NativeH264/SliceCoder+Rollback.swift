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
        let stride = widthInMbs * 4, chromaStride = widthInMbs * 2
        let lumaWidth = reconstruction.width, chromaWidth = reconstruction.chromaWidth
        for address in addresses {
            let mbX = address % widthInMbs, mbY = address / widthInMbs
            for y in 0..<4 {
                let start = (mbY * 4 + y) * stride + mbX * 4
                lumaTotals[start..<(start + 4)] = other.lumaTotals[start..<(start + 4)]
                intra4x4Modes[start..<(start + 4)] = other.intra4x4Modes[start..<(start + 4)]
                motionVectors[start..<(start + 4)] = other.motionVectors[start..<(start + 4)]
            }
            for plane in 0..<2 {
                for y in 0..<2 {
                    let start = (mbY * 2 + y) * chromaStride + mbX * 2
                    chromaTotals[plane][start..<(start + 2)] = other.chromaTotals[plane][start..<(start + 2)]
                }
            }
            macroblockIsIntra[address] = other.macroblockIsIntra[address]
            macroblockQPs[address] = other.macroblockQPs[address]
            for y in 0..<16 {
                let start = (mbY * 16 + y) * lumaWidth + mbX * 16
                reconstruction.luma[start..<(start + 16)] = other.reconstruction.luma[start..<(start + 16)]
            }
            for y in 0..<8 {
                let start = (mbY * 8 + y) * chromaWidth + mbX * 8
                reconstruction.cb[start..<(start + 8)] = other.reconstruction.cb[start..<(start + 8)]
                reconstruction.cr[start..<(start + 8)] = other.reconstruction.cr[start..<(start + 8)]
            }
        }
    }
}
