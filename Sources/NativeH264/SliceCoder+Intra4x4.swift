import Bitstream
import NativeH264Kernels

/// The Intra_4x4 macroblock (I_NxN, §7.3.5.1, §8.3.1): sixteen 4x4 blocks, each predicted from the
/// reconstruction of the blocks before it, with its own mode coded against the predicted mode.
struct Intra4x4Macroblock {
    /// Intra4x4PredMode of each block, by luma4x4BlkIdx.
    var modes = InlineArray<16, Intra4x4Mode>(repeating: .dc)
    /// predIntra4x4PredMode of each block (§8.3.1.1), by luma4x4BlkIdx.
    var predictedModes = InlineArray<16, Int>(repeating: 2)
    /// Levels of each block, raster order inside the block, by luma4x4BlkIdx (256, in the coder's
    /// ``MacroblockScratch/intra4x4Levels``).
    let levels: UnsafeMutablePointer<Int32>
    /// CodedBlockPatternLuma: bit i set when 8x8 block i has a non-zero level.
    var codedBlockPatternLuma = 0
    /// SATD of the chosen predictions plus λ · mode bits.
    var cost = 0
}

extension SliceCoder {
    /// Table 9-4, Intra_4x4 column: codeNum of me(v) → coded_block_pattern (ChromaArrayType 1).
    static let intraCodedBlockPatternByCodeNum: [Int] = [
        47, 31, 15, 0, 23, 27, 29, 30, 7, 11, 13, 14, 39, 43, 45, 46, 16, 3, 5, 10, 12, 19, 21, 26,
        28, 35, 37, 42, 44, 1, 2, 4, 8, 17, 18, 20, 24, 6, 9, 22, 25, 32, 33, 34, 36, 40, 38, 41,
    ]
    /// The inverse: coded_block_pattern → codeNum.
    static let intraCodeNumByCodedBlockPattern: [Int] = {
        var table = [Int](repeating: 0, count: 48)
        for (codeNum, pattern) in intraCodedBlockPatternByCodeNum.enumerated() { table[pattern] = codeNum }
        return table
    }()

    /// The mode-cost weight λ for a QP (about 2^((QP − 12) / 6), at least 1).
    @inline(__always)
    static func lambda(qp: Int) -> Int { lambdas[qp] }

    /// ``lambda(qp:)`` by QP 0…51, computed once.
    static let lambdas: [Int] = (0...51).map { max(1, Int((Double(1 << 20) * pow2((Double($0) - 12) / 6)).rounded()) >> 20) }

    static func pow2(_ x: Double) -> Double {
        // 2^x without Foundation: split into integer and fractional parts, the latter by its series.
        let whole = x.rounded(.down), fraction = x - whole
        var term = 1.0, sum = 1.0
        for n in 1...12 { term *= fraction * 0.6931471805599453 / Double(n); sum += term }
        return whole >= 0 ? sum * Double(1 << Int(whole)) : sum / Double(1 << Int(-whole))
    }

    /// Codes the macroblock's luma as Intra_4x4 into the reconstruction (which it overwrites), and returns
    /// the decisions and levels. Chroma is not touched.
    mutating func trialIntra4x4(mbX: Int, mbY: Int) -> Intra4x4Macroblock {
        var result = Intra4x4Macroblock(levels: scratch.intra4x4Levels)
        let stride = source.width
        let gridStride = widthInMbs * 4
        let lambda = Self.lambda(qp: qp)
        let x0 = mbX * 16, y0 = mbY * 16
        let prediction = scratch.intra4x4Prediction, candidate = scratch.intra4x4Candidate
        for blk in 0..<16 {
            let (bx, by) = Self.blockOrigin[blk]
            let gx = mbX * 4 + bx / 4, gy = mbY * 4 + by / 4
            // Neighbours (§6.4.11.4): inside the picture and the slice, and already decoded; the
            // predicted mode from the left and top blocks (§8.3.1.1).
            var neighbours: IntraNeighbours = []
            if isAvailable(mbX: mbX, mbY: mbY, blk: blk, x: bx - 1, y: by) { neighbours.insert(.left) }
            if isAvailable(mbX: mbX, mbY: mbY, blk: blk, x: bx, y: by - 1) { neighbours.insert(.top) }
            if isAvailable(mbX: mbX, mbY: mbY, blk: blk, x: bx - 1, y: by - 1) { neighbours.insert(.topLeft) }
            if isAvailable(mbX: mbX, mbY: mbY, blk: blk, x: bx + 4, y: by - 1) { neighbours.insert(.topRight) }
            let predicted = neighbours.contains(.left) && neighbours.contains(.top)
                ? min(Int(intra4x4Modes[gy * gridStride + gx - 1]), Int(intra4x4Modes[(gy - 1) * gridStride + gx])) : 2
            var bestCost = Int.max
            var bestMode = Intra4x4Mode.dc
            reconstruction.luma.withUnsafeBufferPointer { recon in
                source.luma.withUnsafeBufferPointer { src in
                    let view = PlaneView(base: recon.baseAddress!, width: reconstruction.width, height: reconstruction.height, stride: stride)
                    for mode in Self.allIntra4x4Modes where mode.isUsable(with: neighbours) {
                        Intra4x4Prediction.fast(mode, plane: view, x: x0 + bx, y: y0 + by, neighbours: neighbours, into: candidate, stride: 4)
                        let cost = SATD.fast(.w4h4, src.baseAddress! + (y0 + by) * stride + x0 + bx, stride: stride, candidate, stride: 4)
                            + lambda * (mode.rawValue == predicted ? 1 : 4)
                        if cost < bestCost { bestCost = cost; bestMode = mode; prediction.update(from: candidate, count: 16) }
                    }
                }
            }
            result.modes[blk] = bestMode
            result.predictedModes[blk] = predicted
            result.cost += bestCost
            intra4x4Modes[gy * gridStride + gx] = UInt8(bestMode.rawValue)

            // Residual, quantisation, and the reconstruction the next blocks predict from.
            let block = result.levels + 16 * blk
            source.luma.withUnsafeBufferPointer { src in
                for y in 0..<4 {
                    for x in 0..<4 {
                        block[4 * y + x] = Int32(src[(y0 + by + y) * stride + x0 + bx + x]) - Int32(prediction[4 * y + x])
                    }
                }
            }
            Transform4x4.forward(block)
            let nonZero = Quantisation.quantise(block, qP: qp, kind: .intra, skippingDC: false)
            Self.clamp(block, 16)
            if nonZero > 0 { result.codedBlockPatternLuma |= 1 << (blk / 4) }
            let b = scratch.block
            b.update(from: block, count: 16)
            reconstruction.luma.withUnsafeMutableBufferPointer { recon in
                Quantisation.dequantise(b, qP: qp, keepingDC: false)
                Transform4x4.inverse(b)
                let out = recon.baseAddress! + (y0 + by) * stride + x0 + bx
                for y in 0..<4 { (out + y * stride).update(from: prediction + 4 * y, count: 4) }
                Transform4x4.add(UnsafePointer(b), to: out, stride: stride)
            }
        }
        // An 8x8 block without levels is not coded: the decoder reconstructs it from the prediction
        // alone, which is what the zero residual above gave already (every level of it is 0).
        return result
    }

