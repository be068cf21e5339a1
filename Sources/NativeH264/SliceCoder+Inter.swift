import Bitstream
import NativeH264Kernels

/// One inter-predicted macroblock: its prediction and its quantised residual, in memory allocated
/// once (``MacroblockScratch/inter``) and overwritten by each macroblock.
final class InterMacroblock {
    /// The partitions.
    var shape = PartitionShape.whole
    /// The luma prediction, 16x16, stride 16.
    let luma: UnsafeMutablePointer<UInt8>
    /// The Cb and Cr predictions, 8x8 each, stride 8 (Cb at 0, Cr at 64).
    let chroma: UnsafeMutablePointer<UInt8>
    /// Luma levels of each 4x4 block, raster inside the block, by luma4x4BlkIdx (256).
    let levels: UnsafeMutablePointer<Int32>
    /// CodedBlockPatternLuma.
    var codedBlockPatternLuma = 0
    /// Chroma AC levels, four blocks of 16 per plane (DC position unused), chroma4x4BlkIdx order, Cb then Cr (128).
    let chromaLevels: UnsafeMutablePointer<Int32>
    /// Chroma DC levels of each plane, Cb then Cr (8).
    let chromaDC: UnsafeMutablePointer<Int32>
    /// CodedBlockPatternChroma, 0…2.
    var codedBlockPatternChroma = 0
    /// Bit `blk` set when luma block `blk` (luma4x4BlkIdx) has a non-zero level after decimation; a block
    /// without one adds no residual to the prediction.
    var nonZeroBlocks = 0
    /// Whether the chroma residual is still to be computed (``SliceCoder/completeChromaResidual(_:mbX:mbY:)``):
    /// the chroma levels and CodedBlockPatternChroma are not yet valid, the chroma prediction is.
    var chromaResidualPending = false

    init() {
        luma = .allocate(capacity: 256 + 128)
        luma.initialize(repeating: 0, count: 256 + 128)
        chroma = luma + 256
        levels = .allocate(capacity: 256 + 128 + 8)
        levels.initialize(repeating: 0, count: 256 + 128 + 8)
        chromaLevels = levels + 256
        chromaDC = levels + 384
    }

    deinit {
        luma.deallocate()
        levels.deallocate()
    }

    /// coded_block_pattern.
    var codedBlockPattern: Int { codedBlockPatternLuma | codedBlockPatternChroma << 4 }
}

/// Up to four motion vectors inline (one per partition), no heap.
struct PartitionVectors {
    private var storage = InlineArray<4, SIMD2<Int32>>(repeating: .zero)
    private(set) var count = 0

    init() {}

    init(_ vector: SIMD2<Int32>) { append(vector) }

    mutating func append(_ vector: SIMD2<Int32>) {
        storage[count] = vector
        count += 1
    }

    subscript(index: Int) -> SIMD2<Int32> { storage[index] }
}

