import NativeH264Kernels

/// The running state of one CABAC slice's macroblock loop besides the engine.
struct CABACSliceState {
    /// The previous macroblock in decoding order had a non-zero mb_qp_delta (§9.3.3.1.1.5).
    var previousQPDeltaNonZero = false
}

extension NativeH264Decoder {
    /// `slice_data( )` for CABAC (§7.3.4, entropy_coding_mode_flag 1): cabac_alignment_one_bit, the
    /// initialisation of the contexts and of the engine (§9.3.1), then per macroblock mb_skip_flag (P and B),
    /// `macroblock_layer( )` and end_of_slice_flag, macroblocks in raster order (no slice groups).
    /// The reconstruction is the CAVLC path's (prediction, scaling, transforms): only the parsing differs.
    func decodeSliceDataCABAC(_ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        let count = widthInMbs * heightInMbs
        guard (0...51).contains(context.qp) else { throw SliceDataError(field: "slice_qp_delta (SliceQPY outside 0…51)") }
        cabac.reserve(count)
        reader.position = (reader.position + 7) & ~7
        var engine = CABACDecoder(reader: reader, states: cabac.states, tables: cabac.engineTables)
        defer { reader = engine.reader }
        engine.initialiseContexts(sliceQP: context.qp, cabacInitIDC: Int(context.header.cabacInitIDC), isIntraSlice: !context.isP && !context.isB)
        guard engine.initialiseEngine() else { throw SliceDataError(field: "slice_data (CABAC codIOffset 510 or 511)") }
        var state = CABACSliceState()
        if interlace.mbaff {
            try decodeMBAFFMacroblocksCABAC(&engine, &context, &state)
            return
        }
        var mb = Int(context.header.firstMbInSlice)
        while true {
            guard mb < count else { throw SliceDataError(field: "slice data beyond the last macroblock") }
            context.currentMb = mb
            if (context.isP || context.isB) && decodeSkipFlag(mb, &engine, &context) {
                if context.isB { decodeBSkip(mb, &context) } else { decodeSkip(mb, &context) }
                cabac.record(mb, skip: true, cbp: 0, chromaMode: 0, codedDC: 0, direct: context.isB ? 0x1F : 0)
                cabac.clearMotionDifferences(mb)
                state.previousQPDeltaNonZero = false
            } else {
                try decodeMacroblockCABAC(mb, &engine, &context, &state)
            }
            if engine.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
            if engine.terminate() == 1 { break }
            mb += 1
        }
    }

    /// The raster position (4·y + x) inside the macroblock of luma4x4BlkIdx `index` (§6.4.3), computed.
    @inline(__always)
    static func rasterPosition(ofBlock index: Int) -> Int {
        ((index >> 3) & 1) << 3 | ((index >> 1) & 1) << 2 | ((index >> 2) & 1) << 1 | (index & 1)
    }

    /// The left (A) and upper (B) macroblocks when available in the slice (§6.4.9), −1 otherwise; in an MBAFF
    /// frame the macroblocks covering luma locations (−1, 0) and (0, −1) (§6.4.11.1, Table 6-4).
    @inline(__always)
    func neighbours(_ mb: Int, _ context: inout SliceContext) -> (left: Int, top: Int) {
        if interlace.mbaff { return (mbaffNeighbours.leftMb[0], mbaffNeighbours.topMb) }
        let left = mb % widthInMbs > 0 && isAvailable(mb - 1, &context) ? mb - 1 : -1
        let top = mb >= widthInMbs && isAvailable(mb - widthInMbs, &context) ? mb - widthInMbs : -1
        return (left, top)
    }

    /// mb_skip_flag (§9.3.3.1.1.1: ctxIdxInc counts the available neighbours that are not skipped; ctxIdx 11…13
    /// in P slices, 24…26 in B slices).
    @inline(__always)
    func decodeSkipFlag(_ mb: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext) -> Bool {
        let (left, top) = neighbours(mb, &context)
        let inc = (left >= 0 && cabac.skip[left] == 0 ? 1 : 0) + (top >= 0 && cabac.skip[top] == 0 ? 1 : 0)
        return engine.decision((context.isB ? 24 : 11) + inc) == 1
    }