    /// Whether the sample at (x, y) relative to the macroblock is available to block `blk` (§6.4.11.4):
    /// in a macroblock of the picture and the slice (§6.4.12), decoded before the block.
    func isAvailable(mbX: Int, mbY: Int, blk: Int, x: Int, y: Int) -> Bool {
        if y < 0 {
            if x < 0 { return isMacroblockAvailable(mbX: mbX - 1, mbY: mbY - 1) }
            if x < 16 { return isMacroblockAvailable(mbX: mbX, mbY: mbY - 1) }
            return isMacroblockAvailable(mbX: mbX + 1, mbY: mbY - 1)
        }
        if x < 0 { return isMacroblockAvailable(mbX: mbX - 1, mbY: mbY) }
        if x >= 16 { return false }
        let index = (y / 8) * 8 + (x / 8) * 4 + ((y % 8) / 4) * 2 + (x % 8) / 4
        return index < blk
    }

    /// mb_pred( ) of I_NxN (§7.3.5.1): prev_intra4x4_pred_mode_flag or rem_intra4x4_pred_mode per block.
    static func writePredictionModes<Sink: SyntaxBitSink>(_ macroblock: Intra4x4Macroblock, to writer: inout Sink) {
        for blk in 0..<16 {
            let mode = macroblock.modes[blk].rawValue, predicted = macroblock.predictedModes[blk]
            if mode == predicted {
                writer.u(1, 1)
            } else {
                writer.u(1, 0)
                writer.u(3, UInt32(mode < predicted ? mode : mode - 1))
            }
        }
    }

    /// residual_luma( ) of I_NxN: the 4x4 blocks of each coded 8x8 block, in luma4x4BlkIdx order.
    mutating func writeIntra4x4Residual<Sink: SyntaxBitSink>(mbX: Int, mbY: Int, _ macroblock: Intra4x4Macroblock, to writer: inout Sink) {
        writeLuma4x4Residual(mbX: mbX, mbY: mbY, levels: UnsafePointer(macroblock.levels), codedBlockPatternLuma: macroblock.codedBlockPatternLuma, to: &writer)
    }

    /// residual_luma( ) of 4x4 blocks of 16 coefficients (I_NxN and inter macroblocks, §7.3.5.3.1):
    /// the blocks of each 8x8 block whose CodedBlockPatternLuma bit is set, in luma4x4BlkIdx order.
    mutating func writeLuma4x4Residual<Sink: SyntaxBitSink>(mbX: Int, mbY: Int, levels: UnsafePointer<Int32>, codedBlockPatternLuma: Int, to writer: inout Sink) {
        let stride = widthInMbs * 4
        let scanned = scratch.scanned
        for blk in 0..<16 {
            let (bx, by) = Self.blockOrigin[blk]
            let gx = mbX * 4 + bx / 4, gy = mbY * 4 + by / 4
            var total = 0
            if codedBlockPatternLuma & (1 << (blk / 4)) != 0 {
                Zigzag.scan(levels + 16 * blk, into: scanned)
                let nC = lumaNC(blockX: gx, blockY: gy)
                total = CAVLCResidualWriter.write(scanned, count: 16, nC: nC, to: &writer)
            }
            lumaTotals[gy * stride + gx] = UInt8(total)
        }
    }
}
