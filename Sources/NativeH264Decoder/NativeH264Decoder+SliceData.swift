import NativeH264Kernels

extension NativeH264Decoder {
    /// `slice_data( )` for CAVLC (§7.3.4): mb_skip_run in P and B slices, then `macroblock_layer( )` until
    /// the RBSP ends (more_rbsp_data( )), macroblocks in raster order (no slice groups).
    func decodeSliceData(_ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let count = widthInMbs * heightInMbs
        var mb = Int(context.header.firstMbInSlice)
        guard (0...51).contains(context.qp) else { throw SliceDataError(field: "slice_qp_delta (SliceQPY outside 0…51)") }
        var moreData = true
        while moreData {
            guard mb < count else { throw SliceDataError(field: "slice data beyond the last macroblock") }
            if context.isP || context.isB {
                let run = Int(try reader.ue())
                guard run <= count - mb else { throw SliceDataError(field: "mb_skip_run") }
                for _ in 0..<run {
                    context.currentMb = mb
                    if context.isB { decodeBSkip(mb, &context) } else { decodeSkip(mb, &context) }
                    mb += 1
                }
                if run > 0 {
                    moreData = reader.position < reader.bitCount
                    if !moreData { break }
                    guard mb < count else { throw SliceDataError(field: "mb_skip_run") }
                }
            }
            context.currentMb = mb
            try decodeMacroblock(mb, &reader, &context)
            if reader.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
            moreData = reader.position < reader.bitCount
            mb += 1
        }
    }

    /// Marks a macroblock as decoded by the current slice, with its kind and QP (QPY, and QPC of
    /// both chroma components, for deblocking and chroma scaling).
    @inline(__always)
    func record(_ mb: Int, kind: UInt8, qp: Int, _ context: inout SliceContext) {
        mbSlice[mb] = context.sliceIndex
        mbKind[mb] = kind
        mbTransform8x8[mb] = 0
        let lumaQP = kind == Kind.pcm ? 0 : qp
        mbQP[mb] = Int8(lumaQP)
        mbQPCb[mb] = Int8(Self.chromaQP(lumaQP, offset: context.chromaOffsetCb))
        mbQPCr[mb] = Int8(Self.chromaQP(lumaQP, offset: context.chromaOffsetCr))
    }

    /// QPC from QPY (§8.5.8, Table 8-15), 8-bit.
    @inline(__always)
    static func chromaQP(_ qp: Int, offset: Int) -> Int {
        let qPI = min(max(qp + offset, 0), 51)
        return qPI < 30 ? qPI : Int(chromaQPTable[qPI - 30])
    }

    /// Table 8-15 for qPI 30…51.
    static let chromaQPTable: [UInt8] = [29, 30, 31, 32, 32, 33, 34, 34, 35, 35, 36, 36, 37, 37, 37, 38, 38, 38, 39, 39, 39, 39]

    /// Whether macroblock `n` is available to the current one (§6.4.8: decoded, same slice).
    @inline(__always)
    func isAvailable(_ n: Int, _ context: inout SliceContext) -> Bool { mbSlice[n] == context.sliceIndex }

    /// Whether macroblock `n` is available for intra prediction (§8.3.1.2: not when it is inter-coded and
    /// constrained_intra_pred_flag is 1).
    @inline(__always)
    func isAvailableForIntra(_ n: Int, _ context: inout SliceContext) -> Bool {
        mbSlice[n] == context.sliceIndex && !(context.constrainedIntra && mbKind[n] == Kind.inter)
    }

    /// `macroblock_layer( )` (§7.3.5) and the macroblock's reconstruction.
    func decodeMacroblock(_ mb: Int, _ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        var mbType = Int(try reader.ue())
        if context.isP {
            guard mbType <= 30 else { throw SliceDataError(field: "mb_type") }
            if mbType < 5 {
                try decodeInterMacroblock(mb, type: mbType, &reader, &context)
                return
            }
            mbType -= 5
        } else if context.isB {
            guard mbType <= BMacroblockTypes.lastInter + 26 else { throw SliceDataError(field: "mb_type") }
            if mbType <= BMacroblockTypes.lastInter {
                try decodeBMacroblock(mb, type: mbType, &reader, &context)
                return
            }
            mbType -= BMacroblockTypes.lastInter + 1
        }
        guard mbType <= 25 else { throw SliceDataError(field: "mb_type") }
        if mbType == 25 {
            try decodePCM(mb, &reader, &context)
            return
        }
        try decodeIntraMacroblock(mb, type: mbType, &reader, &context)
    }