    /// `macroblock_layer( )` with CABAC (§7.3.5): mb_type (Table 9-36 binarization, §9.3.3.1.2 contexts),
    /// then the inter, intra or I_PCM macroblock.
    func decodeMacroblockCABAC(_ mb: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext,
                               _ state: inout CABACSliceState) throws(SliceDataError) {
        let type: Int
        if context.isP {
            // Prefix (ctxIdx 14…16): P_L0_16x16 000, P_L0_L0_16x8 011, P_L0_L0_8x16 010, P_8x8 001, intra 1.
            if engine.decision(14) == 0 {
                let partitioned = engine.decision(15)
                let pType = partitioned == 0 ? (engine.decision(16) == 0 ? 0 : 3) : (engine.decision(17) == 0 ? 2 : 1)
                try decodeInterMacroblockCABAC(mb, type: pType, &engine, &context, &state)
                return
            }
            type = intraMacroblockType(&engine, offset: 17, firstIncrement: 0)
        } else if context.isB {
            let bType = bMacroblockTypeCABAC(mb, &engine, &context)
            if bType <= BMacroblockTypes.lastInter {
                try decodeBMacroblockCABAC(mb, type: bType, &engine, &context, &state)
                return
            }
            type = bType - BMacroblockTypes.lastInter - 1
        } else {
            let (left, top) = neighbours(mb, &context)
            let inc = (left >= 0 && mbKind[left] != Kind.intraNxN ? 1 : 0) + (top >= 0 && mbKind[top] != Kind.intraNxN ? 1 : 0)
            type = intraMacroblockType(&engine, offset: 3, firstIncrement: inc)
        }
        if type == 25 {
            // I_PCM: the engine stopped after the terminate bin; samples follow byte-aligned, then the
            // engine starts again (§9.3.1.2).
            try decodePCM(mb, &engine.reader, &context)
            guard engine.initialiseEngine() else { throw SliceDataError(field: "pcm_sample (CABAC codIOffset 510 or 511 after I_PCM)") }
            cabac.record(mb, skip: false, cbp: 0x2F, chromaMode: 0, codedDC: 7)
            cabac.clearMotionDifferences(mb)
            state.previousQPDeltaNonZero = false
            return
        }
        try decodeIntraMacroblockCABAC(mb, type: type, &engine, &context, &state)
    }

    /// mb_type of an intra macroblock (Table 9-36): in I slices (ctxIdxOffset 3, the first bin's
    /// ctxIdxInc from the neighbours) or as the suffix in P slices (ctxIdxOffset 17) and B slices
    /// (ctxIdxOffset 32). Returns mb_type of
    /// Table 7-11 (0 I_NxN, 1…24 I_16x16, 25 I_PCM).
    @inline(__always)
    func intraMacroblockType(_ engine: inout CABACDecoder, offset: Int, firstIncrement: Int) -> Int {
        if engine.decision(offset + firstIncrement) == 0 { return 0 }
        if engine.terminate() == 1 { return 25 }
        let isSuffix = offset != 3
        let luma = engine.decision(offset + (isSuffix ? 1 : 3))
        var chroma = 0
        if engine.decision(offset + (isSuffix ? 2 : 4)) == 1 {
            chroma = engine.decision(offset + (isSuffix ? 2 : 5)) == 1 ? 2 : 1
        }
        let high = engine.decision(offset + (isSuffix ? 3 : 6))
        let low = engine.decision(offset + (isSuffix ? 3 : 7))
        return 1 + (high << 1 | low) + 4 * chroma + 12 * luma
    }

    /// An intra macroblock with CABAC: prev_intra4x4_pred_mode_flag / rem_intra4x4_pred_mode (ctxIdx 68, 69),
    /// intra_chroma_pred_mode (§9.3.3.1.1.8), coded_block_pattern, mb_qp_delta and the residual; then the
    /// shared reconstruction.
    func decodeIntraMacroblockCABAC(_ mb: Int, type: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext,
                                    _ state: inout CABACSliceState) throws(SliceDataError) {
        let base = mb * 16
        let isNxN = type == 0
        let (left, top) = neighbours(mb, &context)
        let transform8x8 = isNxN && context.pps.transform8x8ModeFlag && transformSize8x8FlagCABAC(left: left, top: top, &engine)
        if isNxN {
            for index in stride(from: 0, to: 16, by: transform8x8 ? 4 : 1) {
                let raster = Self.rasterPosition(ofBlock: index)
                let predicted = interlace.mbaff
                    ? predictedIntraModeMBAFF(mb, raster: raster, constrainedIntra: context.constrainedIntra)
                    : predictedIntra4x4Mode(mb, raster: raster, leftMb: left, topMb: top, &context)
                var mode = predicted
                if engine.decision(68) == 0 {
                    let remaining = engine.decision(69) | engine.decision(69) << 1 | engine.decision(69) << 2
                    mode = remaining < predicted ? remaining : remaining + 1
                }
                if transform8x8 { setIntra8x8Mode(mb, block8x8: index >> 2, mode) } else { intraModes[base + raster] = Int8(mode) }
            }
        } else {
            for i in 0..<16 { intraModes[base + i] = 2 }
        }
        var chromaMode = 0
        if context.hasChroma {
            let inc = (left >= 0 && cabac.chromaMode[left] != 0 ? 1 : 0) + (top >= 0 && cabac.chromaMode[top] != 0 ? 1 : 0)
            if engine.decision(64 + inc) == 1 {
                chromaMode = engine.decision(67) == 0 ? 1 : (engine.decision(67) == 0 ? 2 : 3)
            }
        }
        let cbp = isNxN ? codedBlockPatternCABAC(mb, &engine, &context) : ((type - 1) / 4 % 3) << 4 | (type >= 13 ? 15 : 0)
        if cbp != 0 || !isNxN { try qpDeltaCABAC(&engine, &context, &state) } else { state.previousQPDeltaNonZero = false }
        record(mb, kind: isNxN ? Kind.intraNxN : Kind.intra16x16, qp: context.qp, &context)
        for i in 0..<16 {
            refIndices[base + i] = -1
            refIdentities[base + i] = -1
            motionX[base + i] = 0
            motionY[base + i] = 0
        }
        let codedDC = try residualCABAC(mb, cbp: cbp, intra16x16: !isNxN, isIntra: true, transform8x8: transform8x8, &engine, &context)
        cabac.record(mb, skip: false, cbp: cbp, chromaMode: chromaMode, codedDC: codedDC)
        cabac.clearMotionDifferences(mb)
        if engine.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
        try reconstructIntraMacroblock(mb, type: type, chromaMode: chromaMode, cbp: cbp, &context)
    }

