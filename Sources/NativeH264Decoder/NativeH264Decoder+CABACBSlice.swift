extension NativeH264Decoder {
    /// mb_type of a B slice with CABAC (§9.3.2.5, Table 9-37 for B slices; ctxIdxOffset 27): bin 0's ctxIdxInc
    /// counts the available neighbours that are neither B_Skip nor B_Direct_16x16 (§9.3.3.1.1.3); bin 1 uses
    /// ctxIdxInc 3, bin 2 ctxIdxInc 5 after a 0 and 4 after a 1 (§9.3.3.1.2), later bins 5. The prefix 111101
    /// introduces an intra mb_type whose suffix is coded as in P slices, at ctxIdxOffset 32.
    /// - Returns: mb_type of Table 7-14 (0…22), or 23 + the intra mb_type of Table 7-11.
    @inline(__always)
    func bMacroblockTypeCABAC(_ mb: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext) -> Int {
        let (left, top) = neighbours(mb, &context)
        let inc = (left >= 0 && cabac.direct[left] & 16 == 0 ? 1 : 0) + (top >= 0 && cabac.direct[top] & 16 == 0 ? 1 : 0)
        if engine.decision(27 + inc) == 0 { return BMacroblockTypes.direct16x16 }
        if engine.decision(30) == 0 { return 1 + engine.decision(32) }
        var bits = engine.decision(31) << 3
        bits |= engine.decision(32) << 2
        bits |= engine.decision(32) << 1
        bits |= engine.decision(32)
        switch bits {
        case 0..<8: return 3 + bits  // 110xxx: B_Bi_16x16 … B_L1_L0_16x8
        case 13: return BMacroblockTypes.lastInter + 1 + intraMacroblockType(&engine, offset: 32, firstIncrement: 0)
        case 14: return 11  // 111110: B_L1_L0_8x16
        case 15: return BMacroblockTypes.b8x8  // 111111
        default: return (bits << 1 | engine.decision(32)) - 4  // 1111xxx (7 bins): B_L0_Bi_16x8 … B_Bi_Bi_8x16
        }
    }

    /// sub_mb_type of a B slice with CABAC (§9.3.2.5, Table 9-38 for B slices; ctxIdxOffset 36): bin 0 ctxIdx 36,
    /// bin 1 ctxIdx 37, bin 2 ctxIdx 38 after a 1 and 39 after a 0, later bins 39 (Table 9-39, §9.3.3.1.2).
    /// - Returns: sub_mb_type of Table 7-18 (0…12).
    @inline(__always)
    func bSubMacroblockTypeCABAC(_ engine: inout CABACDecoder) -> Int {
        if engine.decision(36) == 0 { return 0 }  // B_Direct_8x8
        if engine.decision(37) == 0 { return 1 + engine.decision(39) }  // 10x: B_L0_8x8, B_L1_8x8
        var type = 3
        if engine.decision(38) == 1 {
            if engine.decision(39) == 1 { return 11 + engine.decision(39) }  // 1111x: B_L1_4x4, B_Bi_4x4
            type += 4
        }
        type += engine.decision(39) << 1
        type += engine.decision(39)
        return type
    }

    /// Whether a neighbouring macroblock's block counts for ref_idx_lX's ctxIdxInc (§9.3.3.1.1.6, frame
    /// macroblocks: refIdxZeroFlagN 0): it predicts from list X with a reference index above 0 and was not
    /// direct-predicted (B_Skip, B_Direct_16x16, B_Direct_8x8). Skipped and intra blocks hold 0 or −1.
    /// In an MBAFF frame a field neighbour of a frame macroblock counts with a reference index above 1 (`threshold` 1).
    @inline(__always)
    func referenceCondition(list: Int, _ n: Int, raster: Int, threshold: Int8 = 0) -> Bool {
        let quadrant = (raster >> 3) << 1 | (raster & 3) >> 1
        if Int(cabac.direct[n]) & (1 << quadrant) != 0 { return false }
        return (list == 0 ? refIndices : refIndicesL1)[n * 16 + raster] > threshold
    }

    /// condTermFlagA of ref_idx_lX (§9.3.3.1.1.6) for a partition at the left edge whose top is 4x4 row `y`:
    /// the macroblock to the left (in an MBAFF frame, the block of Table 6-4, refIdxZeroFlagA with refIdx > 1 for a
    /// field neighbour of a frame macroblock).
    @inline(__always)
    func leftReferenceCondition(list: Int, _ mb: Int, y: Int, left: Int) -> Bool {
        if interlace.mbaff {
            let n = mbaffNeighbours.leftMb[y]
            return n >= 0 && referenceCondition(list: list, n, raster: mbaffNeighbours.leftRow[y] * 4 + 3,
                                                threshold: mbField[mb] == 0 && mbField[n] != 0 ? 1 : 0)
        }
        return left >= 0 && referenceCondition(list: list, left, raster: y * 4 + 3)
    }

    /// condTermFlagB of ref_idx_lX (§9.3.3.1.1.6) for a partition at the top edge in 4x4 column `x`.
    @inline(__always)
    func topReferenceCondition(list: Int, _ mb: Int, x: Int, top: Int) -> Bool {
        guard top >= 0 else { return false }
        return referenceCondition(list: list, top, raster: 12 + x, threshold: interlace.mbaff && mbField[mb] == 0 && mbField[top] != 0 ? 1 : 0)
    }

    /// absMvdComp of a neighbouring block for mvd's ctxIdxInc in an MBAFF frame (§9.3.3.1.1.7): the vertical
    /// component doubled for a field neighbour of a frame macroblock, halved for a frame neighbour of a field one.
    @inline(__always)
    func scaledMotionDifference(_ value: Int, _ mb: Int, _ n: Int, vertical: Bool) -> Int {
        guard vertical else { return value }
        let field = mbField[mb] != 0, neighbourField = mbField[n] != 0
        if field == neighbourField { return value }
        return field ? value >> 1 : value << 1
    }

    /// ref_idx_l0 or ref_idx_l1 with CABAC (§9.3.2.1 U binarization, ctxIdxOffset 54: bin 0 ctxIdxInc
    /// condTermFlagA + 2 · condTermFlagB, bin 1 ctxIdxInc 4, later bins 5) of the partition whose top-left
    /// 4x4 block is (x, y); `quadrants` holds the reference indices already decoded in this macroblock for the
    /// list, per 8x8 quadrant (0 where direct-predicted or not predicting from the list).
    @inline(__always)
    func referenceIndexCABAC(list: Int, _ mb: Int, x: Int, y: Int, left: Int, top: Int, quadrants: InlineArray<4, Int>,
                             refMax: Int, _ engine: inout CABACDecoder) throws(SliceDataError) -> Int {
        guard refMax > 0 else { return 0 }
        let a = x > 0 ? quadrants[(y >> 1) * 2 + ((x - 1) >> 1)] > 0 : leftReferenceCondition(list: list, mb, y: y, left: left)
        let b = y > 0 ? quadrants[((y - 1) >> 1) * 2 + (x >> 1)] > 0 : topReferenceCondition(list: list, mb, x: x, top: top)
        var ref = 0
        var ctx = 54 + (a ? 1 : 0) + (b ? 2 : 0)
        while engine.decision(ctx) == 1 {
            ref += 1
            ctx = ref == 1 ? 58 : 59
            guard ref <= refMax else { throw SliceDataError(field: list == 0 ? "ref_idx_l0" : "ref_idx_l1") }
        }
        return ref
    }

    /// mvd_lX of a partition (both components, §9.3.2.3 and §9.3.3.1.1.7 with the list's own absolute
    /// differences), recorded for the blocks it covers; returns the motion vector: the list's predictor
    /// (§8.4.1.3) plus the difference.
    @inline(__always)
    func partitionVectorCABAC(list: Int, _ mb: Int, x: Int, y: Int, w: Int, h: Int, ref: Int, shape: Int, left: Int, top: Int,
                              _ engine: inout CABACDecoder) throws(SliceDataError) -> (Int32, Int32) {
        let tableX = list == 0 ? cabac.mvdX : cabac.mvdX1, tableY = list == 0 ? cabac.mvdY : cabac.mvdY1
        let mvdX = try motionVectorDifference(mb, x: x, y: y, table: tableX, offset: 40, left: left, top: top, &engine)
        let mvdY = try motionVectorDifference(mb, x: x, y: y, table: tableY, offset: 47, left: left, top: top, &engine)
        let absX = UInt8(min(mvdX.magnitude, 255)), absY = UInt8(min(mvdY.magnitude, 255))
        for j in y..<(y + h) {
            for i in x..<(x + w) {
                tableX[mb * 16 + j * 4 + i] = absX
                tableY[mb * 16 + j * 4 + i] = absY
            }
        }
        return partitionVector(list: list, x: x, y: y, w: w, ref: ref, shape: shape, mvd: (mvdX, mvdY))
    }

    /// An inter macroblock of a B slice with CABAC (`mb_type` 0…22, Table 7-14; `sub_mb_type` Table 7-18):
    /// `mb_pred( )` / `sub_mb_pred( )` (§7.3.5.1, §7.3.5.2: every ref_idx_l0, every ref_idx_l1, every mvd_l0,
    /// every mvd_l1) with the contexts of §9.3.3.1.1.6 and §9.3.3.1.1.7, direct prediction (§8.4.1.2), the
    /// prediction of each partition (§8.4.2), coded_block_pattern, transform_size_8x8_flag where §7.3.5 allows
    /// it (no sub-macroblock partition below 8x8, direct parts only with direct_8x8_inference_flag),
    /// mb_qp_delta and the residual; the reconstruction is the CAVLC path's.
    func decodeBMacroblockCABAC(_ mb: Int, type: Int, _ engine: inout CABACDecoder, _ context: inout SliceContext,
                                _ state: inout CABACSliceState) throws(SliceDataError) {
        loadBMotionCaches(mb, &context)
        cabac.clearMotionDifferences(mb)
        let (left, top) = neighbours(mb, &context)
        let refMax0 = activeReferenceCount(context.referenceCount, mb) - 1, refMax1 = activeReferenceCount(context.referenceCountL1, mb) - 1
        let inference = context.sps.direct8x8InferenceFlag
        var direct = 0
        // noSubMbPartSizeLessThan8x8Flag, and B_Direct_16x16 only with direct_8x8_inference_flag (§7.3.5).
        var transformAllowed = true
        if type == BMacroblockTypes.direct16x16 {
            direct = 0x1F
            transformAllowed = inference
            deriveDirect(mb, subMask: 15, &context)
            predictDirect(mb, subMask: 15, &context)
        } else if type < BMacroblockTypes.b8x8 {
            let entry = BMacroblockTypes.macroblock[type]
            let count = entry.shape == 0 ? 1 : 2
            @inline(__always) func geometry(_ part: Int) -> (Int, Int, Int, Int) {
                switch entry.shape {
                case 0: (0, 0, 4, 4)
                case 1: (0, part * 2, 4, 2)
                default: (part * 2, 0, 2, 4)
                }
            }
            var refs = InlineArray<4, Int>(repeating: -1)  // [list · 2 + partition]
            for list in 0..<2 {
                let bit: UInt8 = list == 0 ? BMacroblockTypes.list0 : BMacroblockTypes.list1
                var quadrants = InlineArray<4, Int>(repeating: 0)
                for part in 0..<count where (part == 0 ? entry.first : entry.second) & bit != 0 {
                    let (x, y, _, _) = geometry(part)
                    let ref = try referenceIndexCABAC(list: list, mb, x: x, y: y, left: left, top: top, quadrants: quadrants,
                                                      refMax: list == 0 ? refMax0 : refMax1, &engine)
                    refs[list * 2 + part] = ref
                    switch entry.shape {
                    case 0: for q in 0..<4 { quadrants[q] = ref }
                    case 1: quadrants[2 * part] = ref; quadrants[2 * part + 1] = ref
                    default: quadrants[part] = ref; quadrants[part + 2] = ref
                    }
                }
            }
            for list in 0..<2 {
                for part in 0..<count {
                    let (x, y, w, h) = geometry(part)
                    let ref = refs[list * 2 + part]
                    var mv: (Int32, Int32) = (0, 0)
                    if ref >= 0 {
                        mv = try partitionVectorCABAC(list: list, mb, x: x, y: y, w: w, h: h, ref: ref, shape: entry.shape,
                                                      left: left, top: top, &engine)
                    }
                    setPartitionMotion(list: list, mb, x: x, y: y, w: w, h: h, ref: ref, mv: mv,
                                       identity: referenceIdentity(list: list, ref, &context))
                }
            }
            for part in 0..<count {
                let (x, y, w, h) = geometry(part)
                predictBlock(mb, x: x, y: y, w: w, h: h, &context)
            }
        } else {
            var subTypes = InlineArray<4, Int>(repeating: 0)
            for i in 0..<4 {
                let sub = bSubMacroblockTypeCABAC(&engine)
                subTypes[i] = sub
                if sub == 0 {
                    direct |= 1 << i
                    if !inference { transformAllowed = false }
                } else if BMacroblockTypes.subMacroblock[sub].shape != 0 {
                    transformAllowed = false
                }
            }
            if direct != 0 {
                deriveDirect(mb, subMask: direct, &context)
                // The blocks right of sub-macroblocks 0 and 2 are not yet decoded for them (§6.4.11.7).
                refCache[Self.cacheIndex(2, 0)] = -2
                refCache[Self.cacheIndex(2, 2)] = -2
                refCacheL1[Self.cacheIndex(2, 0)] = -2
                refCacheL1[Self.cacheIndex(2, 2)] = -2
            }
            var refs = InlineArray<8, Int>(repeating: -1)  // [list · 4 + sub-macroblock]
            for list in 0..<2 {
                let bit: UInt8 = list == 0 ? BMacroblockTypes.list0 : BMacroblockTypes.list1
                var quadrants = InlineArray<4, Int>(repeating: 0)
                for i in 0..<4 where BMacroblockTypes.subMacroblock[subTypes[i]].prediction & bit != 0 {
                    let ref = try referenceIndexCABAC(list: list, mb, x: (i & 1) * 2, y: (i >> 1) * 2, left: left, top: top,
                                                      quadrants: quadrants, refMax: list == 0 ? refMax0 : refMax1, &engine)
                    refs[list * 4 + i] = ref
                    quadrants[i] = ref
                }
            }
            for list in 0..<2 {
                for i in 0..<4 where subTypes[i] != 0 {
                    let shape = BMacroblockTypes.subMacroblock[subTypes[i]].shape
                    let ref = refs[list * 4 + i]
                    let identity = referenceIdentity(list: list, ref, &context)
                    let sx = (i & 1) * 2, sy = (i >> 1) * 2
                    for k in 0..<BMacroblockTypes.subPartitionCount(shape) {
                        let part = BMacroblockTypes.subPartition(shape, k)
                        var mv: (Int32, Int32) = (0, 0)
                        if ref >= 0 {
                            mv = try partitionVectorCABAC(list: list, mb, x: sx + part.x, y: sy + part.y, w: part.w, h: part.h, ref: ref,
                                                          shape: 0, left: left, top: top, &engine)
                        }
                        setPartitionMotion(list: list, mb, x: sx + part.x, y: sy + part.y, w: part.w, h: part.h, ref: ref, mv: mv,
                                           identity: identity)
                    }
                }
            }
            for i in 0..<4 {
                if subTypes[i] == 0 {
                    predictDirect(mb, subMask: 1 << i, &context)
                    continue
                }
                let shape = BMacroblockTypes.subMacroblock[subTypes[i]].shape
                let sx = (i & 1) * 2, sy = (i >> 1) * 2
                for k in 0..<BMacroblockTypes.subPartitionCount(shape) {
                    let part = BMacroblockTypes.subPartition(shape, k)
                    predictBlock(mb, x: sx + part.x, y: sy + part.y, w: part.w, h: part.h, &context)
                }
            }
        }
        let cbp = codedBlockPatternCABAC(mb, &engine, &context)
        let transform8x8 = cbp & 15 != 0 && context.pps.transform8x8ModeFlag && transformAllowed
            && transformSize8x8FlagCABAC(left: left, top: top, &engine)
        if cbp != 0 { try qpDeltaCABAC(&engine, &context, &state) } else { state.previousQPDeltaNonZero = false }
        record(mb, kind: Kind.inter, qp: context.qp, &context)
        for i in 0..<16 { intraModes[mb * 16 + i] = 2 }
        let codedDC = try residualCABAC(mb, cbp: cbp, intra16x16: false, isIntra: false, transform8x8: transform8x8, &engine, &context)
        cabac.record(mb, skip: false, cbp: cbp, chromaMode: 0, codedDC: codedDC, direct: direct)
        if engine.isOverrun { throw SliceDataError(field: "macroblock_layer (slice data cut short)") }
        addLumaResidual(mb, qP: context.qp, picture: context.picture)
        if context.hasChroma { addChromaResidual(mb, cbp: cbp, picture: context.picture) }
    }
}
