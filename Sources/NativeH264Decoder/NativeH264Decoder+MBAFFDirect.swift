extension NativeH264Decoder {
    /// Direct prediction (§8.4.1.2) of a macroblock of an MBAFF frame (B_Skip, B_Direct_16x16, B_Direct_8x8), the
    /// co-located picture RefPicList1[0] a frame (an MBAFF frame or not) or a complementary field pair (Table 8-6: for a
    /// frame macroblock its field nearer in picture order count, the bottom one when equally near; for a field macroblock
    /// its field of the macroblock's parity, the field macroblock (pair row, column) in either): per 8x8 sub-macroblock
    /// (direct_8x8_inference_flag is 1 in every interlaced sequence, §7.4.2.1.1) the co-located block of Table 8-8 for a
    /// current AFRM picture (§8.4.1.2.1):
    /// - both the current macroblock and the co-located pair frame, or both field (same parity): the macroblock in
    ///   the same place, the corner 4x4 block (One_To_One);
    /// - a frame macroblock over a field pair (Fld_To_Frm): the pair's field macroblock whose field's picture order
    ///   count is nearer the current frame's (the bottom one when equally near), 4x4 row 2·(current is bottom) + y8;
    ///   temporal vectors ×2 vertically, the reference the frame holding the co-located field;
    /// - a field macroblock over a frame pair (Frm_To_Fld): the pair's top frame macroblock for y8 = 0, its bottom one
    ///   for y8 = 1, 4x4 row 2·y8 (yM = (2·yCol) % 16); temporal vectors / 2 vertically, the reference the field of
    ///   the co-located frame with the current macroblock's parity.
    /// Spatial (§8.4.1.2.2): reference indices and the predictor from the neighbours in the cache (already scaled to
    /// the current macroblock's structure), colZeroFlag from the co-located vector unscaled. Temporal (§8.4.1.2.3):
    /// DistScaleFactor from field order counts for a field macroblock (its field, the reference field, the field of
    /// RefPicList1[0] of its parity), frame order counts otherwise.
    func deriveMBAFFDirect(_ mb: Int, subMask: Int, colocated: DecoderPicture?, _ context: inout SliceContext) {
        let w = widthInMbs, mbX = mb % w, mbY = mb / w
        let bottom = mbY & 1, pairTop = (mbY & ~1) * w + mbX
        let currentField = mbField[mb] != 0
        let pairFields = colocated?.codedAsFields == true ? colocated?.fields : nil
        let colPairField = pairFields != nil
            || (colocated?.motion).map { pairTop < $0.macroblockCount && $0.fieldMacroblocks[pairTop] != 0 } ?? false
        /// 0 One_To_One, 1 Fld_To_Frm, 2 Frm_To_Fld.
        let scale = currentField == colPairField ? 0 : (currentField ? 2 : 1)
        var colParity = 0
        if scale == 1, let fields = colocated?.fields {
            let poc = context.picture.pictureOrderCount
            colParity = abs(PredictionWeights.pocDifference(fields.top.pictureOrderCount, poc))
                >= abs(PredictionWeights.pocDifference(fields.bottom.pictureOrderCount, poc)) ? 1 : 0
        }
        // A complementary field pair: the motion of the field, its macroblock (pair row, column).
        let fieldMotion = pairFields.map { $0.field(currentField ? bottom + 1 : colParity + 1).motion }
        let fieldMb = (mbY >> 1) * w + mbX
        /// The co-located motion of sub-macroblock (x8, y8), nil when intra or no co-located picture.
        func colocatedBlock(_ x8: Int, _ y8: Int) -> (ref: Int, identity: Int32, mv: (Int32, Int32))? {
            if let fieldMotion {
                let row = scale == 1 ? 2 * bottom + y8 : 3 * y8
                return Self.colocatedMotion(fieldMotion, block: fieldMb * 16 + row * 4 + x8 * 3)
            }
            let block: Int
            switch scale {
            case 0: block = mb * 16 + y8 * 12 + x8 * 3
            case 1: block = (pairTop + colParity * w) * 16 + (2 * bottom + y8) * 4 + x8 * 3
            default: block = (pairTop + y8 * w) * 16 + (2 * y8) * 4 + x8 * 3
            }
            return colocatedMotion(colocated, block: block)
        }
        if context.header.directSpatialMvPredFlag {
            deriveSpatialDirect8x8(mb, subMask: subMask, mbaff: true, colocatedShortTerm: colocated.map { $0.marking == .shortTerm } ?? false, &context,
                                   colocatedBlock: colocatedBlock)
            return
        }
        // Temporal: the picture order counts of the current macroblock's frame or field and of RefPicList1[0]'s.
        let parity = bottom + 1
        let currentPOC = currentField ? (context.picture.fields?.field(parity).pictureOrderCount ?? context.picture.pictureOrderCount)
            : context.picture.pictureOrderCount
        let colocatedPOC = currentField ? (colocated?.fields?.field(parity).pictureOrderCount ?? colocated?.pictureOrderCount ?? 0)
            : colocated?.pictureOrderCount ?? 0
        let identity1 = referenceIdentity(list: 1, 0, &context)
        for sub in 0..<4 where subMask & (1 << sub) != 0 {
            let x8 = sub & 1, y8 = sub >> 1
            var ref0 = 0
            var mvCol: (Int32, Int32) = (0, 0)
            if let col = colocatedBlock(x8, y8) {
                switch scale {
                case 1: mvCol = (col.mv.0, col.mv.1 &* 2)
                case 2: mvCol = (col.mv.0, col.mv.1 / 2)
                default: mvCol = col.mv
                }
                ref0 = mapColocatedReference(col.identity, currentField: currentField, parity: parity, &context)
            }
            let picture0 = referencePicture(ref0, &context)
            var mv0 = mvCol, mv1: (Int32, Int32) = (0, 0)
            if let picture0, colocated != nil, picture0.marking != .longTerm,
               let factor = PredictionWeights.distScaleFactor(current: currentPOC, picture0.pictureOrderCount, colocatedPOC) {
                let x = (factor * Int(mvCol.0) + 128) >> 8, y = (factor * Int(mvCol.1) + 128) >> 8
                mv0 = (Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y))
                mv1 = (mv0.0 &- mvCol.0, mv0.1 &- mvCol.1)
            }
            let identity0 = Int32(truncatingIfNeeded: picture0?.identity ?? -1)
            for j in (2 * y8)..<(2 * y8 + 2) {
                for i in (2 * x8)..<(2 * x8 + 2) {
                    setMotion(list: 0, mb, x: i, y: j, ref: ref0, mv: mv0, identity: identity0)
                    setMotion(list: 1, mb, x: i, y: j, ref: 0, mv: mv1, identity: identity1)
                }
            }
        }
    }

    /// refIdxL0 of temporal direct prediction in an MBAFF frame (§8.4.1.2.3, MapColToList0): the lowest index of the
    /// current macroblock's list 0 that references what the co-located block referenced (`identity`: a frame's
    /// identity, a multiple of 4, or a field's, the frame's + parity). A frame macroblock takes the frame holding it; a
    /// field macroblock (`parity` 1 top, 2 bottom) the field the co-located field macroblock referenced, or the field of
    /// the frame a co-located frame macroblock referenced with the current macroblock's parity: index 2·k for the same
    /// parity, 2·k + 1 for the other, k the frame's index in RefPicList0. 0 when the list does not hold it.
    func mapColocatedReference(_ identity: Int32, currentField: Bool, parity: Int, _ context: inout SliceContext) -> Int {
        let frameIdentity = identity & ~3
        guard let k = context.referenceList.firstIndex(where: { $0.map { Int32(truncatingIfNeeded: $0.identity) == frameIdentity } ?? false })
        else { return 0 }
        guard currentField else { return k }
        let referencedParity = identity & 3 == 0 ? parity : Int(identity & 3)
        return 2 * k + (referencedParity == parity ? 0 : 1)
    }
}