extension SliceCoder {
    /// Table 9-4, Inter column: codeNum of me(v) → coded_block_pattern (ChromaArrayType 1).
    static let interCodedBlockPatternByCodeNum: [Int] = [
        0, 16, 1, 2, 4, 8, 32, 3, 5, 10, 12, 15, 47, 7, 11, 13, 14, 6, 9, 31, 35, 37, 42, 44,
        33, 34, 36, 40, 39, 43, 45, 46, 17, 18, 20, 24, 19, 21, 26, 28, 23, 27, 29, 30, 22, 25, 38, 41,
    ]
    /// Tables built once, so that the macroblock loop reads them without allocating: every
    /// partition shape in the order they are searched, the shape's mb_type bits weight, the (A, B, C) neighbour positions, the
    /// decimation score by zero run.
    static let partitionShapes: [PartitionShape] = [.whole, .quarters, .horizontalHalves, .verticalHalves]
    static let shapeBits = [0, 2, 2, 8]
    static let neighbourPositions = [(-1, 0), (0, -1), (16, -1)]
    static let decimationRunScore = [3, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    /// Every Intra_16x16, Intra_4x4 and intra chroma mode, in mode order.
    static let allIntra16x16Modes = Intra16x16Mode.allCases
    static let allIntra4x4Modes = Intra4x4Mode.allCases
    static let allIntraChromaModes = IntraChromaMode.allCases

    /// The inverse: coded_block_pattern → codeNum.
    static let interCodeNumByCodedBlockPattern: [Int] = {
        var table = [Int](repeating: 0, count: 48)
        for (codeNum, pattern) in interCodedBlockPatternByCodeNum.enumerated() { table[pattern] = codeNum }
        return table
    }()

    /// One macroblock of a P slice: P_Skip when the skip vector's residual quantises to nothing;
    /// otherwise the partitions (P_L0_16x16, P_L0_L0_16x8, P_L0_L0_8x16 or P_8x8 with 8x8 sub-macroblocks)
    /// and vectors of least SATD + λ·bits, then the final choice by rate-distortion cost (SSD of the
    /// reconstruction + λ² · the bits the writers count) among P_Skip, those partitions with their
    /// residual, the same without residual, and an intra macroblock (tried when its SATD + 3λ is below
    /// the inter cost).
    mutating func encodePredictedMacroblock(mbX: Int, mbY: Int, to writer: inout BitWriter) {
        let index = mbY * widthInMbs + mbX
        let predictor = motionVectorPredictor(mbX: mbX, mbY: mbY)
        let skip = skipMotionVector(mbX: mbX, mbY: mbY, predictor: predictor)
        // The skip vector's prediction, kept in its own buffer for the whole decision. Its chroma residual is
        // computed only when the luma residual leaves P_Skip possible (otherwise only if the search ends on it).
        let skipCandidate = predictedMacroblock(mbX: mbX, mbY: mbY, shape: .whole, motionVectors: PartitionVectors(skip), into: scratch.skipInter,
                                                chromaResidualUnlessLumaCoded: true)
        if skipCandidate.codedBlockPattern == 0 {
            // P_Skip (§7.4.4: inferred mb_type, mvL0 of §8.4.1.1, no residual).
            macroblockIsIntra[index] = false
            setMotion(skip, mbX: mbX, mbY: mbY, x: 0, y: 0, width: 16, height: 16)
            reconstructInter(skipCandidate, mbX: mbX, mbY: mbY)
            skipRun += 1
            macroblockTypes.skipped += 1
            return
        }
        var shared = MotionCandidates()
        shared.append(.zero)
        shared.append(predictor)
        shared.append(skip)
        // The co-located vector of the reference picture (its block at this macroblock's centre).
        if let colocated = reference?.motionVectors, !colocated.isEmpty {
            shared.append(colocated[(mbY * 4 + 2) * widthInMbs * 4 + mbX * 4 + 2])
        }
        var neighbourVectors = PartitionVectors()
        for (x, y) in Self.neighbourPositions {
            if let neighbour = neighbourMotion(mbX: mbX, mbY: mbY, x: x, y: y), neighbour.refIdx == 0 { neighbourVectors.append(neighbour.mv) }
        }
        // Each shape: its partitions searched in order (the second predicts from the first). As x264
        // does: 16x16 first, then 8x8 (unless the 16x16 cost is below ``quartersThreshold`` λ) starting
        // from the 16x16 vector too, and 16x8 and 8x16 only when 8x8 beat 16x16 (early termination:
        // most macroblocks stop after one or two shapes).
        let lambda = Self.lambda(qp: qp)
        var bestShape = PartitionShape.whole, bestVectors = PartitionVectors(), bestPredictors = PartitionVectors(), bestCost = Int.max
        for shape in Self.partitionShapes {
            if shape == .horizontalHalves, bestShape != .quarters || tools.partitions != .all { break }
            if shape == .quarters, tools.partitions == .whole || bestCost < tools.quartersThreshold * lambda { break }  // a cheap 16x16: no split
            var vectors = PartitionVectors(), predictors = PartitionVectors(), cost = lambda * Self.shapeBits[shape.rawValue]
            for (partition, geometry) in shape.partitions.enumerated() {
                let partitionPredictor = motionVectorPredictor(mbX: mbX, mbY: mbY, shape: shape, partition: partition)
                // The starting points, in the order the search tries them: zero, this partition's
                // predictor, the macroblock's, the skip vector, the neighbours', the earlier partitions'.
                var candidates = MotionCandidates()
                candidates.append(.zero)
                candidates.append(partitionPredictor)
                for i in 0..<shared.count { candidates.append(shared[i]) }
                for i in 0..<neighbourVectors.count { candidates.append(neighbourVectors[i]) }
                for i in 0..<vectors.count { candidates.append(vectors[i]) }
                if shape != .whole { candidates.append(bestVectors[0]) }
                let (motion, partitionCost) = searchMotion(mbX: mbX, mbY: mbY, partition: geometry, size: shape.blockSize, predictor: partitionPredictor,
                                                           candidates: candidates)
                setMotion(motion, mbX: mbX, mbY: mbY, x: geometry.0, y: geometry.1, width: geometry.2, height: geometry.3)
                vectors.append(motion)
                predictors.append(partitionPredictor)
                cost += partitionCost
            }
            if cost < bestCost { bestCost = cost; bestShape = shape; bestVectors = vectors; bestPredictors = predictors }
        }
        // The final decision by rate-distortion cost J = SSD + λ·bits (§ none: an encoder choice), the
        // bits counted by the very writers that would write them: P_Skip (one bit of mb_skip_run), the
        // searched partitions with their residual and without it, and intra when its SATD is within
        // reach of the inter one.
        let rdLambda = Self.distortionLambdas[qp]
        let skipCost = Self.rateDistortionCost(distortion: predictionError(skipCandidate, mbX: mbX, mbY: mbY), bits: 1, lambda: rdLambda)
        var choice = PredictedMacroblockChoice.skip, choiceCost = skipCost
        save(macroblock: index, into: &scratch.snapshot)
        // (Intra is tried only when its best Intra_16x16 SATD + 3λ is below the inter SATD cost: the
        // trial codes the whole macroblock, Intra_4x4 included where the preset tries it.)
        if tools.intraInPredicted != .never, intra16x16Cost(mbX: mbX, mbY: mbY) + 3 * lambda < bestCost {
            let intraCost = intraTrialCost(mbX: mbX, mbY: mbY, address: index, lambda: rdLambda)
            if intraCost < choiceCost { choice = .intra; choiceCost = intraCost }
        }
        for (partition, geometry) in bestShape.partitions.enumerated() {
            setMotion(bestVectors[partition], mbX: mbX, mbY: mbY, x: geometry.0, y: geometry.1, width: geometry.2, height: geometry.3)
        }
        let searchedSkip = bestShape == .whole && bestVectors[0] == skip
        let candidate: InterMacroblock
        if searchedSkip {
            completeChromaResidual(skipCandidate, mbX: mbX, mbY: mbY)
            candidate = skipCandidate
        } else {
            candidate = predictedMacroblock(mbX: mbX, mbY: mbY, shape: bestShape, motionVectors: bestVectors, into: scratch.inter)
        }
        var headerBits = SyntaxBitCounter()
        writeInterHeader(shape: bestShape, vectors: bestVectors, predictors: bestPredictors, pattern: 0, to: &headerBits)
        let bare = Self.rateDistortionCost(distortion: predictionError(candidate, mbX: mbX, mbY: mbY), bits: headerBits.bitCount, lambda: rdLambda)
        if bare < choiceCost { choice = .interWithoutResidual; choiceCost = bare }
        if candidate.codedBlockPattern != 0 {
            // Tried last, recorded: when it wins, its state, reconstruction and syntax elements are the
            // macroblock's as they are (one pass per decision).
            scratch.interRecorder.reset()
            writeInterHeader(shape: bestShape, vectors: bestVectors, predictors: bestPredictors, pattern: candidate.codedBlockPattern,
                             to: &scratch.interRecorder)
            writeInterResidual(candidate, mbX: mbX, mbY: mbY, to: &scratch.interRecorder)
            reconstructInter(candidate, mbX: mbX, mbY: mbY)
            let coded = Self.rateDistortionCost(distortion: reconstructionError(mbX: mbX, mbY: mbY), bits: scratch.interRecorder.bitCount,
                                                lambda: rdLambda)
            if coded < choiceCost {
                macroblockIsIntra[index] = false
                countInter(bestShape)
                skipRun = 0
                scratch.interRecorder.replay(into: &writer)
                return
            }
        }
        restore(macroblock: index, from: scratch.snapshot)

        switch choice {
        case .intra:
            adoptIntraTrial(mbX: mbX, mbY: mbY, address: index, to: &writer)
            return
        case .skip:
            // P_Skip (§7.4.4): the prediction of the skip vector alone.
            macroblockIsIntra[index] = false
            setMotion(skip, mbX: mbX, mbY: mbY, x: 0, y: 0, width: 16, height: 16)
            // (Its prediction kept from before the search: nothing predicted again.)
            skipCandidate.codedBlockPatternLuma = 0
            skipCandidate.codedBlockPatternChroma = 0
            reconstructInter(skipCandidate, mbX: mbX, mbY: mbY)
            skipRun += 1
            macroblockTypes.skipped += 1
            return
        case .interWithoutResidual:
            break
        }
        // The searched partitions without residual: mb_skip_run, macroblock_layer( ) of P_L0_16x16 /
        // P_L0_L0_16x8 / P_L0_L0_8x16 / P_8x8 with coded_block_pattern 0, the prediction as reconstruction.
        for (partition, geometry) in bestShape.partitions.enumerated() {
            setMotion(bestVectors[partition], mbX: mbX, mbY: mbY, x: geometry.0, y: geometry.1, width: geometry.2, height: geometry.3)
        }
        candidate.codedBlockPatternLuma = 0
        candidate.codedBlockPatternChroma = 0
        macroblockIsIntra[index] = false
        countInter(bestShape)
        writeInterHeader(shape: bestShape, vectors: bestVectors, predictors: bestPredictors, pattern: 0, to: &writer)
        skipRun = 0
        writeInterResidual(candidate, mbX: mbX, mbY: mbY, to: &writer)
        reconstructInter(candidate, mbX: mbX, mbY: mbY)
    }

    /// Counts a P_L0 macroblock of `shape` in ``macroblockTypes``.
    mutating func countInter(_ shape: PartitionShape) {
        switch shape {
        case .whole: macroblockTypes.predicted16x16 += 1
        case .horizontalHalves: macroblockTypes.predicted16x8 += 1
        case .verticalHalves: macroblockTypes.predicted8x16 += 1
        case .quarters: macroblockTypes.predicted8x8 += 1
        }
    }

    /// The least SATD of the usable Intra_16x16 predictions of a macroblock (§8.3.3).
    func intra16x16Cost(mbX: Int, mbY: Int) -> Int {
        let neighbours = intraNeighbours(mbX: mbX, mbY: mbY)
        let stride = source.width, x0 = mbX * 16, y0 = mbY * 16
        var best = Int.max
        reconstruction.luma.withUnsafeBufferPointer { recon in
            source.luma.withUnsafeBufferPointer { src in
                let view = PlaneView(base: recon.baseAddress!, width: reconstruction.width, height: reconstruction.height, stride: stride)
                let out = scratch.intraCandidate
                for mode in Self.allIntra16x16Modes where mode.isUsable(with: neighbours) {
                    Intra16x16Prediction.fast(mode, plane: view, x: x0, y: y0, neighbours: neighbours, into: out, stride: 16)
                    best = min(best, SATD.fast(.w16h16, src.baseAddress! + y0 * stride + x0, stride: stride, UnsafePointer(out), stride: 16))
                }
            }
        }
        return best
    }

    /// The motion-compensated prediction of a macroblock (§8.4.2.2: luma quarter-sample from the
    /// reference's prepared planes, chroma eighth-sample with mvCL0 = mvL0, §8.4.1.4) and its residual
    /// through the 4x4 transform, quantised with the inter dead zone (rounding 1/6), chroma DC through
    /// the 2x2 transform; written into `result`, which it returns.
    /// - Parameters:
    ///   - result: the buffer written (``MacroblockScratch/inter`` or ``MacroblockScratch/skipInter``).
    ///   - chromaResidualUnlessLumaCoded: when true and CodedBlockPatternLuma comes out non-zero, the chroma
    ///     residual is left for ``completeChromaResidual(_:mbX:mbY:)`` (the chroma prediction is made all the same):
    ///     the P_Skip test needs no more.
    func predictedMacroblock(mbX: Int, mbY: Int, shape: PartitionShape, motionVectors vectors: PartitionVectors, into result: InterMacroblock,
                             chromaResidualUnlessLumaCoded: Bool = false) -> InterMacroblock {
        result.shape = shape
        result.codedBlockPatternLuma = 0
        result.codedBlockPatternChroma = 0
        result.nonZeroBlocks = 0
        result.chromaResidualPending = false
        // (The reference read through `self`, not bound: binding it would copy the picture, five retains.)
        guard reference != nil, let planes = referencePlanes else { return result }
        let stride = source.width, chromaStride = source.chromaWidth
        let x0 = mbX * 16, y0 = mbY * 16, cx0 = mbX * 8, cy0 = mbY * 8
        for (partition, (px, py, _, _)) in shape.partitions.enumerated() {
            let mv = vectors[partition]
            planes.predict(quarterX: (x0 + px) * 4 + Int(mv.x), quarterY: (y0 + py) * 4 + Int(mv.y), size: shape.blockSize,
                           into: result.luma + py * 16 + px, stride: 16)
        }
        // Luma: 16 blocks, all 16 coefficients each.
        // A block whose SAD is within the zero-block limit quantises to nothing: its transform is left out.
        var nonZeroBlocks = 0
        let zeroLimit = Quantisation.zeroBlockLimit(qP: qp, kind: .inter)
        source.luma.withUnsafeBufferPointer { src in
            for blk in 0..<16 {
                let (bx, by) = Self.blockOrigin[blk]
                let block = result.levels + 16 * blk
                let original = src.baseAddress! + (y0 + by) * stride + x0 + bx, predicted = result.luma + by * 16 + bx
                if SAD.fast(.w4h4, original, stride: stride, UnsafePointer(predicted), stride: 16) <= zeroLimit {
                    block.update(repeating: 0, count: 16)
                    continue
                }
                Transform4x4.forwardDifference(original, stride: stride, predicted, stride: 16, into: block)
                if Quantisation.quantise(block, qP: qp, kind: .inter, skippingDC: false) > 0 {
                    nonZeroBlocks |= 1 << blk
                    Self.clamp(block, 16)
                }
            }
        }
        decimate(result, nonZeroBlocks: nonZeroBlocks)
        for (partition, (px, py, pw, ph)) in shape.partitions.enumerated() {
            let mv = vectors[partition]
            for component in 0..<2 {
                (component == 0 ? reference.unsafelyUnwrapped.cb : reference.unsafelyUnwrapped.cr).withUnsafeBufferPointer { ref in
                    let plane = PlaneView(base: ref.baseAddress!, width: chromaStride, height: source.chromaHeight, stride: chromaStride)
                    ChromaInterpolation.fast(plane, eighthX: (cx0 + px / 2) * 8 + Int(mv.x), eighthY: (cy0 + py / 2) * 8 + Int(mv.y),
                                             width: pw / 2, height: ph / 2, into: result.chroma + 64 * component + (py / 2) * 8 + px / 2, stride: 8)
                }
            }
        }
        if chromaResidualUnlessLumaCoded && result.codedBlockPatternLuma != 0 {
            result.chromaResidualPending = true
            return result
        }
        chromaResidual(result, mbX: mbX, mbY: mbY)
        return result
    }

    /// Computes the chroma residual that ``predictedMacroblock(mbX:mbY:shape:motionVectors:into:chromaResidualUnlessLumaCoded:)``
    /// left pending, if it did (the same levels it would have computed).
    func completeChromaResidual(_ macroblock: InterMacroblock, mbX: Int, mbY: Int) {
        guard macroblock.chromaResidualPending else { return }
        macroblock.chromaResidualPending = false
        chromaResidual(macroblock, mbX: mbX, mbY: mbY)
    }

    /// The chroma residual of an inter macroblock against its chroma prediction: the AC of the four blocks
    /// of each plane through the 4x4 transform and the inter quantisation, the DC through the 2x2 transform
    /// (§8.5.11.1 inverted); sets CodedBlockPatternChroma.
    func chromaResidual(_ result: InterMacroblock, mbX: Int, mbY: Int) {
        let chromaStride = source.chromaWidth
        let cx0 = mbX * 8, cy0 = mbY * 8
        // Chroma: AC of the four blocks, the DC through the 2x2 transform.
        // (A block within the zero-block limit has no AC level: only its DC, the plain sum of its residual, is needed.)
        var acNonZero = 0, dcNonZero = 0
        let chromaZeroLimit = Quantisation.zeroBlockLimit(qP: chromaQP, kind: .inter)
        for component in 0..<2 {
            let prediction = result.chroma + 64 * component, levels = result.chromaLevels + 64 * component, dc = result.chromaDC + 4 * component
            (component == 0 ? source.cb : source.cr).withUnsafeBufferPointer { s in
                for blk in 0..<4 {
                    let bx = (blk % 2) * 4, by = (blk / 2) * 4
                    let block = levels + 16 * blk
                    let original = s.baseAddress! + (cy0 + by) * chromaStride + cx0 + bx, predicted = prediction + by * 8 + bx
                    if SAD.fast(.w4h4, original, stride: chromaStride, UnsafePointer(predicted), stride: 8) <= chromaZeroLimit {
                        block.update(repeating: 0, count: 16)
                        var sum: Int32 = 0
                        for y in 0..<4 {
                            for x in 0..<4 { sum &+= Int32(original[y &* chromaStride &+ x]) &- Int32(predicted[y &* 8 &+ x]) }
                        }
                        dc[blk] = sum
                        continue
                    }
                    Transform4x4.forwardDifference(original, stride: chromaStride, predicted, stride: 8, into: block)
                    dc[blk] = block[0]
                    acNonZero += Quantisation.quantise(block, qP: chromaQP, kind: .inter, skippingDC: true)
                    Self.clamp(block, 16)
                }
            }
            DCTransforms.forwardChromaDC(dc)
            dcNonZero += Quantisation.quantiseDC(dc, count: 4, qP: chromaQP, kind: .inter)
            Self.clamp(dc, 4)
        }
        result.codedBlockPatternChroma = acNonZero > 0 ? 2 : (dcNonZero > 0 ? 1 : 0)
        if result.codedBlockPatternChroma < 2 { result.chromaLevels.update(repeating: 0, count: 128) }
        if result.codedBlockPatternChroma == 0 { result.chromaDC.update(repeating: 0, count: 8) }
    }

    /// Drops luma residual that costs more bits than it buys (an encoder choice, after x264's
    /// decimation): an 8x8 block whose levels are all ±1 and scattered scores below 4 by the runs before
    /// them, the whole macroblock's luma below 6; then sets CodedBlockPatternLuma.
    /// - Parameters:
    ///   - macroblock: the macroblock whose luma levels are decimated.
    ///   - nonZeroBlocks: bit `blk` set when 4x4 block `blk` (luma4x4BlkIdx) has a non-zero level; the
    ///     others are all zero and score 0 without being scanned.
    func decimate(_ macroblock: InterMacroblock, nonZeroBlocks: Int) {
        macroblock.nonZeroBlocks = 0
        guard nonZeroBlocks != 0 else {
            macroblock.codedBlockPatternLuma = 0
            return
        }
        let scanned = scratch.scanned
        var blockScores = InlineArray<16, Int>(repeating: 0)
        for blk in 0..<16 where nonZeroBlocks & (1 << blk) != 0 {
            Zigzag.scan(macroblock.levels + 16 * blk, into: scanned)
            var score = 0, index = 15
            while index >= 0 && scanned[index] == 0 { index -= 1 }
            while index >= 0 {
                if abs(scanned[index]) > 1 { score = 99; break }
                index -= 1
                var run = 0
                while index >= 0 && scanned[index] == 0 { index -= 1; run += 1 }
                score += Self.decimationRunScore[run]
            }
            blockScores[blk] = score
        }
        var total = 0
        var keep = InlineArray<4, Bool>(repeating: true)
        for block8x8 in 0..<4 {
            let score = blockScores[4 * block8x8] + blockScores[4 * block8x8 + 1] + blockScores[4 * block8x8 + 2] + blockScores[4 * block8x8 + 3]
            if score < 4 { keep[block8x8] = false } else { total += score }
        }
        if total < 6 { for i in 0..<4 { keep[i] = false } }
        macroblock.codedBlockPatternLuma = 0
        for blk in 0..<16 where nonZeroBlocks & (1 << blk) != 0 {
            if !keep[blk / 4] {
                (macroblock.levels + 16 * blk).update(repeating: 0, count: 16)
            } else {
                macroblock.codedBlockPatternLuma |= 1 << (blk / 4)
                macroblock.nonZeroBlocks |= 1 << blk
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
                    for y in 0..<4 { (out + y * stride).update(from: macroblock.luma + (by + y) * 16 + bx, count: 4) }
                    guard macroblock.codedBlockPatternLuma & (1 << (blk / 4)) != 0, macroblock.nonZeroBlocks & (1 << blk) != 0 else { continue }
                    b.update(from: macroblock.levels + 16 * blk, count: 16)
                    Quantisation.dequantise(b, qP: qp, keepingDC: false)
                    Transform4x4.inverse(b)
                    Transform4x4.add(UnsafePointer(b), to: out, stride: stride)
                }
            }
        }
        for component in 0..<2 {
            let dc = macroblock.chromaDC + 4 * component
            DCTransforms.inverseChromaDC(dc, qP: chromaQP)
            let cqp = chromaQP
            // A local function used without escaping: no closure context on the heap.
            func rebuild(_ recon: UnsafeMutableBufferPointer<UInt8>) {
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { scratch in
                    let b = scratch.baseAddress!
                    for blk in 0..<4 {
                        let bx = (blk % 2) * 4, by = (blk / 2) * 4
                        let out = recon.baseAddress! + (cy0 + by) * chromaStride + cx0 + bx
                        for y in 0..<4 { (out + y * chromaStride).update(from: macroblock.chroma + 64 * component + (by + y) * 8 + bx, count: 4) }
                        guard macroblock.codedBlockPatternChroma > 0 else { continue }
                        b.update(from: macroblock.chromaLevels + 64 * component + 16 * blk, count: 16)
                        Quantisation.dequantise(b, qP: cqp, keepingDC: true)
                        b[0] = dc[blk]
                        Transform4x4.inverse(b)
                        Transform4x4.add(UnsafePointer(b), to: out, stride: chromaStride)
                    }
                }
            }
            if component == 0 { reconstruction.cb.withUnsafeMutableBufferPointer { rebuild($0) } } else { reconstruction.cr.withUnsafeMutableBufferPointer { rebuild($0) } }
        }
    }
}