    /// coded_block_pattern with CABAC (§9.3.2.6: prefix FL of 4 bins for the luma 8x8 blocks, suffix TU
    /// cMax 2 for chroma; contexts §9.3.3.1.1.4, ctxIdx 73…84).
    func codedBlockPatternCABAC(_ mb: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext) -> Int {
        let (left, top) = neighbours(mb, &context)
        let leftCBP = left >= 0 ? Int(cabac.cbp[left]) : -1
        let topCBP = top >= 0 ? Int(cabac.cbp[top]) : -1
        var luma = 0
        for b8 in 0..<4 {
            // condTermFlagN is 1 when the neighbouring 8x8 block is available and has no coded luma.
            let a: Int
            if b8 & 1 == 1 {
                a = (luma >> (b8 - 1)) & 1 ^ 1
            } else if interlace.mbaff {
                // The 8x8 block left of this one's upper-left sample (§6.4.11.2 through Table 6-4): its row in that macroblock.
                let n = mbaffNeighbours.leftMb[b8], row8 = mbaffNeighbours.leftRow[b8] >> 1
                a = n >= 0 ? (Int(cabac.cbp[n]) >> (row8 * 2 + 1)) & 1 ^ 1 : 0
            } else {
                a = leftCBP >= 0 ? (leftCBP >> (b8 + 1)) & 1 ^ 1 : 0
            }
            let b: Int
            if b8 >= 2 { b = (luma >> (b8 - 2)) & 1 ^ 1 } else { b = topCBP >= 0 ? (topCBP >> (b8 + 2)) & 1 ^ 1 : 0 }
            luma |= engine.decision(73 + a + 2 * b) << b8
        }
        guard context.hasChroma else { return luma }
        let chromaA = leftCBP >= 0 ? leftCBP >> 4 : 0, chromaB = topCBP >= 0 ? topCBP >> 4 : 0
        var chroma = 0
        if engine.decision(77 + (chromaA != 0 ? 1 : 0) + (chromaB != 0 ? 2 : 0)) == 1 {
            chroma = engine.decision(81 + (chromaA == 2 ? 1 : 0) + (chromaB == 2 ? 2 : 0)) == 1 ? 2 : 1
        }
        return luma | chroma << 4
    }

    /// mb_qp_delta with CABAC (§9.3.2.7: U of the mapped value, Table 9-3; contexts §9.3.3.1.1.5, ctxIdx 60…63).
    func qpDeltaCABAC(_ engine: inout CABACDecoder, _ context: inout SliceContext, _ state: inout CABACSliceState) throws(SliceDataError) {
        var k = 0
        var ctx = 60 + (state.previousQPDeltaNonZero ? 1 : 0)
        while engine.decision(ctx) == 1 {
            k += 1
            ctx = k == 1 ? 62 : 63
            guard k <= 52 else { throw SliceDataError(field: "mb_qp_delta") }
        }
        let delta = k & 1 == 1 ? (k + 1) >> 1 : -(k >> 1)
        guard (-26...25).contains(delta) else { throw SliceDataError(field: "mb_qp_delta") }
        context.qp = (context.qp + delta + 52) % 52
        state.previousQPDeltaNonZero = delta != 0
    }