    /// I_PCM (§7.3.5, §8.3.5): samples copied from the stream.
    func decodePCM(_ mb: Int, _ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        reader.position = (reader.position + 7) & ~7
        let samples = macroblockSamples(mb, context.picture)
        for y in 0..<16 {
            let row = samples.lumaOrigin + y * samples.lumaStride
            for x in 0..<16 { row[x] = UInt8(truncatingIfNeeded: reader.bits(8)) }
        }
        if context.hasChroma {
            for component in 0..<2 {
                let origin = component == 0 ? samples.cbOrigin : samples.crOrigin
                for y in 0..<8 {
                    let row = origin + y * samples.chromaStride
                    for x in 0..<8 { row[x] = UInt8(truncatingIfNeeded: reader.bits(8)) }
                }
            }
        }
        if reader.isOverrun { throw SliceDataError(field: "pcm_sample (slice data cut short)") }
        record(mb, kind: Kind.pcm, qp: context.qp, &context)
        let base = mb * 16
        for i in 0..<16 {
            intraModes[base + i] = 2
            lumaTotals[base + i] = 16
            refIndices[base + i] = -1
            refIdentities[base + i] = -1
            motionX[base + i] = 0
            motionY[base + i] = 0
        }
        for i in 0..<8 { chromaTotals[mb * 8 + i] = 16 }
    }

    /// coded_block_pattern (me(v), Table 9-4): luma bits 0…3, chroma 0…2 (<< 4).
    func readCodedBlockPattern(_ reader: inout SliceBitReader, intra: Bool, _ context: inout SliceContext) throws(SliceDataError) -> Int {
        let code = Int(try reader.ue())
        if context.hasChroma {
            guard code < 48 else { throw SliceDataError(field: "coded_block_pattern") }
            return Int(intra ? Self.cbpIntra[code] : Self.cbpInter[code])
        }
        guard code < 16 else { throw SliceDataError(field: "coded_block_pattern") }
        return Int(intra ? Self.cbpIntraMonochrome[code] : Self.cbpInterMonochrome[code])
    }

    /// mb_qp_delta (§7.4.5): QPY = (QPY,PRED + mb_qp_delta + 52) % 52.
    func readQPDelta(_ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let delta = Int(try reader.se())
        guard (-26...25).contains(delta) else { throw SliceDataError(field: "mb_qp_delta") }
        context.qp = (context.qp + delta + 52) % 52
    }

    /// Table 9-4, ChromaArrayType 1 or 2: coded_block_pattern by codeNum, Intra_4x4 column.
    static let cbpIntra: [UInt8] = [
        47, 31, 15, 0, 23, 27, 29, 30, 7, 11, 13, 14, 39, 43, 45, 46, 16, 3, 5, 10, 12, 19, 21, 26, 28, 35, 37, 42, 44, 1, 2, 4,
        8, 17, 18, 20, 24, 6, 9, 22, 25, 32, 33, 34, 36, 40, 38, 41,
    ]
    /// Table 9-4, ChromaArrayType 1 or 2, Inter column.
    static let cbpInter: [UInt8] = [
        0, 16, 1, 2, 4, 8, 32, 3, 5, 10, 12, 15, 47, 7, 11, 13, 14, 6, 9, 31, 35, 37, 42, 44, 33, 34, 36, 40, 39, 43, 45, 46,
        17, 18, 20, 24, 19, 21, 26, 28, 23, 27, 29, 30, 22, 25, 38, 41,
    ]
    /// Table 9-4, ChromaArrayType 0 or 3, Intra column.
    static let cbpIntraMonochrome: [UInt8] = [15, 0, 7, 11, 13, 14, 3, 5, 10, 12, 1, 2, 4, 8, 6, 9]
    /// Table 9-4, ChromaArrayType 0 or 3, Inter column.
    static let cbpInterMonochrome: [UInt8] = [0, 1, 2, 4, 8, 3, 5, 10, 12, 15, 7, 11, 13, 14, 6, 9]

    /// Raster position (4·y + x) inside the macroblock of each luma4x4BlkIdx (§6.4.3).
    static let rasterOfBlock: [Int] = [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
    /// luma4x4BlkIdx of each raster position.
    static let blockOfRaster: [Int] = [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
}
