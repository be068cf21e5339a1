import Bitstream
import MediaCore
import NativeH264Kernels

/// Codes the macroblocks of the I or P slices of a picture (I_16x16 or I_NxN + intra chroma,
/// and in P slices P_L0_16x16 and P_Skip, §7.3.4, §7.3.5) and keeps the reconstruction exactly as the
/// decoder builds it (§8.3.3, §8.3.4, §8.4, §8.5). Slices are coded one after the other
/// (``sliceStart``), each seeing only its own macroblocks as neighbours (§6.4.8).
struct SliceCoder {
    let source: EncoderPicture
    var reconstruction: EncoderPicture
    /// QPY of the macroblock being coded (the slice QP plus its adaptive offset, §7.4.5).
    var qp: Int
    /// QPC of the macroblock being coded.
    var chromaQP: Int
    /// SliceQPY (§7.4.3), the QP every macroblock's offset applies to.
    let sliceQP: Int
    /// Per macroblock (raster): the QPY offset from the slice QP that rate control asks for, empty for none.
    let quantisationOffsets: [Int8]
    /// QPY,PRED (§7.4.5): the QPY of the previous macroblock of the slice in decoding order.
    var predictedQP: Int
    /// Per macroblock (raster): its QPY as the decoder derives it (a skipped macroblock or one without
    /// residual keeps QPY,PRED), for the deblocking thresholds (§8.7.2.2).
    var macroblockQPs: [UInt8]
    let widthInMbs: Int, heightInMbs: Int
    /// TotalCoeff of each 4x4 luma block (AC of Intra16x16), raster over the picture's 4x4 grid (§9.2.1).
    var lumaTotals: [UInt8]
    /// TotalCoeff of each 4x4 chroma AC block, Cb then Cr, raster over the picture's chroma 4x4 grid.
    var chromaTotals: [[UInt8]]
    /// Intra4x4PredMode of each 4x4 luma block, 2 (DC) for Intra_16x16 macroblocks (§8.3.1.1).
    var intra4x4Modes: [UInt8]
    /// What was chosen so far.
    var macroblockTypes = NativeH264Encoder.MacroblockTypeCounts()
    /// The reference picture of a P slice (the previous deblocked reconstruction), nil for an I slice.
    let reference: EncoderPicture?
    /// Per macroblock: coded in an intra mode (refIdxL0 −1 for motion vector prediction, §8.4.1.3.2).
    var macroblockIsIntra: [Bool]
    /// Per 4x4 luma block (raster over the picture): mvL0 of its partition, P_Skip included, in quarter samples.
    var motionVectors: [SIMD2<Int32>]
    /// Skipped macroblocks not yet counted by an mb_skip_run (§7.3.4).
    var skipRun = 0
    /// first_mb_in_slice of the slice being coded (§7.4.3): macroblocks before it belong to other
    /// slices and are not available to it (§6.4.8).
    var sliceStart = 0
    /// The reference's luma prepared for motion search and compensation (padded, half-sample planes).
    let referencePlanes: LumaReferencePlanes?
    /// Every macroblock's working memory, allocated once per coder; a copy of the coder that codes on
    /// another thread gets one of its own (``NativeH264Encoder/encodeInParallel(_:workers:coder:header:)``).
    var scratch = MacroblockScratch()
    /// The tools of the encoder's preset (search, partitions, decisions).
    let tools: EncoderTools