    /// An inter macroblock of a P slice with CABAC (`mb_type` 0…3, Table 7-13): sub_mb_type, ref_idx_l0 and
    /// mvd_l0 (§9.3.3.1.1.6, §9.3.3.1.1.7), then prediction and the residual, shared with CAVLC.
    func decodeInterMacroblockCABAC(_ mb: Int, type: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext,
                                    _ state: inout CABACSliceState) throws(SliceDataError) {
        loadMotionCache(mb, &context)
        let (left, top) = neighbours(mb, &context)
        var subTypes = InlineArray<4, Int>(repeating: 0)
        if type == 3 {
            for i in 0..<4 {
                // sub_mb_type P (ctxIdx 21…23): P_L0_8x8 1, P_L0_8x4 00, P_L0_4x8 011, P_L0_4x4 010.
                if engine.decision(21) == 1 { subTypes[i] = 0 }
                else if engine.decision(22) == 0 { subTypes[i] = 1 }
                else { subTypes[i] = engine.decision(23) == 1 ? 2 : 3 }
            }
        }
        // Reference indices per 8x8 quadrant (what ctxIdxInc of the later ones reads inside the macroblock).
        var quadrantRefs = InlineArray<4, Int>(repeating: 0)
        let partitionCount = type == 0 ? 1 : (type == 3 ? 4 : 2)
        let refMax = activeReferenceCount(context.referenceCount, mb) - 1
        var refs = InlineArray<4, Int>(repeating: 0)
        if refMax > 0 {
            for p in 0..<partitionCount {
                let (x, y) = Self.partitionOrigin(type: type, partition: p)
                // condTermFlagN: the neighbouring partition uses a reference index above 0 (§9.3.3.1.1.6).
                let a = x > 0 ? quadrantRefs[(y >> 1) * 2 + ((x - 1) >> 1)] > 0 : leftReferenceCondition(list: 0, mb, y: y, left: left)
                let b = y > 0 ? quadrantRefs[((y - 1) >> 1) * 2 + (x >> 1)] > 0 : topReferenceCondition(list: 0, mb, x: x, top: top)
                var ref = 0
                var ctx = 54 + (a ? 1 : 0) + (b ? 2 : 0)
                while engine.decision(ctx) == 1 {
                    ref += 1
                    ctx = ref == 1 ? 58 : 59
                    guard ref <= refMax else { throw SliceDataError(field: "ref_idx_l0") }
                }
                refs[p] = ref
                switch type {
                case 0: for q in 0..<4 { quadrantRefs[q] = ref }
                case 1: quadrantRefs[2 * p] = ref; quadrantRefs[2 * p + 1] = ref
                case 2: quadrantRefs[p] = ref; quadrantRefs[p + 2] = ref
                default: quadrantRefs[p] = ref
                }
            }
        }
        func partition(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ ref: Int, _ shape: Int, _ engine: inout CABACDecoder,
                       _ context: inout SliceContext) throws(SliceDataError) {
            let mvdX = try motionVectorDifference(mb, x: x, y: y, table: cabac.mvdX, offset: 40, left: left, top: top, &engine)
            let mvdY = try motionVectorDifference(mb, x: x, y: y, table: cabac.mvdY, offset: 47, left: left, top: top, &engine)
            let absX = UInt8(min(mvdX.magnitude, 255)), absY = UInt8(min(mvdY.magnitude, 255))
            for j in y..<(y + h) {
                for i in x..<(x + w) {
                    cabac.mvdX[mb * 16 + j * 4 + i] = absX
                    cabac.mvdY[mb * 16 + j * 4 + i] = absY
                }
            }
            let predictor = predictMotion(x: x, y: y, w: w, ref: ref, shape: shape)
            let mv = (predictor.0 &+ mvdX, predictor.1 &+ mvdY)
            let reference = referencePicture(ref, &context)
            fill(mb, x: x, y: y, w: w, h: h, ref: ref, mv: mv, identity: Int32(truncatingIfNeeded: reference?.identity ?? -1))
            if context.weights.mode == .none {
                predictInter(mb, x: x, y: y, w: w, h: h, mv: mv, reference: reference, picture: context.picture)
            } else {
                // Explicit weighted prediction of P slices (weighted_pred_flag, §8.4.2.3).
                predictPartition(mb, x: x, y: y, w: w, h: h, ref0: ref, mv0: mv, ref1: -1, mv1: (0, 0), &context)
            }
        }
        switch type {
        case 0:
            try partition(0, 0, 4, 4, refs[0], 0, &engine, &context)
        case 1:
            try partition(0, 0, 4, 2, refs[0], 1, &engine, &context)
            try partition(0, 2, 4, 2, refs[1], 1, &engine, &context)
        case 2:
            try partition(0, 0, 2, 4, refs[0], 2, &engine, &context)
            try partition(2, 0, 2, 4, refs[1], 2, &engine, &context)
        default:
            for i in 0..<4 {
                let sx = (i & 1) * 2, sy = (i >> 1) * 2, ref = refs[i]
                switch subTypes[i] {
                case 0:
                    try partition(sx, sy, 2, 2, ref, 0, &engine, &context)
                case 1:
                    try partition(sx, sy, 2, 1, ref, 0, &engine, &context)
                    try partition(sx, sy + 1, 2, 1, ref, 0, &engine, &context)
                case 2:
                    try partition(sx, sy, 1, 2, ref, 0, &engine, &context)
                    try partition(sx + 1, sy, 1, 2, ref, 0, &engine, &context)
                default:
                    try partition(sx, sy, 1, 1, ref, 0, &engine, &context)
                    try partition(sx + 1, sy, 1, 1, ref, 0, &engine, &context)
                    try partition(sx, sy + 1, 1, 1, ref, 0, &engine, &context)
                    try partition(sx + 1, sy + 1, 1, 1, ref, 0, &engine, &context)
                }
            }
        }
        let cbp = codedBlockPatternCABAC(mb, &engine, &context)
        // transform_size_8x8_flag (§7.3.5): luma coded, and no sub-macroblock partition below 8x8.
        let transform8x8 = cbp & 15 != 0 && context.pps.transform8x8ModeFlag
            && (type != 3 || subTypes[0] | subTypes[1] | subTypes[2] | subTypes[3] == 0)
            && transformSize8x8FlagCABAC(left: left, top: top, &engine)
        if cbp != 0 { try qpDeltaCABAC(&engine, &context, &state) } else { state.previousQPDeltaNonZero = false }
        record(mb, kind: Kind.inter, qp: context.qp, &context)
        for i in 0..<16 { intraModes[mb * 16 + i] = 2 }
        let codedDC = try residualCABAC(mb, cbp: cbp, intra16x16: false, isIntra: false, transform8x8: transform8x8, &engine, &context)
        cabac.record(mb, skip: false, cbp: cbp, chromaMode: 0, codedDC: codedDC)
        if engine.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
        addLumaResidual(mb, qP: context.qp, picture: context.picture)
        if context.hasChroma { addChromaResidual(mb, cbp: cbp, picture: context.picture) }
    }

