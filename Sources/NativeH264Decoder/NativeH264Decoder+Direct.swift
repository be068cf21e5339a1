extension NativeH264Decoder {
    /// Writes one 4x4 block's motion of one list (refIdxLX, mvLX of §8.4.1) into that list's cache and the picture's tables.
    /// For a field macroblock of an MBAFF frame the callers pass its field reference index, its vector in field quarter
    /// samples and the identity of the reference field (frame identity + 1 top, + 2 bottom; NativeH264Decoder+MBAFFInter.swift).
    @inline(__always)
    func setMotion(list: Int, _ mb: Int, x: Int, y: Int, ref: Int, mv: (Int32, Int32), identity: Int32) {
        let index = Self.cacheIndex(x, y), block = mb * 16 + y * 4 + x
        if list == 0 {
            refCache[index] = Int8(truncatingIfNeeded: ref); mvCache[2 * index] = mv.0; mvCache[2 * index + 1] = mv.1
            refIndices[block] = Int8(truncatingIfNeeded: ref); refIdentities[block] = identity
            motionX[block] = mv.0; motionY[block] = mv.1
        } else {
            refCacheL1[index] = Int8(truncatingIfNeeded: ref); mvCacheL1[2 * index] = mv.0; mvCacheL1[2 * index + 1] = mv.1
            refIndicesL1[block] = Int8(truncatingIfNeeded: ref); refIdentitiesL1[block] = identity
            motionXL1[block] = mv.0; motionYL1[block] = mv.1
        }
    }

    /// The identity of the picture RefPicListX[refIdx] means (§8.4.2.1; −1 for an unused list); a missing
    /// picture is replaced as motion compensation replaces it.
    @inline(__always)
    func referenceIdentity(list: Int, _ ref: Int, _ context: inout SliceContext) -> Int32 {
        guard ref >= 0 else { return -1 }
        let picture = list == 0 ? referencePicture(ref, &context) : referencePictureL1(ref, &context)
        return Int32(truncatingIfNeeded: picture?.identity ?? -1)
    }

    /// Derives the motion of the direct-predicted 8x8 sub-macroblocks in `subMask` (bit i for sub-macroblock
    /// i; 15 for B_Skip and B_Direct_16x16) and writes it into both lists' caches and tables (§8.4.1.2):
    /// spatial (§8.4.1.2.2) or temporal (§8.4.1.2.3) as the slice header says, from the co-located block of
    /// RefPicList1[0] (§8.4.1.2.1; the corner 4x4 block of each 8x8 with direct_8x8_inference_flag).
    /// The neighbours' motion must already be in the caches (``loadMotionCache(_:_:)`` for both lists).
    func deriveDirect(_ mb: Int, subMask: Int, _ context: inout SliceContext) {
        let colocated = context.referenceList1.first ?? nil
        // A co-located picture that is missing or was inferred for a gap in frame_num (lost): its motion is
        // taken as intra (zero), and the slice reports the missing reference.
        if colocated == nil || colocated?.isNonExisting == true { context.missingReference = true }
        let inference = context.sps.direct8x8InferenceFlag
        if interlace.mbaff {
            deriveMBAFFDirect(mb, subMask: subMask, colocated: colocated, &context)
            return
        }
        if !context.sps.frameMbsOnlyFlag, deriveMixedDirect(mb, subMask: subMask, colocated: colocated, &context) { return }
        if context.header.directSpatialMvPredFlag {
            deriveSpatialDirect(mb, subMask: subMask, colocated: colocated, inference: inference, &context)
        } else {
            deriveTemporalDirect(mb, subMask: subMask, colocated: colocated, inference: inference, &context)
        }
    }

    /// refIdxL0, refIdxL1 and the motion vector predictors of spatial direct prediction (§8.4.1.2.2) from the neighbours A,
    /// B and C (D when C is not available) of the whole macroblock in both lists' caches: each list's reference index is
    /// the smallest non-negative of the three, its vector the median prediction for a 16x16 partition (§8.4.1.3); when
    /// neither list has one (`directZero`), both reference indices are 0 and the vectors zero. In an MBAFF frame the
    /// caches hold the neighbours already scaled to the current macroblock's frame/field coding.
    @inline(__always)
    func spatialDirectPredictors(mbaff: Bool) -> (refs: (Int, Int), vectors: ((Int32, Int32), (Int32, Int32)), directZero: Bool) {
        var refs = (-1, -1)
        var vectors: ((Int32, Int32), (Int32, Int32)) = ((0, 0), (0, 0))
        @inline(__always) func minPositive(_ x: Int, _ y: Int) -> Int { x >= 0 && y >= 0 ? min(x, y) : max(x, y) }
        for list in 0..<2 {
            let cache = list == 0 ? refCache : refCacheL1, vectorsCache = list == 0 ? mvCache : mvCacheL1
            let a = Int(cache[Self.cacheIndex(-1, 0)]), b = Int(cache[Self.cacheIndex(0, -1)])
            var c = Int(cache[Self.cacheIndex(4, -1)])
            if c == -2 { c = Int(cache[Self.cacheIndex(-1, -1)]) }
            let ref = minPositive(max(a, -1), minPositive(max(b, -1), max(c, -1)))
            var mv: (Int32, Int32) = (0, 0)
            if ref >= 0 { mv = Self.predictMotion(x: 0, y: 0, w: 4, ref: ref, shape: 0, refCache: cache, mvCache: vectorsCache, mbaff: mbaff) }
            if list == 0 { refs.0 = ref; vectors.0 = mv } else { refs.1 = ref; vectors.1 = mv }
        }
        let directZero = refs.0 < 0 && refs.1 < 0
        if directZero { refs = (0, 0) }
        return (refs, vectors, directZero)
    }

    /// Spatial direct prediction (§8.4.1.2.2) of the 8x8 sub-macroblocks in `subMask` with direct_8x8_inference (as in
    /// interlaced streams): one vector pair for the macroblock (``spatialDirectPredictors(mbaff:)``), zeroed per 8x8 for a
    /// list whose reference index is 0 when the co-located block (`colocatedBlock(x8, y8)`, its corner 4x4 block) of a
    /// short-term picture is still (colZeroFlag: reference index 0, both components within ±1); written into both lists'
    /// caches and tables.
    @inline(__always)
    func deriveSpatialDirect8x8(_ mb: Int, subMask: Int, mbaff: Bool, colocatedShortTerm: Bool, _ context: inout SliceContext,
                                colocatedBlock: (Int, Int) -> (ref: Int, identity: Int32, mv: (Int32, Int32))?) {
        let (refs, vectors, directZero) = spatialDirectPredictors(mbaff: mbaff)
        let identity0 = referenceIdentity(list: 0, refs.0, &context), identity1 = referenceIdentity(list: 1, refs.1, &context)
        for sub in 0..<4 where subMask & (1 << sub) != 0 {
            let x8 = sub & 1, y8 = sub >> 1
            var mv0 = vectors.0, mv1 = vectors.1
            if !directZero && colocatedShortTerm && (refs.0 == 0 || refs.1 == 0), let col = colocatedBlock(x8, y8), col.ref == 0,
               (-1...1).contains(col.mv.0), (-1...1).contains(col.mv.1) {
                if refs.0 == 0 { mv0 = (0, 0) }
                if refs.1 == 0 { mv1 = (0, 0) }
            }
            for j in (2 * y8)..<(2 * y8 + 2) {
                for i in (2 * x8)..<(2 * x8 + 2) {
                    setMotion(list: 0, mb, x: i, y: j, ref: refs.0, mv: refs.0 >= 0 ? mv0 : (0, 0), identity: identity0)
                    setMotion(list: 1, mb, x: i, y: j, ref: refs.1, mv: refs.1 >= 0 ? mv1 : (0, 0), identity: identity1)
                }
            }
        }
    }

    /// The co-located block's motion (§8.4.1.2.1, Table 8-6 for frames): list 0's when it used list 0,
    /// list 1's otherwise; `nil` for an intra block or no co-located picture.
    @inline(__always)
    func colocatedMotion(_ colocated: DecoderPicture?, block: Int) -> (ref: Int, identity: Int32, mv: (Int32, Int32))? {
        guard let motion = colocated?.motion else { return nil }
        return Self.colocatedMotion(motion, block: block)
    }

    /// The motion of block `block` of a co-located picture's tables (§8.4.1.2.1): list 0's when it used list 0, list 1's
    /// otherwise; nil for an intra block.
    @inline(__always)
    static func colocatedMotion(_ motion: PictureMotion, block: Int) -> (ref: Int, identity: Int32, mv: (Int32, Int32))? {
        guard block < motion.blockCount else { return nil }
        let ref0 = Int(motion.referenceIndices[block])
        if ref0 >= 0 { return (ref0, motion.referenceIdentities[block], (motion.motionX[block], motion.motionY[block])) }
        let other = block + motion.blockCount
        let ref1 = Int(motion.referenceIndices[other])
        guard ref1 >= 0 else { return nil }
        return (ref1, motion.referenceIdentities[other], (motion.motionX[other], motion.motionY[other]))
    }

    /// Spatial direct prediction (§8.4.1.2.2): each list's reference index is MinPositive of the
    /// neighbours A, B and C of the macroblock (C replaced by D when absent), both 0 with zero vectors
    /// when neither is positive; the vector is the 16x16 predictor of that reference, set to zero in a
    /// block whose co-located block is still (colZeroFlag: RefPicList1[0] short-term, refIdxCol 0, both
    /// components within ±1) when the reference index is 0.
    func deriveSpatialDirect(_ mb: Int, subMask: Int, colocated: DecoderPicture?, inference: Bool, _ context: inout SliceContext) {
        let (refs, vectors, directZero) = spatialDirectPredictors(mbaff: false)
        let identity0 = referenceIdentity(list: 0, refs.0, &context), identity1 = referenceIdentity(list: 1, refs.1, &context)
        let colocatedShortTerm = colocated.map { $0.marking == .shortTerm } ?? false
        for sub in 0..<4 where subMask & (1 << sub) != 0 {
            let sx = (sub & 1) * 2, sy = (sub >> 1) * 2
            var subStill: Bool?
            for j in sy..<(sy + 2) {
                for i in sx..<(sx + 2) {
                    var mv0 = vectors.0, mv1 = vectors.1
                    if !directZero && colocatedShortTerm && (refs.0 == 0 || refs.1 == 0) {
                        // colZeroFlag: with direct_8x8_inference_flag one corner block answers for the whole 8x8.
                        let still: Bool
                        if inference, let known = subStill {
                            still = known
                        } else {
                            let block = mb * 16 + (inference ? (sy == 0 ? 0 : 12) + (sx == 0 ? 0 : 3) : j * 4 + i)
                            if let col = colocatedMotion(colocated, block: block), col.ref == 0,
                               (-1...1).contains(col.mv.0), (-1...1).contains(col.mv.1) { still = true } else { still = false }
                            subStill = still
                        }
                        if still {
                            if refs.0 == 0 { mv0 = (0, 0) }
                            if refs.1 == 0 { mv1 = (0, 0) }
                        }
                    }
                    setMotion(list: 0, mb, x: i, y: j, ref: refs.0, mv: refs.0 >= 0 ? mv0 : (0, 0), identity: identity0)
                    setMotion(list: 1, mb, x: i, y: j, ref: refs.1, mv: refs.1 >= 0 ? mv1 : (0, 0), identity: identity1)
                }
            }
        }
    }

    /// Temporal direct prediction (§8.4.1.2.3): refIdxL0 is the lowest list-0 index of the picture the
    /// co-located block referred to (0 for an intra block), refIdxL1 is 0; the vectors are the co-located
    /// vector scaled by DistScaleFactor (mvL0 = (DistScaleFactor·mvCol + 128) >> 8, mvL1 = mvL0 − mvCol),
    /// or mvCol and zero when the list-0 picture is long-term or has RefPicList1[0]'s picture order count.
    func deriveTemporalDirect(_ mb: Int, subMask: Int, colocated: DecoderPicture?, inference: Bool, _ context: inout SliceContext) {
        let current = context.picture.pictureOrderCount
        let identity1 = referenceIdentity(list: 1, 0, &context)
        for sub in 0..<4 where subMask & (1 << sub) != 0 {
            let sx = (sub & 1) * 2, sy = (sub >> 1) * 2
            for j in sy..<(sy + 2) {
                for i in sx..<(sx + 2) {
                    let block = mb * 16 + (inference ? (sy == 0 ? 0 : 12) + (sx == 0 ? 0 : 3) : j * 4 + i)
                    var ref0 = 0
                    var mvCol: (Int32, Int32) = (0, 0)
                    if let col = colocatedMotion(colocated, block: block) {
                        mvCol = col.mv
                        ref0 = context.referenceList.firstIndex { $0.map { Int32(truncatingIfNeeded: $0.identity) == col.identity } ?? false } ?? 0
                    }
                    let picture0 = referencePicture(ref0, &context)
                    var mv0 = mvCol, mv1: (Int32, Int32) = (0, 0)
                    if let picture0, let colocated, picture0.marking != .longTerm,
                       let scale = PredictionWeights.distScaleFactor(current: current, picture0.pictureOrderCount, colocated.pictureOrderCount) {
                        let x = (scale * Int(mvCol.0) + 128) >> 8, y = (scale * Int(mvCol.1) + 128) >> 8
                        mv0 = (Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y))
                        mv1 = (mv0.0 &- mvCol.0, mv0.1 &- mvCol.1)
                    }
                    setMotion(list: 0, mb, x: i, y: j, ref: ref0, mv: mv0, identity: Int32(truncatingIfNeeded: picture0?.identity ?? -1))
                    setMotion(list: 1, mb, x: i, y: j, ref: 0, mv: mv1, identity: identity1)
                }
            }
        }
    }

    /// Inter prediction (§8.4.2) of the direct-predicted sub-macroblocks in `subMask` from the motion
    /// ``deriveDirect(_:subMask:_:)`` wrote: per 8x8 with direct_8x8_inference_flag, per 4x4 otherwise.
    func predictDirect(_ mb: Int, subMask: Int, _ context: inout SliceContext) {
        let inference = context.sps.direct8x8InferenceFlag
        if subMask == 15 && sameMotion(mb) {
            // One prediction for the macroblock when all its blocks share their motion (the samples are the same).
            predictBlock(mb, x: 0, y: 0, w: 4, h: 4, &context)
            return
        }
        for sub in 0..<4 where subMask & (1 << sub) != 0 {
            let sx = (sub & 1) * 2, sy = (sub >> 1) * 2
            if inference {
                predictBlock(mb, x: sx, y: sy, w: 2, h: 2, &context)
            } else {
                for j in sy..<(sy + 2) { for i in sx..<(sx + 2) { predictBlock(mb, x: i, y: j, w: 1, h: 1, &context) } }
            }
        }
    }

    /// Whether the 16 blocks of a macroblock have the same reference indices and vectors in both lists (then §8.4.2
    /// predicts the same samples as one 16x16 partition).
    func sameMotion(_ mb: Int) -> Bool {
        let base = mb * 16
        let r0 = refIndices + base, r1 = refIndicesL1 + base, x0 = motionX + base, y0 = motionY + base
        let x1 = motionXL1 + base, y1 = motionYL1 + base
        // Differences ORed together without early exits, so that the loop vectorises.
        var references: Int8 = 0, vectors: Int32 = 0
        for block in 1..<16 {
            references |= (r0[block] ^ r0[0]) | (r1[block] ^ r1[0])
            vectors |= (x0[block] ^ x0[0]) | (y0[block] ^ y0[0]) | (x1[block] ^ x1[0]) | (y1[block] ^ y1[0])
        }
        return references == 0 && vectors == 0
    }

    /// Inter prediction (§8.4.2) of a partition from the motion stored in the tables for its top-left block.
    @inline(__always)
    func predictBlock(_ mb: Int, x: Int, y: Int, w: Int, h: Int, _ context: inout SliceContext) {
        let block = mb * 16 + y * 4 + x
        predictPartition(mb, x: x, y: y, w: w, h: h, ref0: Int(refIndices[block]), mv0: (motionX[block], motionY[block]),
                         ref1: Int(refIndicesL1[block]), mv1: (motionXL1[block], motionYL1[block]), &context)
    }

    /// Makes every block's list-1 motion "not used" (predFlagL1 0, §8.4.1) at the start of a picture: macroblocks of P and I
    /// slices never write list 1, so their blocks read as list-0-only for deblocking and direct prediction.
    func resetListOneMotion() {
        let count = widthInMbs * heightInMbs * 16
        refIndicesL1.update(repeating: -1, count: count)
        refIdentitiesL1.update(repeating: -1, count: count)
        motionXL1.update(repeating: 0, count: count)
        motionYL1.update(repeating: 0, count: count)
    }

    /// Points the motion tables (both lists) into `motion`: the current frame's own, or the decoder's.
    /// - Parameter motion: tables of at least the picture's blocks.
    func useMotion(_ motion: PictureMotion) {
        let one = motion.blockCount
        refIndices = motion.referenceIndices
        refIdentities = motion.referenceIdentities
        motionX = motion.motionX
        motionY = motion.motionY
        refIndicesL1 = motion.referenceIndices + one
        refIdentitiesL1 = motion.referenceIdentities + one
        motionXL1 = motion.motionX + one
        motionYL1 = motion.motionY + one
    }

    /// Keeps a finished picture's motion for later B slices' direct prediction (§8.4.1.2.1): both lists'
    /// tables copied (unless the picture was decoded into its own, see `useMotion`), intra and concealed
    /// macroblocks marked intra (−1 in both lists).
    func storeMotion(of picture: DecoderPicture) {
        let motion = picture.motion
        let count = widthInMbs * heightInMbs * 16
        guard motion.blockCount >= count else { return }
        let one = motion.blockCount
        if motion.referenceIndices != refIndices {
            copyMotion(into: motion, count: count)
        }
        for mb in 0..<(widthInMbs * heightInMbs) where mbSlice[mb] < pictureFirstSlice || mbKind[mb] != Kind.inter {
            for block in (mb * 16)..<(mb * 16 + 16) {
                motion.referenceIndices[block] = -1
                motion.referenceIndices[block + one] = -1
            }
        }
    }

    /// Copies the motion tables into a picture's (a field picture's, decoded in the decoder's own tables).
    func copyMotion(into motion: PictureMotion, count: Int) {
        let one = motion.blockCount
        motion.referenceIndices.update(from: refIndices, count: count)
        (motion.referenceIndices + one).update(from: refIndicesL1, count: count)
        motion.referenceIdentities.update(from: refIdentities, count: count)
        (motion.referenceIdentities + one).update(from: refIdentitiesL1, count: count)
        motion.motionX.update(from: motionX, count: count)
        (motion.motionX + one).update(from: motionXL1, count: count)
        motion.motionY.update(from: motionY, count: count)
        (motion.motionY + one).update(from: motionYL1, count: count)
    }

    /// bS 1 or 0 of an edge between two inter blocks without coefficients (§8.7.2.1), across both lists: 1
    /// when they use different reference pictures or a different number of vectors, or when the vectors
    /// for the same picture differ by 4 quarter samples or more horizontally, `verticalLimit` vertically (4 in
    /// frame macroblocks, 2 in field macroblocks: 4 quarter frame samples are 2 quarter field samples).
    @inline(__always)
    func motionStrength(p: Int, q: Int, verticalLimit: Int) -> Int {
        let p0 = refIdentities[p], p1 = refIdentitiesL1[p], q0 = refIdentities[q], q1 = refIdentitiesL1[q]
        @inline(__always) func far(_ a: Int, list a1: Int, _ b: Int, list b1: Int) -> Bool {
            let ax = a1 == 0 ? motionX[a] : motionXL1[a], ay = a1 == 0 ? motionY[a] : motionYL1[a]
            let bx = b1 == 0 ? motionX[b] : motionXL1[b], by = b1 == 0 ? motionY[b] : motionYL1[b]
            // In Int: hostile vectors may be far apart (a difference of Int32.min has no Int32 magnitude).
            return abs(Int(ax) - Int(bx)) >= 4 || abs(Int(ay) - Int(by)) >= verticalLimit
        }
        if p1 < 0 && q1 < 0 {
            // List 0 only (every P macroblock).
            if p0 != q0 { return 1 }
            return far(p, list: 0, q, list: 0) ? 1 : 0
        }
        let pCount = (p0 >= 0 ? 1 : 0) + (p1 >= 0 ? 1 : 0), qCount = (q0 >= 0 ? 1 : 0) + (q1 >= 0 ? 1 : 0)
        if pCount != qCount { return 1 }
        if pCount == 1 {
            let pList = p0 >= 0 ? 0 : 1, qList = q0 >= 0 ? 0 : 1
            if (pList == 0 ? p0 : p1) != (qList == 0 ? q0 : q1) { return 1 }
            return far(p, list: pList, q, list: qList) ? 1 : 0
        }
        if !((p0 == q0 && p1 == q1) || (p0 == q1 && p1 == q0)) { return 1 }
        if p0 != p1 {
            if p0 == q0 { return far(p, list: 0, q, list: 0) || far(p, list: 1, q, list: 1) ? 1 : 0 }
            return far(p, list: 0, q, list: 1) || far(p, list: 1, q, list: 0) ? 1 : 0
        }
        let straight = far(p, list: 0, q, list: 0) || far(p, list: 1, q, list: 1)
        let crossed = far(p, list: 0, q, list: 1) || far(p, list: 1, q, list: 0)
        return straight && crossed ? 1 : 0
    }
}