    init(source: EncoderPicture, quantisationParameter: Int, reference: EncoderPicture? = nil, quantisationOffsets: [Int8] = [],
         tools: EncoderTools = EncoderTools(.fast)) {
        self.tools = tools
        self.source = source
        self.reference = reference
        referencePlanes = reference.map { $0.referencePlanes ?? $0.makeReferencePlanes() }
        reconstruction = EncoderPicture(widthInMacroblocks: source.width / 16, heightInMacroblocks: source.height / 16)
        qp = quantisationParameter
        chromaQP = ChromaQuantisation.chromaQP(lumaQP: quantisationParameter)
        sliceQP = quantisationParameter
        predictedQP = quantisationParameter
        widthInMbs = source.width / 16
        heightInMbs = source.height / 16
        self.quantisationOffsets = quantisationOffsets.count == widthInMbs * heightInMbs ? quantisationOffsets : []
        macroblockQPs = [UInt8](repeating: UInt8(quantisationParameter), count: widthInMbs * heightInMbs)
        lumaTotals = [UInt8](repeating: 0, count: widthInMbs * 4 * heightInMbs * 4)
        chromaTotals = [[UInt8]](repeating: [UInt8](repeating: 0, count: widthInMbs * 2 * heightInMbs * 2), count: 2)
        intra4x4Modes = [UInt8](repeating: 2, count: widthInMbs * 4 * heightInMbs * 4)
        macroblockIsIntra = [Bool](repeating: true, count: widthInMbs * heightInMbs)
        motionVectors = [SIMD2<Int32>](repeating: .zero, count: widthInMbs * 4 * heightInMbs * 4)
    }

    /// Whether the slice is a P slice.
    var isPredicted: Bool { reference != nil }

    /// slice_data( ) (§7.3.4) of the slice of macroblocks `addresses` (raster order): in a P slice each
    /// coded macroblock preceded by the mb_skip_run of the skipped ones before it, and a final run when
    /// the slice ends with skipped macroblocks.
    mutating func encodeMacroblocks(_ addresses: Range<Int>, to writer: inout BitWriter) {
        startSlice(at: addresses.lowerBound)
        for address in addresses { encodeMacroblock(at: address, to: &writer) }
        endSlice(to: &writer)
    }

    /// Starts a slice whose first_mb_in_slice is `address`: macroblocks before it are not available
    /// (§6.4.8), and QPY,PRED restarts at SliceQPY (§7.4.5: at the first macroblock of a slice).
    mutating func startSlice(at address: Int) {
        sliceStart = address
        predictedQP = sliceQP
    }

    /// Codes the macroblock at `address` of the current slice, P or I as the slice is, at the QP rate
    /// control asks for, and records the QPY the decoder derives for it (for deblocking, §8.7.2.2).
    mutating func encodeMacroblock(at address: Int, to writer: inout BitWriter) {
        let mbX = address % widthInMbs, mbY = address / widthInMbs
        selectQuantisation(macroblock: address)
        if isPredicted {
            encodePredictedMacroblock(mbX: mbX, mbY: mbY, to: &writer)
        } else {
            encodeMacroblock(mbX: mbX, mbY: mbY, to: &writer)
        }
        macroblockQPs[address] = UInt8(predictedQP)
    }

    /// The end of slice_data( ): the pending mb_skip_run, if any.
    mutating func endSlice(to writer: inout BitWriter) {
        if skipRun > 0 { writer.ue(UInt32(skipRun)); skipRun = 0 }
    }

    /// luma4x4BlkIdx → (x, y) of the block inside the macroblock (6.4.3: inverse 8x8 then 4x4 raster scan).
    static let blockOrigin: [(Int, Int)] = (0..<16).map { idx in
        ((idx / 4 % 2) * 8 + (idx % 4 % 2) * 4, (idx / 4 / 2) * 8 + (idx % 4 / 2) * 4)
    }

