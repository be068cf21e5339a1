import Bitstream
import NativeH264Kernels

/// One inter-predicted macroblock (one 16x16 partition): its prediction and its quantised residual.
struct InterMacroblock {
    /// The partitions.
    var shape = PartitionShape.whole
    /// mvL0 of each partition in quarter luma samples.
    var motionVectors = [SIMD2<Int32>.zero]
    /// The luma prediction, 16x16.
    var luma = [UInt8](repeating: 0, count: 256)
    /// The Cb and Cr predictions, 8x8 each.
    var chroma = [[UInt8]](repeating: [UInt8](repeating: 0, count: 64), count: 2)
    /// Luma levels of each 4x4 block, raster inside the block, by luma4x4BlkIdx.
    var levels = [Int32](repeating: 0, count: 256)
    /// CodedBlockPatternLuma.
    var codedBlockPatternLuma = 0
    /// Chroma AC levels, four blocks of 16 per plane (DC position unused), chroma4x4BlkIdx order.
    var chromaLevels = [[Int32]](repeating: [Int32](repeating: 0, count: 64), count: 2)
    /// Chroma DC levels of each plane.
    var chromaDC = [[Int32]](repeating: [0, 0, 0, 0], count: 2)
    /// CodedBlockPatternChroma, 0…2.
    var codedBlockPatternChroma = 0

    /// coded_block_pattern.
    var codedBlockPattern: Int { codedBlockPatternLuma | codedBlockPatternChroma << 4 }
}

extension SliceCoder {
    /// Table 9-4, Inter column: codeNum of me(v) → coded_block_pattern (ChromaArrayType 1).
    static let interCodedBlockPatternByCodeNum: [Int] = [
        0, 16, 1, 2, 4, 8, 32, 3, 5, 10, 12, 15, 47, 7, 11, 13, 14, 6, 9, 31, 35, 37, 42, 44,
        33, 34, 36, 40, 39, 43, 45, 46, 17, 18, 20, 24, 19, 21, 26, 28, 23, 27, 29, 30, 22, 25, 38, 41,
    ]
    /// The inverse: coded_block_pattern → codeNum.
    static let interCodeNumByCodedBlockPattern: [Int] = {
        var table = [Int](repeating: 0, count: 48)
        for (codeNum, pattern) in interCodedBlockPatternByCodeNum.enumerated() { table[pattern] = codeNum }
        return table
    }()