    /// The top-left 4x4 block (x, y) of partition `partition` of a P macroblock of `type` (0…3).
    @inline(__always)
    static func partitionOrigin(type: Int, partition: Int) -> (Int, Int) {
        switch type {
        case 0: (0, 0)
        case 1: (0, partition * 2)
        case 2: (partition * 2, 0)
        default: ((partition & 1) * 2, (partition >> 1) * 2)
        }
    }

    /// One component of mvd_l0 or mvd_l1 (§9.3.2.3: UEG3, signed, uCoff 9; prefix contexts §9.3.3.1.1.7 from
    /// the sum of the neighbouring blocks' absolute differences in the same list, ctxIdx 40…46 horizontal,
    /// 47…53 vertical).
    /// - Parameters:
    ///   - table: the absolute differences of that list and component (``CABACNeighbourTables/mvdX`` …).
    ///   - offset: ctxIdxOffset, 40 for the horizontal component, 47 for the vertical one.
    @inline(__always)
    func motionVectorDifference(_ mb: Int, x: Int, y: Int, table: UnsafeMutablePointer<UInt8>, offset: Int, left: Int, top: Int,
                                _ engine: inout CABACDecoder) throws(SliceDataError) -> Int32 {
        var a = 0, b = 0
        if x > 0 {
            a = Int(table[mb * 16 + y * 4 + x - 1])
        } else if interlace.mbaff {
            let n = mbaffNeighbours.leftMb[y]
            if n >= 0 { a = scaledMotionDifference(Int(table[n * 16 + mbaffNeighbours.leftRow[y] * 4 + 3]), mb, n, vertical: offset == 47) }
        } else if left >= 0 {
            a = Int(table[left * 16 + y * 4 + 3])
        }
        if y > 0 {
            b = Int(table[mb * 16 + (y - 1) * 4 + x])
        } else if top >= 0 {
            b = Int(table[top * 16 + 12 + x])
            if interlace.mbaff { b = scaledMotionDifference(b, mb, top, vertical: offset == 47) }
        }
        let sum = a + b
        if engine.decision(offset + (sum < 3 ? 0 : (sum > 32 ? 2 : 1))) == 0 { return 0 }
        var value = 1
        while value < 9 && engine.decision(offset + (value < 4 ? value + 2 : 6)) == 1 { value += 1 }
        if value >= 9 {
            // Exp-Golomb suffix of order 3, bypass-coded.
            var k = 3
            while engine.bypass() == 1 {
                value += 1 << k
                k += 1
                guard k < 24 else { throw SliceDataError(field: "mvd_lX (suffix too long)") }
            }
            while k > 0 {
                k -= 1
                value += engine.bypass() << k
            }
        }
        return engine.bypass() == 1 ? Int32(-value) : Int32(value)
    }

