import NativeH264Kernels

extension NativeH264Decoder {
    /// nC of a luma block (§9.2.1): from the blocks left and above, inside the macroblock or in the
    /// available neighbours (an I_PCM neighbour counts 16, a skipped one 0).
    @inline(__always)
    func lumaNC(_ mb: Int, x: Int, y: Int, _ context: inout SliceContext) -> Int {
        if interlace.mbaff { return lumaNCMBAFF(mb, x: x, y: y) }
        var left = -1, top = -1
        if x > 0 { left = Int(lumaTotals[mb * 16 + y * 4 + x - 1]) }
        else if mb % widthInMbs > 0 && isAvailable(mb - 1, &context) { left = Int(lumaTotals[(mb - 1) * 16 + y * 4 + 3]) }
        if y > 0 { top = Int(lumaTotals[mb * 16 + (y - 1) * 4 + x]) }
        else if mb >= widthInMbs && isAvailable(mb - widthInMbs, &context) { top = Int(lumaTotals[(mb - widthInMbs) * 16 + 12 + x]) }
        if left >= 0 && top >= 0 { return (left + top + 1) >> 1 }
        return left >= 0 ? left : (top >= 0 ? top : 0)
    }

    /// nC of a 4:2:0 chroma AC block (§9.2.1), `component` 0 (Cb) or 1 (Cr), (x, y) in 0…1.
    @inline(__always)
    func chromaNC(_ mb: Int, component: Int, x: Int, y: Int, _ context: inout SliceContext) -> Int {
        if interlace.mbaff { return chromaNCMBAFF(mb, component: component, x: x, y: y) }
        let c = component * 4
        var left = -1, top = -1
        if x > 0 { left = Int(chromaTotals[mb * 8 + c + y * 2]) }
        else if mb % widthInMbs > 0 && isAvailable(mb - 1, &context) { left = Int(chromaTotals[(mb - 1) * 8 + c + y * 2 + 1]) }
        if y > 0 { top = Int(chromaTotals[mb * 8 + c + x]) }
        else if mb >= widthInMbs && isAvailable(mb - widthInMbs, &context) { top = Int(chromaTotals[(mb - widthInMbs) * 8 + c + 2 + x]) }
        if left >= 0 && top >= 0 { return (left + top + 1) >> 1 }
        return left >= 0 ? left : (top >= 0 ? top : 0)
    }

    /// `residual( )` for CAVLC and 4:2:0 or 4:0:0 (§7.3.5.3): luma levels into ``coefficients`` (scan
    /// order per block, blocks by raster position; with `transform8x8`, 8x8 blocks of 64), Intra16x16 DC,
    /// chroma DC and AC; TotalCoeff of every block into the picture's tables.
    func readResidual(_ mb: Int, cbp: Int, intra16x16: Bool, transform8x8: Bool = false, _ reader: inout SliceBitReader,
                      _ context: inout SliceContext) throws(SliceDataError) {
        let levels = coefficients
        let base = mb * 16
        if intra16x16 {
            let dc = levels + Self.lumaDCOffset
            dc.update(repeating: 0, count: 16)
            _ = try CAVLCResidualReader.read(&reader, nC: lumaNC(mb, x: 0, y: 0, &context), maxNumCoeff: 16, into: dc)
        }
        if transform8x8 { try readLuma8x8ResidualCAVLC(mb, cbp: cbp, &reader, &context) }
        for index in 0..<16 where !transform8x8 {
            let raster = Self.rasterOfBlock[index]
            let x = raster & 3, y = raster >> 2
            let block = levels + raster * 16
            block.update(repeating: 0, count: 16)
            guard cbp & (1 << (index >> 2)) != 0 else {
                lumaTotals[base + raster] = 0
                continue
            }
            let nC = lumaNC(mb, x: x, y: y, &context)
            let total = intra16x16
                ? try CAVLCResidualReader.read(&reader, nC: nC, maxNumCoeff: 15, into: block + 1)
                : try CAVLCResidualReader.read(&reader, nC: nC, maxNumCoeff: 16, into: block)
            lumaTotals[base + raster] = UInt8(total)
        }
        guard context.hasChroma else { return }
        let chromaDC = levels + Self.chromaDCOffset
        chromaDC.update(repeating: 0, count: 8)
        let chromaAC = levels + Self.chromaACOffset
        chromaAC.update(repeating: 0, count: 128)
        let chroma = cbp >> 4
        if chroma != 0 {
            for component in 0..<2 {
                _ = try CAVLCResidualReader.read(&reader, nC: -1, maxNumCoeff: 4, into: chromaDC + component * 4)
            }
        }
        for component in 0..<2 {
            for block in 0..<4 {
                var total = 0
                if chroma & 2 != 0 {
                    total = try CAVLCResidualReader.read(&reader, nC: chromaNC(mb, component: component, x: block & 1, y: block >> 1, &context),
                                                         maxNumCoeff: 15, into: chromaAC + (component * 4 + block) * 16 + 1)
                }
                chromaTotals[mb * 8 + component * 4 + block] = UInt8(total)
            }
        }
    }