    /// One macroblock of a P slice: P_Skip when the skip vector's residual quantises to nothing,
    /// otherwise the cheapest of P_L0_16x16, P_L0_L0_16x8, P_L0_L0_8x16 and P_8x8 (8x8 sub-macroblocks) with searched vectors or,
    /// when its SATD cost is lower, an intra macroblock.
    mutating func encodePredictedMacroblock(mbX: Int, mbY: Int, to writer: inout BitWriter) {
        let index = mbY * widthInMbs + mbX
        let predictor = motionVectorPredictor(mbX: mbX, mbY: mbY)
        let skip = skipMotionVector(mbX: mbX, mbY: mbY, predictor: predictor)
        var candidate = predictedMacroblock(mbX: mbX, mbY: mbY, shape: .whole, motionVectors: [skip])
        if candidate.codedBlockPattern == 0 {
            // P_Skip (§7.4.4: inferred mb_type, mvL0 of §8.4.1.1, no residual).
            macroblockIsIntra[index] = false
            setMotion(skip, mbX: mbX, mbY: mbY, x: 0, y: 0, width: 16, height: 16)
            reconstructInter(candidate, mbX: mbX, mbY: mbY)
            skipRun += 1
            macroblockTypes.skipped += 1
            return
        }
        var neighbourVectors = [SIMD2<Int32>]()
        for (x, y) in [(-1, 0), (0, -1), (16, -1)] {
            if let neighbour = neighbourMotion(mbX: mbX, mbY: mbY, x: x, y: y), neighbour.refIdx == 0 { neighbourVectors.append(neighbour.mv) }
        }
        // Each shape: its partitions searched in order (the second predicts from the first).
        let lambda = Self.lambda(qp: qp)
        var bestShape = PartitionShape.whole, bestVectors = [SIMD2<Int32>](), bestPredictors = [SIMD2<Int32>](), bestCost = Int.max
        for shape in PartitionShape.allCases {
            var vectors = [SIMD2<Int32>](), predictors = [SIMD2<Int32>](), cost = lambda * [0, 2, 2, 8][shape.rawValue]
            for (partition, geometry) in shape.partitions.enumerated() {
                let partitionPredictor = motionVectorPredictor(mbX: mbX, mbY: mbY, shape: shape, partition: partition)
                let (motion, partitionCost) = searchMotion(mbX: mbX, mbY: mbY, partition: geometry, size: shape.blockSize, predictor: partitionPredictor,
                                                           candidates: [.zero, partitionPredictor, predictor, skip] + neighbourVectors + vectors)
                setMotion(motion, mbX: mbX, mbY: mbY, x: geometry.0, y: geometry.1, width: geometry.2, height: geometry.3)
                vectors.append(motion)
                predictors.append(partitionPredictor)
                cost += partitionCost
            }
            if cost < bestCost { bestCost = cost; bestShape = shape; bestVectors = vectors; bestPredictors = predictors }
        }
        if intra16x16Cost(mbX: mbX, mbY: mbY) + 6 * lambda < bestCost {
            encodeMacroblock(mbX: mbX, mbY: mbY, to: &writer)
            return
        }
        for (geometry, motion) in zip(bestShape.partitions, bestVectors) {
            setMotion(motion, mbX: mbX, mbY: mbY, x: geometry.0, y: geometry.1, width: geometry.2, height: geometry.3)
        }
        if bestShape != .whole || bestVectors[0] != skip {
            candidate = predictedMacroblock(mbX: mbX, mbY: mbY, shape: bestShape, motionVectors: bestVectors)
        }
        macroblockIsIntra[index] = false
        switch bestShape {
        case .whole: macroblockTypes.predicted16x16 += 1
        case .horizontalHalves: macroblockTypes.predicted16x8 += 1
        case .verticalHalves: macroblockTypes.predicted8x16 += 1
        case .quarters: macroblockTypes.predicted8x8 += 1
        }

        // mb_skip_run, macroblock_layer( ) of P_L0_16x16 / P_L0_L0_16x8 / P_L0_L0_8x16 (mb_type 0…2,
        // Table 7-13): mb_pred( ) with each partition's mvd_l0 (ref_idx_l0 absent: one active
        // reference), coded_block_pattern me(v), mb_qp_delta.
        writer.ue(UInt32(skipRun)); skipRun = 0
        writer.ue(UInt32(bestShape.rawValue))
        // P_8x8: sub_mb_type P_L0_8x8 (0) for each 8x8 block (§7.3.5.2, Table 7-17).
        if bestShape == .quarters { for _ in 0..<4 { writer.ue(0) } }
        for (motion, partitionPredictor) in zip(bestVectors, bestPredictors) {
            writer.se(motion.x - partitionPredictor.x)
            writer.se(motion.y - partitionPredictor.y)
        }
        let pattern = candidate.codedBlockPattern
        writer.ue(UInt32(Self.interCodeNumByCodedBlockPattern[pattern]))
        if pattern != 0 { writeQuantisationDelta(to: &writer) }
        writeLuma4x4Residual(mbX: mbX, mbY: mbY, levels: candidate.levels, codedBlockPatternLuma: candidate.codedBlockPatternLuma, to: &writer)
        writeChromaResidual(mbX: mbX, mbY: mbY, levels: candidate.chromaLevels, dc: candidate.chromaDC,
                            pattern: candidate.codedBlockPatternChroma, to: &writer)
        reconstructInter(candidate, mbX: mbX, mbY: mbY)
    }

    /// The least SATD of the usable Intra_16x16 predictions of a macroblock (§8.3.3).
    func intra16x16Cost(mbX: Int, mbY: Int) -> Int {
        let neighbours = intraNeighbours(mbX: mbX, mbY: mbY)
        let stride = source.width, x0 = mbX * 16, y0 = mbY * 16
        var best = Int.max
        reconstruction.luma.withUnsafeBufferPointer { recon in
            source.luma.withUnsafeBufferPointer { src in
                let view = PlaneView(base: recon.baseAddress!, width: reconstruction.width, height: reconstruction.height, stride: stride)
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { out in
                    for mode in Intra16x16Mode.allCases where mode.isUsable(with: neighbours) {
                        Intra16x16Prediction.fast(mode, plane: view, x: x0, y: y0, neighbours: neighbours, into: out.baseAddress!, stride: 16)
                        best = min(best, SATD.fast(.w16h16, src.baseAddress! + y0 * stride + x0, stride: stride, UnsafePointer(out.baseAddress!), stride: 16))
                    }
                }
            }
        }
        return best
    }