    mutating func encodeMacroblock<Sink: SyntaxBitSink>(mbX: Int, mbY: Int, to writer: inout Sink) {
        let neighbours = intraNeighbours(mbX: mbX, mbY: mbY)
        let lumaStride = source.width, chromaStride = source.chromaWidth
        let x0 = mbX * 16, y0 = mbY * 16

        // Luma: choose the Intra16x16 mode of least SATD.
        let prediction = scratch.intraPrediction
        var bestMode = Intra16x16Mode.dc
        var bestCost = Int.max
        let candidate = scratch.intraCandidate
        reconstruction.luma.withUnsafeBufferPointer { recon in
            source.luma.withUnsafeBufferPointer { src in
                let view = PlaneView(base: recon.baseAddress!, width: reconstruction.width, height: reconstruction.height, stride: lumaStride)
                for mode in Self.allIntra16x16Modes where mode.isUsable(with: neighbours) {
                    Intra16x16Prediction.fast(mode, plane: view, x: x0, y: y0, neighbours: neighbours, into: candidate, stride: 16)
                    let cost = SATD.fast(.w16h16, src.baseAddress! + y0 * lumaStride + x0, stride: lumaStride, candidate, stride: 16)
                    if cost < bestCost { bestCost = cost; bestMode = mode; prediction.update(from: candidate, count: 256) }
                }
            }
        }

        // Intra_4x4 tried against it: the trial codes the luma into the reconstruction; Intra_16x16,
        // when it wins, overwrites it (its prediction reads only samples outside the macroblock).
        let lambda = Self.lambda(qp: qp)
        let triesIntra4x4 = isPredicted ? tools.intra4x4InPredicted : tools.intra4x4InKeyFrames
        let intra4x4 = triesIntra4x4 ? trialIntra4x4(mbX: mbX, mbY: mbY) : Intra4x4Macroblock(levels: scratch.intra4x4Levels)
        let useIntra4x4 = triesIntra4x4 && intra4x4.cost + 6 * lambda < bestCost + 2 * lambda
        if !useIntra4x4 {
            let gridStride = widthInMbs * 4
            for y in 0..<4 { for x in 0..<4 { intra4x4Modes[(mbY * 4 + y) * gridStride + mbX * 4 + x] = 2 } }
        }

        // Luma residual: 16 forward transforms, AC quantised, the 16 DCs through the Hadamard.
        let levels = scratch.lumaLevels  // 16 blocks x 16, raster inside each block, by luma4x4BlkIdx
        let dc = scratch.lumaDC  // raster of the 4x4 block grid
        var acNonZero = 0
        source.luma.withUnsafeBufferPointer { src in
            for blk in 0..<16 {
                let (bx, by) = Self.blockOrigin[blk]
                let block = levels + 16 * blk
                for y in 0..<4 {
                    for x in 0..<4 {
                        block[4 * y + x] = Int32(src[(y0 + by + y) * lumaStride + x0 + bx + x]) - Int32(prediction[(by + y) * 16 + bx + x])
                    }
                }
                Transform4x4.forward(block)
                dc[(by / 4) * 4 + bx / 4] = block[0]
                acNonZero += Quantisation.quantise(block, qP: qp, kind: .intra, skippingDC: true)
                Self.clamp(block, 16)
            }
        }
        DCTransforms.forwardLumaDC(dc)
        Quantisation.quantiseDC(dc, count: 16, qP: qp, kind: .intra)
        Self.clamp(dc, 16)
        let codedLuma = acNonZero > 0
        if !codedLuma { levels.update(repeating: 0, count: 256) }

        // Chroma: one mode for both planes, least SATD over Cb + Cr.
        var chromaNeighbours = neighbours
        chromaNeighbours.remove(.topRight)
        let cx0 = mbX * 8, cy0 = mbY * 8
        var chromaMode = IntraChromaMode.dc
        let chromaPrediction = scratch.chromaPrediction  // Cb then Cr, 8x8 each
        var bestChromaCost = Int.max
        for mode in Self.allIntraChromaModes where mode.isUsable(with: chromaNeighbours) {
            var cost = 0
            let predictions = scratch.chromaCandidate
            for plane in 0..<2 {
                let recon = plane == 0 ? reconstruction.cb : reconstruction.cr
                let src = plane == 0 ? source.cb : source.cr
                recon.withUnsafeBufferPointer { r in
                    src.withUnsafeBufferPointer { s in
                        let view = PlaneView(base: r.baseAddress!, width: reconstruction.chromaWidth,
                                             height: reconstruction.chromaHeight, stride: chromaStride)
                        let out = predictions + 64 * plane
                        IntraChromaPrediction.fast(mode, plane: view, x: cx0, y: cy0, neighbours: chromaNeighbours, into: out, stride: 8)
                        cost += SATD.fast(.w8h8, s.baseAddress! + cy0 * chromaStride + cx0, stride: chromaStride, out, stride: 8)
                    }
                }
            }
            if cost < bestChromaCost { bestChromaCost = cost; chromaMode = mode; chromaPrediction.update(from: predictions, count: 128) }
        }

        let chromaLevels = scratch.chromaLevels  // Cb then Cr, 4 blocks x 16 each, chroma4x4BlkIdx order
        let chromaDC = scratch.chromaDC  // Cb then Cr, 4 each
        var chromaACNonZero = 0, chromaDCNonZero = 0
        for plane in 0..<2 {
            let src = plane == 0 ? source.cb : source.cr
            let planeDC = chromaDC + 4 * plane
            src.withUnsafeBufferPointer { s in
                for blk in 0..<4 {
                    let bx = (blk % 2) * 4, by = (blk / 2) * 4
                    let block = chromaLevels + 64 * plane + 16 * blk
                    for y in 0..<4 {
                        for x in 0..<4 {
                            block[4 * y + x] = Int32(s[(cy0 + by + y) * chromaStride + cx0 + bx + x])
                                - Int32(chromaPrediction[64 * plane + (by + y) * 8 + bx + x])
                        }
                    }
                    Transform4x4.forward(block)
                    planeDC[blk] = block[0]
                    chromaACNonZero += Quantisation.quantise(block, qP: chromaQP, kind: .intra, skippingDC: true)
                    Self.clamp(block, 16)
                }
            }
            DCTransforms.forwardChromaDC(planeDC)
            chromaDCNonZero += Quantisation.quantiseDC(planeDC, count: 4, qP: chromaQP, kind: .intra)
            Self.clamp(planeDC, 4)
        }
        let codedBlockPatternChroma = chromaACNonZero > 0 ? 2 : (chromaDCNonZero > 0 ? 1 : 0)
        if codedBlockPatternChroma < 2 { chromaLevels.update(repeating: 0, count: 128) }
        if codedBlockPatternChroma == 0 { chromaDC.update(repeating: 0, count: 8) }

        // macroblock_layer( ) (§7.3.5): mb_type I_16x16_<mode>_<cbpChroma>_<cbpLuma> (Table 7-11),
        // mb_pred( ) with intra_chroma_pred_mode, mb_qp_delta, then the residual.
        if useIntra4x4 { macroblockTypes.intra4x4 += 1 } else { macroblockTypes.intra16x16 += 1 }
        // In a P slice: the pending mb_skip_run, and the intra mb_type after the five P types (Table 7-13).
        let typeOffset: UInt32 = isPredicted ? 5 : 0
        if isPredicted { writer.ue(UInt32(skipRun)); skipRun = 0 }
        macroblockIsIntra[mbY * widthInMbs + mbX] = true
        if useIntra4x4 {
            // I_NxN (mb_type 0): the 16 modes, the chroma mode, coded_block_pattern me(v) (Table 9-4),
            // mb_qp_delta only when something is coded.
            writer.ue(typeOffset)
            Self.writePredictionModes(intra4x4, to: &writer)
            writer.ue(UInt32(chromaMode.rawValue))
            let pattern = intra4x4.codedBlockPatternLuma | codedBlockPatternChroma << 4
            writer.ue(UInt32(Self.intraCodeNumByCodedBlockPattern[pattern]))
            if pattern != 0 { writeQuantisationDelta(to: &writer) }
            writeIntra4x4Residual(mbX: mbX, mbY: mbY, intra4x4, to: &writer)
        } else {
            writer.ue(typeOffset + UInt32(1 + bestMode.rawValue + 4 * codedBlockPatternChroma + (codedLuma ? 12 : 0)))
            writer.ue(UInt32(chromaMode.rawValue))
            writeQuantisationDelta(to: &writer)
            writeLumaResidual(mbX: mbX, mbY: mbY, levels: UnsafePointer(levels), dc: UnsafePointer(dc), coded: codedLuma, to: &writer)
        }
        writeChromaResidual(mbX: mbX, mbY: mbY, levels: UnsafePointer(chromaLevels), dc: UnsafePointer(chromaDC), pattern: codedBlockPatternChroma, to: &writer)

        // Reconstruction, as the decoder does it (§8.5.2, §8.5.11, §8.5.14); the levels are not needed after it.
        DCTransforms.inverseLumaDC(dc, qP: qp)
        let b = scratch.block
        if !useIntra4x4 { reconstruction.luma.withUnsafeMutableBufferPointer { recon in
            for blk in 0..<16 {
                let (bx, by) = Self.blockOrigin[blk]
                b.update(from: levels + 16 * blk, count: 16)
                Quantisation.dequantise(b, qP: qp, keepingDC: true)
                b[0] = dc[(by / 4) * 4 + bx / 4]
                Transform4x4.inverse(b)
                let out = recon.baseAddress! + (y0 + by) * lumaStride + x0 + bx
                for y in 0..<4 { (out + y * lumaStride).update(from: prediction + (by + y) * 16 + bx, count: 4) }
                Transform4x4.add(UnsafePointer(b), to: out, stride: lumaStride)
            }
        } }
        let cqp = chromaQP
        for plane in 0..<2 {
            let dcC = chromaDC + 4 * plane
            DCTransforms.inverseChromaDC(dcC, qP: cqp)
            // A local function used without escaping: no closure context on the heap.
            func rebuild(_ recon: UnsafeMutableBufferPointer<UInt8>) {
                for blk in 0..<4 {
                    let bx = (blk % 2) * 4, by = (blk / 2) * 4
                    b.update(from: chromaLevels + 64 * plane + 16 * blk, count: 16)
                    Quantisation.dequantise(b, qP: cqp, keepingDC: true)
                    b[0] = dcC[blk]
                    Transform4x4.inverse(b)
                    let out = recon.baseAddress! + (cy0 + by) * chromaStride + cx0 + bx
                    for y in 0..<4 { (out + y * chromaStride).update(from: chromaPrediction + 64 * plane + (by + y) * 8 + bx, count: 4) }
                    Transform4x4.add(UnsafePointer(b), to: out, stride: chromaStride)
                }
            }
            if plane == 0 { reconstruction.cb.withUnsafeMutableBufferPointer { rebuild($0) } } else { reconstruction.cr.withUnsafeMutableBufferPointer { rebuild($0) } }
        }
    }