    /// Scales, inverse-transforms and adds one 4x4 luma or chroma block (§8.5.12, §8.5.14) whose levels are
    /// in scan order at `levels`. With `dc`, the block's DC is that already scaled value (Intra16x16, chroma).
    /// `list` is the scaling list (0…5: Intra Y, Cb, Cr, Inter Y, Cb, Cr).
    @inline(__always)
    func addResidual(_ levels: UnsafeMutablePointer<Int32>, dc: Int32?, qP: Int, list: Int, to samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        let block = coefficients + Self.transformOffset
        if interlace.fieldScan { InterlacedScans.unscan4x4(levels, into: block) } else { Zigzag.unscan(levels, into: block) }
        if !scaling.isFlat {
            Quantisation.dequantise(block, qP: qP, levelScale: scaling.levelScale4x4 + list * 96 + (qP % 6) * 16, keepingDC: dc != nil)
            if let dc { block[0] = dc }
        } else if let dc {
            Quantisation.dequantise(block, qP: qP, keepingDC: true)
            block[0] = dc
        } else {
            Quantisation.dequantise(block, qP: qP, keepingDC: false)
        }
        Transform4x4.inverse(block)
        Transform4x4.add(block, to: samples, stride: stride)
    }

    /// Adds the residual of a non-Intra16x16 macroblock's luma: each 4x4 block with levels.
    func addLumaResidual(_ mb: Int, qP: Int, picture: DecoderPicture) {
        if mbTransform8x8[mb] & 16 != 0 {
            addLuma8x8Residual(mb, qP: qP, intra: false, picture: picture)
            return
        }
        let (origin, stride) = lumaResidualOrigin(mb, picture)
        for raster in 0..<16 where lumaTotals[mb * 16 + raster] != 0 {
            let x = raster & 3, y = raster >> 2
            addResidual(coefficients + raster * 16, dc: nil, qP: qP, list: 3, to: origin + y * 4 * stride + x * 4, stride: stride)
        }
    }

    /// The first luma sample of an inter macroblock and the distance between its rows: as in a progressive frame, or
    /// for a field macroblock of an MBAFF frame every other row of its pair from its parity (§6.4.1).
    @inline(__always)
    func lumaResidualOrigin(_ mb: Int, _ picture: DecoderPicture) -> (UnsafeMutablePointer<UInt8>, Int) {
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        if interlace.mbaff && mbField[mb] != 0 {
            return (picture.luma + ((mbY >> 1) * 32 + (mbY & 1)) * picture.width + mbX * 16, 2 * picture.width)
        }
        return (picture.luma + mbY * 16 * picture.width + mbX * 16, picture.width)
    }

    /// Adds the chroma residual (§8.5.11): the 2x2 DC transform per component, then each 4x4 block.
    func addChromaResidual(_ mb: Int, cbp: Int, picture: DecoderPicture) {
        guard cbp >> 4 != 0, picture.chromaWidth > 0 else { return }
        let samples = macroblockSamples(mb, picture)
        for component in 0..<2 {
            let qP = Int(component == 0 ? mbQPCb[mb] : mbQPCr[mb])
            let list = (mbKind[mb] == Kind.inter ? 4 : 1) + component
            let dc = coefficients + Self.chromaDCOffset + component * 4
            if scaling.isFlat {
                DCTransforms.inverseChromaDC(dc, qP: qP)
            } else {
                DCTransforms.inverseChromaDC(dc, qP: qP, dcScale: scaling.levelScale4x4[list * 96 + (qP % 6) * 16])
            }
            let origin = component == 0 ? samples.cbOrigin : samples.crOrigin
            for block in 0..<4 {
                let levels = coefficients + Self.chromaACOffset + (component * 4 + block) * 16
                if dc[block] == 0 && chromaTotals[mb * 8 + component * 4 + block] == 0 { continue }
                let x = block & 1, y = block >> 1
                addResidual(levels, dc: dc[block], qP: qP, list: list,
                            to: origin + y * 4 * samples.chromaStride + x * 4, stride: samples.chromaStride)
            }
        }
    }
}
