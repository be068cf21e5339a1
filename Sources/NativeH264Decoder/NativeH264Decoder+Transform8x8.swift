import NativeH264Kernels

extension NativeH264Decoder {
    /// Intra8x8PredMode of 8x8 block `block8x8`, kept in its four 4x4 entries of ``intraModes`` so that the
    /// Intra4x4 and Intra8x8 mode predictions of later blocks read it (§8.3.1.1, §8.3.2.1).
    @inline(__always)
    func setIntra8x8Mode(_ mb: Int, block8x8: Int, _ mode: Int) {
        let raster = (block8x8 >> 1) * 8 + (block8x8 & 1) * 2
        let entry = intraModes + mb * 16 + raster
        entry[0] = Int8(mode); entry[1] = Int8(mode); entry[4] = Int8(mode); entry[5] = Int8(mode)
    }

    /// The luma of `residual_luma( )` with transform_size_8x8_flag and CAVLC (§7.3.5.3.1): each coded 8x8
    /// block as four interleaved 4x4 blocks (lumaLevel8x8[4 · i + i4x4] = the i-th level of block i4x4), each
    /// with its own coeff_token context (§9.2.1); levels at ``coefficients`` + 64 · block in 8x8 scan order.
    /// Sets ``mbTransform8x8`` (the flag and the 8x8 blocks with coefficients).
    func readLuma8x8ResidualCAVLC(_ mb: Int, cbp: Int, _ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let base = mb * 16
        let scratch = coefficients + Self.transformOffset
        var mask = 0
        for b8 in 0..<4 {
            let levels = coefficients + b8 * 64
            levels.update(repeating: 0, count: 64)
            for i4x4 in 0..<4 {
                let raster = Self.rasterOfBlock[b8 * 4 + i4x4]
                guard cbp & (1 << b8) != 0 else {
                    lumaTotals[base + raster] = 0
                    continue
                }
                scratch.update(repeating: 0, count: 16)
                let total = try CAVLCResidualReader.read(&reader, nC: lumaNC(mb, x: raster & 3, y: raster >> 2, &context), maxNumCoeff: 16, into: scratch)
                for i in 0..<16 { levels[4 * i + i4x4] = scratch[i] }
                lumaTotals[base + raster] = UInt8(total)
                if total != 0 { mask |= 1 << b8 }
            }
        }
        mbTransform8x8[mb] = UInt8(16 | mask)
    }


    /// Scales, inverse-transforms and adds one 8x8 luma block whose levels are in scan order at `levels`
    /// (§8.5.13, §8.5.14).
    @inline(__always)
    func add8x8Residual(_ levels: UnsafeMutablePointer<Int32>, qP: Int, intra: Bool, to samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        let block = coefficients + Self.transformOffset
        if interlace.fieldScan { InterlacedScans.unscan8x8(levels, into: block) } else { Transform8x8.unscan(levels, into: block) }
        Quantisation8x8.dequantise(block, qP: qP, levelScale: scaling.levelScale8x8 + (intra ? 0 : 384) + (qP % 6) * 64)
        Transform8x8.inverse(block)
        Transform8x8.add(block, to: samples, stride: stride)
    }

    /// Adds the luma residual of an inter macroblock with transform_size_8x8_flag: each 8x8 block with levels.
    func addLuma8x8Residual(_ mb: Int, qP: Int, intra: Bool, picture: DecoderPicture) {
        let (origin, stride) = lumaResidualOrigin(mb, picture)
        let mask = Int(mbTransform8x8[mb])
        for b8 in 0..<4 where mask & (1 << b8) != 0 {
            add8x8Residual(coefficients + b8 * 64, qP: qP, intra: intra, to: origin + (b8 >> 1) * 8 * stride + (b8 & 1) * 8, stride: stride)
        }
    }

    /// The luma of an I_NxN macroblock with transform_size_8x8_flag (§8.3.2): each 8x8 block predicted
    /// (Intra_8x8 with the reference sample filtering) and its residual added, in order, from the
    /// availability of the neighbouring macroblocks for intra prediction.
    /// `left` is the upper half of the left column, `leftLower` its lower half (they differ only in an MBAFF frame with
    /// constrained intra prediction).
    func reconstructIntra8x8Luma(_ mb: Int, left: Bool, leftLower: Bool, top: Bool, topLeft: Bool, topRight: Bool, samples: MacroblockSamples,
                                 _ context: inout SliceContext) throws(SliceDataError) {
        let plane = samples.luma, origin = samples.lumaOrigin, stride = samples.lumaStride
        let mask = Int(mbTransform8x8[mb])
        for b8 in 0..<4 {
            let x = b8 & 1, y = b8 >> 1
            var neighbours: IntraNeighbours = []
            if x > 0 || (y == 0 ? left : leftLower) { neighbours.insert(.left) }
            if y > 0 || top { neighbours.insert(.top) }
            if (x > 0 && y > 0) || (x == 0 && y > 0 && left) || (y == 0 && x > 0 && top) || (x == 0 && y == 0 && topLeft) {
                neighbours.insert(.topLeft)
            }
            if (y == 0 && x == 0 && top) || (y == 0 && x == 1 && topRight) || (y == 1 && x == 0) { neighbours.insert(.topRight) }
            let raster = y * 8 + x * 2
            guard let mode = Intra4x4Mode(rawValue: Int(intraModes[mb * 16 + raster])), mode.isUsable(with: neighbours) else {
                throw SliceDataError(field: "prev_intra8x8_pred_mode (mode needs unavailable neighbours)")
            }
            let destination = origin + y * 8 * stride + x * 8
            Intra8x8Prediction.predict(mode, plane: plane, x: samples.lumaX + x * 8, y: samples.lumaY + y * 8, neighbours: neighbours,
                                       into: destination, stride: stride)
            if mask & (1 << b8) != 0 {
                add8x8Residual(coefficients + b8 * 64, qP: context.qp, intra: true, to: destination, stride: stride)
            }
        }
    }
}