    /// Keeps levels codable with level_prefix ≤ 15 (see ``CAVLCResidualWriter/maximumLevel``).
    static func clamp(_ block: UnsafeMutablePointer<Int32>, _ count: Int) {
        let limit = CAVLCResidualWriter.maximumLevel
        for i in 0..<count { block[i] = min(max(block[i], -limit), limit) }
    }

    /// nC of a luma 4x4 block at picture 4x4 coordinates (§9.2.1): the rounded mean of the available
    /// left and top blocks' TotalCoeff (a block of another slice is not available, §6.4.11.4).
    func lumaNC(blockX: Int, blockY: Int) -> Int {
        let stride = widthInMbs * 4
        let hasLeft = blockX % 4 != 0 || isMacroblockAvailable(mbX: blockX / 4 - 1, mbY: blockY / 4)
        let hasTop = blockY % 4 != 0 || isMacroblockAvailable(mbX: blockX / 4, mbY: blockY / 4 - 1)
        let nA = hasLeft ? Int(lumaTotals[blockY * stride + blockX - 1]) : 0
        let nB = hasTop ? Int(lumaTotals[(blockY - 1) * stride + blockX]) : 0
        return hasLeft && hasTop ? (nA + nB + 1) >> 1 : nA + nB
    }

    /// nC of a chroma AC 4x4 block at the picture's chroma 4x4 coordinates (§9.2.1), as ``lumaNC(blockX:blockY:)``.
    func chromaNC(plane: Int, blockX: Int, blockY: Int) -> Int {
        let stride = widthInMbs * 2
        let hasLeft = blockX % 2 != 0 || isMacroblockAvailable(mbX: blockX / 2 - 1, mbY: blockY / 2)
        let hasTop = blockY % 2 != 0 || isMacroblockAvailable(mbX: blockX / 2, mbY: blockY / 2 - 1)
        let nA = hasLeft ? Int(chromaTotals[plane][blockY * stride + blockX - 1]) : 0
        let nB = hasTop ? Int(chromaTotals[plane][(blockY - 1) * stride + blockX]) : 0
        return hasLeft && hasTop ? (nA + nB + 1) >> 1 : nA + nB
    }

