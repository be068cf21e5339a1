import NativeH264Kernels

extension NativeH264Decoder {
    /// An intra macroblock of an I or P slice (I_NxN or I_16x16, `mb_type` as in Table 7-11): its
    /// prediction modes (§8.3.1.1 Intra4x4PredMode derivation), residual and reconstruction (§8.3).
    func decodeIntraMacroblock(_ mb: Int, type: Int, _ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        let base = mb * 16
        let isNxN = type == 0
        let transform8x8 = isNxN && context.pps.transform8x8ModeFlag && reader.bit()
        if isNxN {
            // Predicted modes need the modes of the blocks left and above (§8.3.1.1, §8.3.2.1 for 8x8 blocks,
            // whose mode fills their four 4x4 entries).
            let leftMb = mbX > 0 ? mb - 1 : -1, topMb = mbY > 0 ? mb - widthInMbs : -1
            let leftAvailable = leftMb >= 0 && isAvailable(leftMb, &context)
            let topAvailable = topMb >= 0 && isAvailable(topMb, &context)
            for index in stride(from: 0, to: 16, by: transform8x8 ? 4 : 1) {
                let raster = Self.rasterOfBlock[index]
                let predicted = interlace.mbaff
                    ? predictedIntraModeMBAFF(mb, raster: raster, constrainedIntra: context.constrainedIntra)
                    : predictedIntra4x4Mode(mb, raster: raster, leftMb: leftAvailable ? leftMb : -1, topMb: topAvailable ? topMb : -1, &context)
                var mode = predicted
                if !reader.bit() {
                    let remaining = Int(reader.bits(3))
                    mode = remaining < predicted ? remaining : remaining + 1
                }
                if transform8x8 { setIntra8x8Mode(mb, block8x8: index >> 2, mode) } else { intraModes[base + raster] = Int8(mode) }
            }
        } else {
            for i in 0..<16 { intraModes[base + i] = 2 }
        }
        var chromaMode = 0
        if context.hasChroma {
            chromaMode = Int(try reader.ue())
            guard chromaMode <= 3 else { throw SliceDataError(field: "intra_chroma_pred_mode") }
        }
        var cbp: Int
        if isNxN {
            cbp = try readCodedBlockPattern(&reader, intra: true, &context)
        } else {
            cbp = ((type - 1) / 4 % 3) << 4 | (type >= 13 ? 15 : 0)
        }
        if cbp != 0 || !isNxN { try readQPDelta(&reader, &context) }
        record(mb, kind: isNxN ? Kind.intraNxN : Kind.intra16x16, qp: context.qp, &context)
        for i in 0..<16 {
            refIndices[base + i] = -1
            refIdentities[base + i] = -1
            motionX[base + i] = 0
            motionY[base + i] = 0
        }
        try readResidual(mb, cbp: cbp, intra16x16: !isNxN, transform8x8: transform8x8, &reader, &context)
        try reconstructIntraMacroblock(mb, type: type, chromaMode: chromaMode, cbp: cbp, &context)
    }

    /// Intra4x4PredMode's prediction (§8.3.1.1): the smaller of the modes of the blocks left and above
    /// (2, DC, for a neighbour that is not I_NxN), or 2 when either is not available for intra prediction.
    /// `leftMb` and `topMb` are the neighbouring macroblocks when available in the slice, −1 otherwise.
    @inline(__always)
    func predictedIntra4x4Mode(_ mb: Int, raster: Int, leftMb: Int, topMb: Int, _ context: inout SliceContext) -> Int {
        let base = mb * 16
        let x = raster & 3, y = raster >> 2
        var modeA = -1, modeB = -1
        if x > 0 { modeA = Int(intraModes[base + raster - 1]) }
        else if leftMb >= 0 && !(context.constrainedIntra && mbKind[leftMb] == Kind.inter) {
            modeA = mbKind[leftMb] == Kind.intraNxN ? Int(intraModes[leftMb * 16 + y * 4 + 3]) : 2
        }
        if y > 0 { modeB = Int(intraModes[base + raster - 4]) }
        else if topMb >= 0 && !(context.constrainedIntra && mbKind[topMb] == Kind.inter) {
            modeB = mbKind[topMb] == Kind.intraNxN ? Int(intraModes[topMb * 16 + 12 + x]) : 2
        }
        return modeA < 0 || modeB < 0 ? 2 : min(modeA, modeB)
    }