    /// `residual( )` with CABAC for 4:2:0 or 4:0:0 (§7.3.5.3, residual_block_cabac §7.3.5.3.3): the same
    /// layout as the CAVLC reader — levels in ``coefficients``, coded flags (as counts) in ``lumaTotals`` and
    /// ``chromaTotals`` — so that both feed the same reconstruction.
    /// - Returns: the coded_block_flag bits of the DC blocks (bit 0 Intra16x16 DC, bit 1 Cb, bit 2 Cr).
    func residualCABAC(_ mb: Int, cbp: Int, intra16x16: Bool, isIntra: Bool, transform8x8: Bool, _ engine: inout CABACDecoder,
                       _ context: inout SliceContext) throws(SliceDataError) -> Int {
        let levels = coefficients
        let base = mb * 16
        let (left, top) = neighbours(mb, &context)
        let unavailable = isIntra ? 1 : 0
        var codedDC = 0
        if intra16x16 {
            let dc = levels + Self.lumaDCOffset
            dc.update(repeating: 0, count: 16)
            let a = left >= 0 ? Int(cabac.codedDC[left]) & 1 : unavailable
            let b = top >= 0 ? Int(cabac.codedDC[top]) & 1 : unavailable
            if engine.decision(85 + a + 2 * b) == 1 {
                _ = try residualBlockCABAC(category: 0, maxNumCoeff: 16, into: dc, &engine)
                codedDC |= 1
            }
        }
        if transform8x8 { try luma8x8ResidualCABAC(mb, cbp: cbp, &engine) }
        let category = intra16x16 ? 1 : 2
        for index in 0..<16 where !transform8x8 {
            let raster = Self.rasterPosition(ofBlock: index)
            let x = raster & 3, y = raster >> 2
            let block = levels + raster * 16
            block.update(repeating: 0, count: 16)
            guard cbp & (1 << (index >> 2)) != 0 else {
                lumaTotals[base + raster] = 0
                continue
            }
            let a: Int
            if x > 0 {
                a = lumaTotals[base + raster - 1] != 0 ? 1 : 0
            } else if interlace.mbaff {
                let n = mbaffNeighbours.leftMb[y]
                a = n >= 0 ? (lumaTotals[n * 16 + mbaffNeighbours.leftRow[y] * 4 + 3] != 0 ? 1 : 0) : unavailable
            } else {
                a = left >= 0 ? (lumaTotals[left * 16 + y * 4 + 3] != 0 ? 1 : 0) : unavailable
            }
            let b = y > 0 ? (lumaTotals[base + raster - 4] != 0 ? 1 : 0)
                : (top >= 0 ? (lumaTotals[top * 16 + 12 + x] != 0 ? 1 : 0) : unavailable)
            var total = 0
            if engine.decision(85 + category * 4 + a + 2 * b) == 1 {
                total = intra16x16
                    ? try residualBlockCABAC(category: 1, maxNumCoeff: 15, into: block + 1, &engine)
                    : try residualBlockCABAC(category: 2, maxNumCoeff: 16, into: block, &engine)
            }
            lumaTotals[base + raster] = UInt8(total)
        }
        guard context.hasChroma else { return codedDC }
        let chromaDC = levels + Self.chromaDCOffset
        chromaDC.update(repeating: 0, count: 8)
        let chromaAC = levels + Self.chromaACOffset
        chromaAC.update(repeating: 0, count: 128)
        let chroma = cbp >> 4
        if chroma != 0 {
            for component in 0..<2 {
                let bit = 2 << component
                let a = left >= 0 ? (Int(cabac.codedDC[left]) & bit != 0 ? 1 : 0) : unavailable
                let b = top >= 0 ? (Int(cabac.codedDC[top]) & bit != 0 ? 1 : 0) : unavailable
                if engine.decision(85 + 12 + a + 2 * b) == 1 {
                    _ = try residualBlockCABAC(category: 3, maxNumCoeff: 4, into: chromaDC + component * 4, &engine)
                    codedDC |= bit
                }
            }
        }
        for component in 0..<2 {
            let c = component * 4
            for block in 0..<4 {
                var total = 0
                if chroma & 2 != 0 {
                    let x = block & 1, y = block >> 1
                    let a: Int
                    if x > 0 {
                        a = chromaTotals[mb * 8 + c + y * 2] != 0 ? 1 : 0
                    } else if interlace.mbaff {
                        let n = mbaffNeighbours.chromaLeftMb[y]
                        a = n >= 0 ? (chromaTotals[n * 8 + c + mbaffNeighbours.chromaLeftRow[y] * 2 + 1] != 0 ? 1 : 0) : unavailable
                    } else {
                        a = left >= 0 ? (chromaTotals[left * 8 + c + y * 2 + 1] != 0 ? 1 : 0) : unavailable
                    }
                    let b = y > 0 ? (chromaTotals[mb * 8 + c + x] != 0 ? 1 : 0)
                        : (top >= 0 ? (chromaTotals[top * 8 + c + 2 + x] != 0 ? 1 : 0) : unavailable)
                    if engine.decision(85 + 16 + a + 2 * b) == 1 {
                        total = try residualBlockCABAC(category: 4, maxNumCoeff: 15, into: chromaAC + (c + block) * 16 + 1, &engine)
                    }
                }
                chromaTotals[mb * 8 + c + block] = UInt8(total)
            }
        }
        return codedDC
    }