    /// residual_luma( ) of an Intra16x16 macroblock (§7.3.5.3.1): the DC block, then the 16 AC blocks
    /// in luma4x4BlkIdx order when the luma coded block pattern is 15.
    mutating func writeLumaResidual<Sink: SyntaxBitSink>(mbX: Int, mbY: Int, levels: UnsafePointer<Int32>, dc: UnsafePointer<Int32>, coded: Bool, to writer: inout Sink) {
        let scanned = scratch.scanned
        Zigzag.scan(dc, into: scanned)
        let nC = lumaNC(blockX: mbX * 4, blockY: mbY * 4)
        _ = CAVLCResidualWriter.write(scanned, count: 16, nC: nC, to: &writer)
        let stride = widthInMbs * 4
        for blk in 0..<16 {
            let (bx, by) = Self.blockOrigin[blk]
            let gx = mbX * 4 + bx / 4, gy = mbY * 4 + by / 4
            var total = 0
            if coded {
                Zigzag.scan(levels + 16 * blk, into: scanned)
                let nC = lumaNC(blockX: gx, blockY: gy)
                total = CAVLCResidualWriter.write(scanned + 1, count: 15, nC: nC, to: &writer)
            }
            lumaTotals[gy * stride + gx] = UInt8(total)
        }
    }