    /// The motion-compensated prediction of a macroblock (§8.4.2.2: luma quarter-sample, chroma
    /// eighth-sample with mvCL0 = mvL0, §8.4.1.4) and its residual through the 4x4 transform,
    /// quantised with the inter dead zone (rounding 1/6), chroma DC through the 2x2 transform.
    func predictedMacroblock(mbX: Int, mbY: Int, shape: PartitionShape, motionVectors vectors: [SIMD2<Int32>]) -> InterMacroblock {
        var result = InterMacroblock()
        result.shape = shape
        result.motionVectors = vectors
        guard let reference else { return result }
        let stride = source.width, chromaStride = source.chromaWidth
        let x0 = mbX * 16, y0 = mbY * 16, cx0 = mbX * 8, cy0 = mbY * 8
        for ((px, py, pw, ph), mv) in zip(shape.partitions, vectors) {
            let size = shape.blockSize
            reference.luma.withUnsafeBufferPointer { ref in
                let plane = PlaneView(base: ref.baseAddress!, width: reference.width, height: reference.height, stride: stride)
                result.luma.withUnsafeMutableBufferPointer {
                    LumaInterpolation.fast(plane, quarterX: (x0 + px) * 4 + Int(mv.x), quarterY: (y0 + py) * 4 + Int(mv.y), size: size,
                                           into: $0.baseAddress! + py * 16 + px, stride: 16)
                }
            }
            for component in 0..<2 {
                (component == 0 ? reference.cb : reference.cr).withUnsafeBufferPointer { ref in
                    let plane = PlaneView(base: ref.baseAddress!, width: reference.chromaWidth, height: reference.chromaHeight, stride: chromaStride)
                    result.chroma[component].withUnsafeMutableBufferPointer {
                        ChromaInterpolation.fast(plane, eighthX: (cx0 + px / 2) * 8 + Int(mv.x), eighthY: (cy0 + py / 2) * 8 + Int(mv.y),
                                                 width: pw / 2, height: ph / 2, into: $0.baseAddress! + (py / 2) * 8 + px / 2, stride: 8)
                    }
                }
            }
        }
        // Luma: 16 blocks, all 16 coefficients each.
        source.luma.withUnsafeBufferPointer { src in
            result.levels.withUnsafeMutableBufferPointer { lv in
                for blk in 0..<16 {
                    let (bx, by) = Self.blockOrigin[blk]
                    let block = lv.baseAddress! + 16 * blk
                    for y in 0..<4 {
                        for x in 0..<4 {
                            block[4 * y + x] = Int32(src[(y0 + by + y) * stride + x0 + bx + x]) - Int32(result.luma[(by + y) * 16 + bx + x])
                        }
                    }
                    Transform4x4.forward(block)
                    Quantisation.quantise(block, qP: qp, kind: .inter, skippingDC: false)
                    Self.clamp(block, 16)
                }
            }
        }
        Self.decimate(&result)
        // Chroma: AC of the four blocks, the DC through the 2x2 transform.
        var acNonZero = 0, dcNonZero = 0
        for component in 0..<2 {
            (component == 0 ? source.cb : source.cr).withUnsafeBufferPointer { s in
                result.chromaLevels[component].withUnsafeMutableBufferPointer { lv in
                    for blk in 0..<4 {
                        let bx = (blk % 2) * 4, by = (blk / 2) * 4
                        let block = lv.baseAddress! + 16 * blk
                        for y in 0..<4 {
                            for x in 0..<4 {
                                block[4 * y + x] = Int32(s[(cy0 + by + y) * chromaStride + cx0 + bx + x]) - Int32(result.chroma[component][(by + y) * 8 + bx + x])
                            }
                        }
                        Transform4x4.forward(block)
                        result.chromaDC[component][blk] = block[0]
                        acNonZero += Quantisation.quantise(block, qP: chromaQP, kind: .inter, skippingDC: true)
                        Self.clamp(block, 16)
                    }
                }
            }
            result.chromaDC[component].withUnsafeMutableBufferPointer {
                DCTransforms.forwardChromaDC($0.baseAddress!)
                dcNonZero += Quantisation.quantiseDC($0.baseAddress!, count: 4, qP: chromaQP, kind: .inter)
                Self.clamp($0.baseAddress!, 4)
            }
        }
        result.codedBlockPatternChroma = acNonZero > 0 ? 2 : (dcNonZero > 0 ? 1 : 0)
        if result.codedBlockPatternChroma < 2 { for p in 0..<2 { for i in 0..<64 { result.chromaLevels[p][i] = 0 } } }
        if result.codedBlockPatternChroma == 0 { result.chromaDC = [[0, 0, 0, 0], [0, 0, 0, 0]] }
        return result
    }