    /// transform_size_8x8_flag (§9.3.3.1.1.10: ctxIdxInc counts the available neighbours that use it; ctxIdx 399…401).
    @inline(__always)
    func transformSize8x8FlagCABAC(left: Int, top: Int, _ engine: inout CABACDecoder) -> Bool {
        let inc = (left >= 0 && mbTransform8x8[left] & 16 != 0 ? 1 : 0) + (top >= 0 && mbTransform8x8[top] & 16 != 0 ? 1 : 0)
        return engine.decision(399 + inc) == 1
    }

    /// The luma 8x8 blocks of `residual_luma( )` with CABAC (ctxBlockCat 5, 4:2:0: no coded_block_flag, it is
    /// 1 for every 8x8 block with its coded_block_pattern bit): levels at ``coefficients`` + 64 · block in scan
    /// order; each block's count in its four ``lumaTotals`` entries (what neighbours' ctxIdxInc and the
    /// deblocking read); sets ``mbTransform8x8``.
    func luma8x8ResidualCABAC(_ mb: Int, cbp: Int, _ engine: inout CABACDecoder) throws(SliceDataError) {
        var mask = 0
        for b8 in 0..<4 {
            let levels = coefficients + b8 * 64
            levels.update(repeating: 0, count: 64)
            var total = 0
            if cbp & (1 << b8) != 0 {
                total = try residualBlock8x8CABAC(into: levels, &engine)
                mask |= 1 << b8
            }
            let entry = lumaTotals + mb * 16 + (b8 >> 1) * 8 + (b8 & 1) * 2
            entry[0] = UInt8(total); entry[1] = UInt8(total); entry[4] = UInt8(total); entry[5] = UInt8(total)
        }
        mbTransform8x8[mb] = UInt8(16 | mask)
    }

    /// significant_coeff_flag's ctxIdxInc for ctxBlockCat 5 in frame macroblocks (Table 9-43), by levelListIdx.
    static let significance8x8: [UInt8] = [
        0, 1, 2, 3, 4, 5, 5, 4, 4, 3, 3, 4, 4, 4, 5, 5, 4, 4, 4, 4, 3, 3, 6, 7, 7, 7, 8, 9, 10, 9, 8, 7,
        7, 6, 11, 12, 13, 11, 6, 7, 8, 9, 14, 10, 9, 8, 6, 11, 12, 13, 11, 6, 9, 14, 10, 9, 11, 12, 13, 11, 14, 10, 12,
    ]
    /// last_significant_coeff_flag's ctxIdxInc for ctxBlockCat 5 (Table 9-43), by levelListIdx.
    static let last8x8: [UInt8] = [
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8,
    ]

    /// `residual_block_cabac( )` of one 8x8 luma block (ctxBlockCat 5, §7.3.5.3.3): the significance map with
    /// the contexts of Table 9-43 (ctxIdxOffset 402 and 417), then the levels (ctxIdxOffset 426) as for 4x4 blocks.
    /// - Parameter levels: where coefficient i of the block goes (zeroed by the caller).
    /// - Returns: the number of non-zero coefficients (at least 1).
    func residualBlock8x8CABAC(into levels: UnsafeMutablePointer<Int32>, _ engine: inout CABACDecoder) throws(SliceDataError) -> Int {
        var positions = InlineArray<64, UInt8>(repeating: 0)
        var count = 0
        var i = 0
        let increments = cabac.increments8x8
        let field = interlace.fieldScan
        while i < 63 {
            let significance = field ? 436 + Int(InterlacedScans.significance8x8Field[i]) : 402 + Int(increments[i])
            if engine.decision(significance) == 1 {
                positions[count] = UInt8(i)
                count += 1
                if engine.decision((field ? 451 : 417) + Int(increments[63 + i])) == 1 { break }
            }
            i += 1
        }
        if i == 63 {
            positions[count] = 63
            count += 1
        }
        var greaterThanOne = 0, equalToOne = 0
        var j = count - 1
        while j >= 0 {
            let magnitude = try levelMagnitudeCABAC(426, greaterThanOne: &greaterThanOne, equalToOne: &equalToOne, greaterLimit: 4, &engine)
            levels[Int(positions[j])] = Int32(engine.bypass() == 1 ? -magnitude : magnitude)
            j -= 1
        }
        return count
    }