    /// residual( )'s chroma part for 4:2:0 (§7.3.5.3): both DC blocks when the chroma pattern is 1 or
    /// 2, then the four AC blocks of Cb and of Cr when it is 2. `levels` holds Cb's four blocks of 16
    /// then Cr's, `dc` Cb's four DC levels then Cr's.
    mutating func writeChromaResidual<Sink: SyntaxBitSink>(mbX: Int, mbY: Int, levels: UnsafePointer<Int32>, dc: UnsafePointer<Int32>, pattern: Int, to writer: inout Sink) {
        if pattern > 0 {
            for plane in 0..<2 {
                _ = CAVLCResidualWriter.write(dc + 4 * plane, count: 4, nC: -1, to: &writer)
            }
        }
        let stride = widthInMbs * 2
        let scanned = scratch.scanned
        for plane in 0..<2 {
            for blk in 0..<4 {
                let gx = mbX * 2 + blk % 2, gy = mbY * 2 + blk / 2
                var total = 0
                if pattern == 2 {
                    Zigzag.scan(levels + 64 * plane + 16 * blk, into: scanned)
                    let nC = chromaNC(plane: plane, blockX: gx, blockY: gy)
                    total = CAVLCResidualWriter.write(scanned + 1, count: 15, nC: nC, to: &writer)
                }
                chromaTotals[plane][gy * stride + gx] = UInt8(total)
            }
        }
    }

    /// The reconstruction's visible part as an I420 pixel buffer.
    func croppedReconstruction(width: Int, height: Int) -> PixelBuffer {
        func crop(_ plane: [UInt8], _ stride: Int, _ w: Int, _ h: Int) -> PixelBuffer.Plane {
            var bytes = [UInt8]()
            bytes.reserveCapacity(w * h)
            for y in 0..<h { bytes.append(contentsOf: plane[(y * stride)..<(y * stride + w)]) }
            return PixelBuffer.Plane(bytes: bytes, bytesPerRow: w, rowLength: w, rowCount: h)
        }
        let planes = [crop(reconstruction.luma, reconstruction.width, width, height),
                      crop(reconstruction.cb, reconstruction.chromaWidth, width / 2, height / 2),
                      crop(reconstruction.cr, reconstruction.chromaWidth, width / 2, height / 2)]
        // The planes are built to the exact I420 geometry, so validation cannot fail.
        return (try? PixelBuffer(width: width, height: height, format: .i420, planes: planes))
            ?? PixelBuffer(width: width, height: height, format: .i420)
    }
}