    /// The reconstruction of an intra macroblock (§8.3.1.2, §8.3.3, §8.3.4, §8.5) once its syntax is read
    /// by either entropy decoder: prediction modes in ``intraModes``, levels in ``coefficients``, TotalCoeff
    /// (or coded flags) in ``lumaTotals``/``chromaTotals``; `type` is mb_type of Table 7-11 (0: I_NxN).
    func reconstructIntraMacroblock(_ mb: Int, type: Int, chromaMode: Int, cbp: Int, _ context: inout SliceContext) throws(SliceDataError) {
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        let base = mb * 16
        let picture = context.picture
        let isNxN = type == 0
        let left: Bool, top: Bool, topLeft: Bool, topRight: Bool
        // The lower half of the left column (luma rows 8–15, chroma rows 4–7): in an MBAFF frame with constrained intra
        // prediction it may differ from the upper half (``MBAFFMacroblockNeighbours/leftLower``); `left` is the upper half.
        var leftLower: Bool
        if interlace.mbaff {
            (left, top, topLeft, topRight) = (mbaffNeighbours.left, mbaffNeighbours.top, mbaffNeighbours.topLeft, mbaffNeighbours.topRight)
            leftLower = mbaffNeighbours.leftLower
        } else {
            let leftMb = mbX > 0 ? mb - 1 : -1, topMb = mbY > 0 ? mb - widthInMbs : -1
            left = leftMb >= 0 && isAvailableForIntra(leftMb, &context)
            top = topMb >= 0 && isAvailableForIntra(topMb, &context)
            topLeft = leftMb >= 0 && topMb >= 0 && isAvailableForIntra(topMb - 1, &context)
            topRight = topMb >= 0 && mbX < widthInMbs - 1 && isAvailableForIntra(topMb + 1, &context)
            leftLower = left
        }
        let qp = context.qp
        let samples = macroblockSamples(mb, picture)
        let lumaPlane = samples.luma, origin = samples.lumaOrigin, stride = samples.lumaStride
        if isNxN && mbTransform8x8[mb] & 16 != 0 {
            try reconstructIntra8x8Luma(mb, left: left, leftLower: leftLower, top: top, topLeft: topLeft, topRight: topRight, samples: samples, &context)
        } else if isNxN {
            for index in 0..<16 {
                let raster = Self.rasterOfBlock[index]
                let x = raster & 3, y = raster >> 2
                var neighbours: IntraNeighbours = []
                // The left samples of block row y, and the sample above left of a block at x 0 (luma row 4·y − 1).
                let blockLeft = y < 2 ? left : leftLower, cornerLeft = y < 3 ? left : leftLower
                if x > 0 || blockLeft { neighbours.insert(.left) }
                if y > 0 || top { neighbours.insert(.top) }
                if (x > 0 && y > 0) || (x == 0 && y > 0 && cornerLeft) || (y == 0 && x > 0 && top) || (x == 0 && y == 0 && topLeft) {
                    neighbours.insert(.topLeft)
                }
                if y == 0 {
                    if (x < 3 && top) || (x == 3 && topRight) { neighbours.insert(.topRight) }
                } else if x < 3 && Self.blockOfRaster[raster - 4 + 1] < index {
                    neighbours.insert(.topRight)
                }
                guard let mode = Intra4x4Mode(rawValue: Int(intraModes[base + raster])), mode.isUsable(with: neighbours) else {
                    throw SliceDataError(field: "prev_intra4x4_pred_mode (mode needs unavailable neighbours)")
                }
                let destination = origin + y * 4 * stride + x * 4
                Intra4x4Prediction.fast(mode, plane: lumaPlane, x: samples.lumaX + x * 4, y: samples.lumaY + y * 4, neighbours: neighbours,
                                        into: destination, stride: stride)
                if lumaTotals[base + raster] != 0 {
                    addResidual(coefficients + raster * 16, dc: nil, qP: qp, list: 0, to: destination, stride: stride)
                }
            }
        } else {
            var neighbours: IntraNeighbours = []
            if left && leftLower { neighbours.insert(.left) }
            if top { neighbours.insert(.top) }
            if topLeft { neighbours.insert(.topLeft) }
            guard let mode = Intra16x16Mode(rawValue: (type - 1) % 4), mode.isUsable(with: neighbours) else {
                throw SliceDataError(field: "mb_type (Intra16x16 mode needs unavailable neighbours)")
            }
            Intra16x16Prediction.fast(mode, plane: lumaPlane, x: samples.lumaX, y: samples.lumaY, neighbours: neighbours, into: origin, stride: stride)
            let dc = coefficients + Self.lumaDCOffset
            let raster = coefficients + Self.transformOffset
            if interlace.fieldScan { InterlacedScans.unscan4x4(dc, into: raster) } else { Zigzag.unscan(dc, into: raster) }
            if scaling.isFlat {
                DCTransforms.inverseLumaDC(raster, qP: qp)
            } else {
                DCTransforms.inverseLumaDC(raster, qP: qp, dcScale: scaling.levelScale4x4[(qp % 6) * 16])
            }
            dc.update(from: raster, count: 16)
            for block in 0..<16 {
                let x = block & 3, y = block >> 2
                if dc[block] == 0 && lumaTotals[base + block] == 0 { continue }
                addResidual(coefficients + block * 16, dc: dc[block], qP: qp, list: 0, to: origin + y * 4 * stride + x * 4, stride: stride)
            }
        }
        if context.hasChroma {
            if left != leftLower && chromaMode == 0 {
                // DC with half of the left column available (MBAFF, constrained intra): per 4x4 block (§8.3.4.1–3).
                predictChromaDCHalfLeft(samples, upper: left, lower: leftLower, top: top)
                addChromaResidual(mb, cbp: cbp, picture: picture)
                return
            }
            var neighbours: IntraNeighbours = []
            if left && leftLower { neighbours.insert(.left) }
            if top { neighbours.insert(.top) }
            if topLeft { neighbours.insert(.topLeft) }
            guard let mode = IntraChromaMode(rawValue: chromaMode), mode.isUsable(with: neighbours) else {
                throw SliceDataError(field: "intra_chroma_pred_mode (mode needs unavailable neighbours)")
            }
            for component in 0..<2 {
                IntraChromaPrediction.fast(mode, plane: component == 0 ? samples.cb : samples.cr, x: samples.chromaX, y: samples.chromaY,
                                           neighbours: neighbours, into: component == 0 ? samples.cbOrigin : samples.crOrigin,
                                           stride: samples.chromaStride)
            }
            addChromaResidual(mb, cbp: cbp, picture: picture)
        }
    }
}