    /// Drops luma residual that costs more bits than it buys (an encoder choice, after x264's
    /// decimation): an 8x8 block whose levels are all ±1 and scattered scores below 4 by the runs before
    /// them, the whole macroblock's luma below 6; then sets CodedBlockPatternLuma.
    static func decimate(_ macroblock: inout InterMacroblock) {
        let runScore = [3, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        var scanned = [Int32](repeating: 0, count: 16)
        var blockScores = [Int](repeating: 0, count: 16)
        for blk in 0..<16 {
            macroblock.levels.withUnsafeBufferPointer { Zigzag.scan($0.baseAddress! + 16 * blk, into: &scanned) }
            var score = 0, index = 15
            while index >= 0 && scanned[index] == 0 { index -= 1 }
            while index >= 0 {
                if abs(scanned[index]) > 1 { score = 99; break }
                index -= 1
                var run = 0
                while index >= 0 && scanned[index] == 0 { index -= 1; run += 1 }
                score += runScore[run]
            }
            blockScores[blk] = score
        }
        var total = 0
        var keep = [Bool](repeating: true, count: 4)
        for block8x8 in 0..<4 {
            let score = blockScores[(4 * block8x8)..<(4 * block8x8 + 4)].reduce(0, +)
            if score < 4 { keep[block8x8] = false } else { total += score }
        }
        if total < 6 { keep = [false, false, false, false] }
        macroblock.codedBlockPatternLuma = 0
        for blk in 0..<16 {
            if !keep[blk / 4] {
                for i in 0..<16 { macroblock.levels[16 * blk + i] = 0 }
            } else if macroblock.levels[(16 * blk)..<(16 * blk + 16)].contains(where: { $0 != 0 }) {
                macroblock.codedBlockPatternLuma |= 1 << (blk / 4)
            }
        }
    }

    /// Writes the prediction plus the decoded residual into the reconstruction (§8.5.12, §8.5.11, §8.5.14).
    mutating func reconstructInter(_ macroblock: InterMacroblock, mbX: Int, mbY: Int) {
        let stride = source.width, chromaStride = source.chromaWidth
        let x0 = mbX * 16, y0 = mbY * 16, cx0 = mbX * 8, cy0 = mbY * 8
        reconstruction.luma.withUnsafeMutableBufferPointer { recon in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { scratch in
                let b = scratch.baseAddress!
                for blk in 0..<16 {
                    let (bx, by) = Self.blockOrigin[blk]
                    let out = recon.baseAddress! + (y0 + by) * stride + x0 + bx
                    for y in 0..<4 { for x in 0..<4 { out[y * stride + x] = macroblock.luma[(by + y) * 16 + bx + x] } }
                    guard macroblock.codedBlockPatternLuma & (1 << (blk / 4)) != 0 else { continue }
                    for i in 0..<16 { b[i] = macroblock.levels[16 * blk + i] }
                    Quantisation.dequantise(b, qP: qp, keepingDC: false)
                    Transform4x4.inverse(b)
                    Transform4x4.add(UnsafePointer(b), to: out, stride: stride)
                }
            }
        }
        for component in 0..<2 {
            var dc = macroblock.chromaDC[component]
            dc.withUnsafeMutableBufferPointer { DCTransforms.inverseChromaDC($0.baseAddress!, qP: chromaQP) }
            let rebuild: (inout UnsafeMutableBufferPointer<UInt8>) -> Void = { recon in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { scratch in
                    let b = scratch.baseAddress!
                    for blk in 0..<4 {
                        let bx = (blk % 2) * 4, by = (blk / 2) * 4
                        let out = recon.baseAddress! + (cy0 + by) * chromaStride + cx0 + bx
                        for y in 0..<4 { for x in 0..<4 { out[y * chromaStride + x] = macroblock.chroma[component][(by + y) * 8 + bx + x] } }
                        guard macroblock.codedBlockPatternChroma > 0 else { continue }
                        for i in 0..<16 { b[i] = macroblock.chromaLevels[component][16 * blk + i] }
                        Quantisation.dequantise(b, qP: chromaQP, keepingDC: true)
                        b[0] = dc[blk]
                        Transform4x4.inverse(b)
                        Transform4x4.add(UnsafePointer(b), to: out, stride: chromaStride)
                    }
                }
            }
            if component == 0 { reconstruction.cb.withUnsafeMutableBufferPointer(rebuild) } else { reconstruction.cr.withUnsafeMutableBufferPointer(rebuild) }
        }
    }
}
