extension NativeH264Decoder {
    /// Loads both lists' neighbouring motion into their caches (§6.4.11.7).
    func loadBMotionCaches(_ mb: Int, _ context: inout SliceContext) {
        loadMotionCache(mb, &context)
        loadMotionCache(mb, &context, refIndices: refIndicesL1, motionX: motionXL1, motionY: motionYL1, refCache: refCacheL1, mvCache: mvCacheL1)
    }

    /// Records an inter macroblock without residual (B_Skip, §7.4.4), for deblocking (§8.7.2.1) and the neighbours' nC (§9.2.1).
    func recordSkipped(_ mb: Int, _ context: inout SliceContext) {
        record(mb, kind: Kind.inter, qp: context.qp, &context)
        for i in 0..<16 { intraModes[mb * 16 + i] = 2; lumaTotals[mb * 16 + i] = 0 }
        for i in 0..<8 { chromaTotals[mb * 8 + i] = 0 }
    }

    /// B_Skip (§7.4.4, §8.4.1.2): the whole macroblock direct-predicted, no residual, QP unchanged.
    func decodeBSkip(_ mb: Int, _ context: inout SliceContext) {
        loadBMotionCaches(mb, &context)
        deriveDirect(mb, subMask: 15, &context)
        recordSkipped(mb, &context)
        predictDirect(mb, subMask: 15, &context)
    }

    /// Writes a partition's motion of one list (§8.4.1; w×h 4x4 blocks at (x, y)) into the cache and tables.
    @inline(__always)
    func setPartitionMotion(list: Int, _ mb: Int, x: Int, y: Int, w: Int, h: Int, ref: Int, mv: (Int32, Int32), identity: Int32) {
        for j in y..<(y + h) { for i in x..<(x + w) { setMotion(list: list, mb, x: i, y: j, ref: ref, mv: mv, identity: identity) } }
    }

    /// The motion vector of one partition of one list (§8.4.1): its predictor (§8.4.1.3) from that list's
    /// cache plus the coded difference.
    @inline(__always)
    func partitionVector(list: Int, x: Int, y: Int, w: Int, ref: Int, shape: Int, mvd: (Int32, Int32)) -> (Int32, Int32) {
        let predictor = Self.predictMotion(x: x, y: y, w: w, ref: ref, shape: shape, refCache: list == 0 ? refCache : refCacheL1,
                                           mvCache: list == 0 ? mvCache : mvCacheL1, mbaff: interlace.mbaff)
        return (predictor.0 &+ mvd.0, predictor.1 &+ mvd.1)
    }