    /// coeff_abs_level_minus1 + 1 (§9.3.2.3 UEG0 with uCoff 14; ctxIdxInc §9.3.3.1.3 from the levels decoded
    /// so far in the block: bin 0 from those equal to 1 while none is above 1, the others from those above 1).
    @inline(__always)
    func levelMagnitudeCABAC(_ levelContexts: Int, greaterThanOne: inout Int, equalToOne: inout Int, greaterLimit: Int,
                             _ engine: inout CABACDecoder) throws(SliceDataError) -> Int {
        if engine.decision(levelContexts + (greaterThanOne != 0 ? 0 : min(4, 1 + equalToOne))) == 0 {
            equalToOne += 1
            return 1
        }
        let ctx = levelContexts + 5 + min(greaterLimit, greaterThanOne)
        var prefix = 1
        while prefix < 14 && engine.decision(ctx) == 1 { prefix += 1 }
        var value = prefix
        if prefix == 14 {
            // Exp-Golomb suffix of order 0, bypass-coded.
            var k = 0
            while engine.bypass() == 1 {
                value += 1 << k
                k += 1
                guard k < 21 else { throw SliceDataError(field: "coeff_abs_level_minus1 (suffix too long)") }
            }
            while k > 0 {
                k -= 1
                value += engine.bypass() << k
            }
        }
        greaterThanOne += 1
        guard value < 1 << 20 else { throw SliceDataError(field: "coeff_abs_level_minus1 (level out of range)") }
        return value + 1
    }

    /// ctxBlockCatOffset of significant_coeff_flag and last_significant_coeff_flag (Table 9-40), ctxBlockCat 0…4.
    @inline(__always)
    static func significanceOffset(_ category: Int) -> Int {
        switch category {
        case 0: 0
        case 1: 15
        case 2: 29
        case 3: 44
        default: 47
        }
    }

    /// ctxBlockCatOffset of coeff_abs_level_minus1 (Table 9-40), ctxBlockCat 0…4.
    @inline(__always)
    static func levelOffset(_ category: Int) -> Int { category == 4 ? 39 : category * 10 }

    /// `residual_block_cabac( )` after coded_block_flag (§7.3.5.3.3) for ctxBlockCat 0…4: the significance
    /// map (significant_coeff_flag, last_significant_coeff_flag, §9.3.3.1.3), then coeff_abs_level_minus1
    /// (UEG0, uCoff 14, §9.3.2.3 and §9.3.3.1.3) and coeff_sign_flag in reverse scan order.
    /// - Parameters:
    ///   - category: ctxBlockCat (Table 9-42).
    ///   - maxNumCoeff: 16, 15 or 4.
    ///   - levels: where coefficient i of the block goes (the caller zeroes it).
    /// - Returns: the number of non-zero coefficients (at least 1).
    @inline(__always)
    func residualBlockCABAC(category: Int, maxNumCoeff: Int, into levels: UnsafeMutablePointer<Int32>,
                            _ engine: inout CABACDecoder) throws(SliceDataError) -> Int {
        let categoryOffset = Self.significanceOffset(category)
        let significance = (interlace.fieldScan ? 277 : 105) + categoryOffset
        let last = (interlace.fieldScan ? 338 : 166) + categoryOffset
        let levelContexts = 227 + Self.levelOffset(category)
        var positions = InlineArray<16, UInt8>(repeating: 0)
        var count = 0
        let final = maxNumCoeff - 1
        var i = 0
        while i < final {
            let inc = category == 3 ? min(i, 2) : i
            if engine.decision(significance + inc) == 1 {
                positions[count] = UInt8(i)
                count += 1
                if engine.decision(last + inc) == 1 { break }
            }
            i += 1
        }
        if i == final {
            positions[count] = UInt8(final)
            count += 1
        }
        var greaterThanOne = 0, equalToOne = 0
        let greaterLimit = category == 3 ? 3 : 4
        var j = count - 1
        while j >= 0 {
            let magnitude = try levelMagnitudeCABAC(levelContexts, greaterThanOne: &greaterThanOne, equalToOne: &equalToOne,
                                                    greaterLimit: greaterLimit, &engine)
            levels[Int(positions[j])] = Int32(engine.bypass() == 1 ? -magnitude : magnitude)
            j -= 1
        }
        return count
    }
}