    /// An inter macroblock of a B slice with CAVLC (`mb_type` 0…22, Table 7-14; `sub_mb_type` Table 7-18):
    /// `mb_pred( )` / `sub_mb_pred( )` (§7.3.5.1, §7.3.5.2: every ref_idx_l0, every ref_idx_l1, every
    /// mvd_l0, every mvd_l1), direct prediction of B_Direct_16x16 and B_Direct_8x8 (§8.4.1.2), the
    /// prediction of each partition from one or both lists (§8.4.2), then coded_block_pattern,
    /// transform_size_8x8_flag where §7.3.5 allows it (no sub-macroblock partition below 8x8, direct parts only
    /// with direct_8x8_inference_flag), mb_qp_delta and the residual.
    func decodeBMacroblock(_ mb: Int, type: Int, _ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        loadBMotionCaches(mb, &context)
        let refMax0 = activeReferenceCount(context.referenceCount, mb) - 1, refMax1 = activeReferenceCount(context.referenceCountL1, mb) - 1
        @inline(__always) func readRef(_ list: Int, _ reader: inout SliceBitReader) throws(SliceDataError) -> Int {
            let refMax = list == 0 ? refMax0 : refMax1
            guard refMax > 0 else { return 0 }
            let ref = try reader.te(max: refMax)
            guard ref <= refMax else { throw SliceDataError(field: list == 0 ? "ref_idx_l0" : "ref_idx_l1") }
            return ref
        }
        let inference = context.sps.direct8x8InferenceFlag
        // noSubMbPartSizeLessThan8x8Flag, and B_Direct_16x16 only with direct_8x8_inference_flag (§7.3.5).
        var transformAllowed = true
        if type == BMacroblockTypes.direct16x16 {
            transformAllowed = inference
            deriveDirect(mb, subMask: 15, &context)
            predictDirect(mb, subMask: 15, &context)
        } else if type < BMacroblockTypes.b8x8 {
            let entry = BMacroblockTypes.macroblock[type]
            let count = entry.shape == 0 ? 1 : 2
            var refs = InlineArray<4, Int>(repeating: -1)  // [list · 2 + partition]
            for list in 0..<2 {
                let bit: UInt8 = list == 0 ? BMacroblockTypes.list0 : BMacroblockTypes.list1
                for part in 0..<count where (part == 0 ? entry.first : entry.second) & bit != 0 {
                    refs[list * 2 + part] = try readRef(list, &reader)
                }
            }
            @inline(__always) func geometry(_ part: Int) -> (Int, Int, Int, Int) {
                switch entry.shape {
                case 0: (0, 0, 4, 4)
                case 1: (0, part * 2, 4, 2)
                default: (part * 2, 0, 2, 4)
                }
            }
            for list in 0..<2 {
                for part in 0..<count {
                    let (x, y, w, h) = geometry(part)
                    let ref = refs[list * 2 + part]
                    var mv: (Int32, Int32) = (0, 0)
                    if ref >= 0 {
                        let mvd = (try reader.se(), try reader.se())
                        mv = partitionVector(list: list, x: x, y: y, w: w, ref: ref, shape: entry.shape, mvd: mvd)
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
            var directMask = 0
            for i in 0..<4 {
                let sub = Int(try reader.ue())
                guard sub <= BMacroblockTypes.lastSubMacroblock else { throw SliceDataError(field: "sub_mb_type") }
                subTypes[i] = sub
                if sub == 0 {
                    directMask |= 1 << i
                    if !inference { transformAllowed = false }
                } else if BMacroblockTypes.subMacroblock[sub].shape != 0 {
                    transformAllowed = false
                }
            }
            if directMask != 0 {
                deriveDirect(mb, subMask: directMask, &context)
                // The blocks right of sub-macroblocks 0 and 2 are not yet decoded for them (§6.4.11.7).
                refCache[Self.cacheIndex(2, 0)] = -2
                refCache[Self.cacheIndex(2, 2)] = -2
                refCacheL1[Self.cacheIndex(2, 0)] = -2
                refCacheL1[Self.cacheIndex(2, 2)] = -2
            }
            var refs = InlineArray<8, Int>(repeating: -1)  // [list · 4 + sub-macroblock]
            for list in 0..<2 {
                let bit: UInt8 = list == 0 ? BMacroblockTypes.list0 : BMacroblockTypes.list1
                for i in 0..<4 where BMacroblockTypes.subMacroblock[subTypes[i]].prediction & bit != 0 {
                    refs[list * 4 + i] = try readRef(list, &reader)
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
                            let mvd = (try reader.se(), try reader.se())
                            mv = partitionVector(list: list, x: sx + part.x, y: sy + part.y, w: part.w, ref: ref, shape: 0, mvd: mvd)
                        }
                        setPartitionMotion(list: list, mb, x: sx + part.x, y: sy + part.y, w: part.w, h: part.h, ref: ref, mv: mv, identity: identity)
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
        let cbp = try readCodedBlockPattern(&reader, intra: false, &context)
        let transform8x8 = cbp & 15 != 0 && context.pps.transform8x8ModeFlag && transformAllowed && reader.bit()
        if cbp != 0 { try readQPDelta(&reader, &context) }
        record(mb, kind: Kind.inter, qp: context.qp, &context)
        for i in 0..<16 { intraModes[mb * 16 + i] = 2 }
        try readResidual(mb, cbp: cbp, intra16x16: false, transform8x8: transform8x8, &reader, &context)
        addLumaResidual(mb, qP: context.qp, picture: context.picture)
        if context.hasChroma { addChromaResidual(mb, cbp: cbp, picture: context.picture) }
    }
}
