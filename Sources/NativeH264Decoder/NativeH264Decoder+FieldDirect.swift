extension NativeH264Decoder {
    /// Direct prediction (§8.4.1.2) when the current picture and the co-located one differ in structure
    /// (§8.4.1.2.1, Table 8-6 and 8-8): a field whose co-located field belongs to a frame coded as a frame
    /// (the co-located 8x8 block of frame macroblock 2·row + y8, its 4x4 row 2·y8; temporal vectors halved
    /// vertically), or a frame whose co-located frame was coded as two fields (the field of the picture order
    /// count nearer the current frame's, field macroblock row/2, 4x4 row y8 + 2·(row mod 2); temporal vectors
    /// doubled vertically). A co-located MBAFF frame whose pair there is a field pair gives its field macroblock of the
    /// current field's parity instead (Table 8-8, fieldDecodingFlagX 1: One_To_One, corner blocks, vectors unscaled, the
    /// reference the field it referenced). Returns false when the structures agree (the frame/progressive path applies).
    func deriveMixedDirect(_ mb: Int, subMask: Int, colocated: DecoderPicture?, _ context: inout SliceContext) -> Bool {
        guard let colocated else { return false }
        let current = context.picture
        let w = widthInMbs, mbX = mb % w, mbY = mb / w
        var motion: PictureMotion
        var fieldFromFrame: Bool
        if current.fieldParity != 0 {
            guard let frame = colocated.frame, !frame.codedAsFields else { return false }
            motion = frame.motion
            fieldFromFrame = true
        } else {
            guard colocated.codedAsFields, let fields = colocated.fields else { return false }
            let poc = current.pictureOrderCount
            let parity = abs(PredictionWeights.pocDifference(fields.top.pictureOrderCount, poc))
                >= abs(PredictionWeights.pocDifference(fields.bottom.pictureOrderCount, poc)) ? 2 : 1
            motion = fields.field(parity).motion
            fieldFromFrame = false
        }
        // In a co-located MBAFF frame, a field pair: its macroblock of the current parity, one to one.
        let pairSlot = (2 * mbY) * w + mbX
        let fieldPair = fieldFromFrame && pairSlot < motion.macroblockCount && motion.fieldMacroblocks[pairSlot] != 0
        /// The co-located motion of sub-macroblock (x8, y8): nil when intra.
        func colocatedBlock(_ x8: Int, _ y8: Int) -> (ref: Int, identity: Int32, mv: (Int32, Int32))? {
            let block: Int
            if fieldPair {
                block = (pairSlot + (current.fieldParity - 1) * w) * 16 + y8 * 12 + x8 * 3
            } else if fieldFromFrame {
                block = ((2 * mbY + y8) * w + mbX) * 16 + (2 * y8) * 4 + x8 * 3
            } else {
                block = ((mbY / 2) * w + mbX) * 16 + (y8 + 2 * (mbY & 1)) * 4 + x8 * 3
            }
            return Self.colocatedMotion(motion, block: block)
        }
        if context.header.directSpatialMvPredFlag {
            deriveSpatialDirect8x8(mb, subMask: subMask, mbaff: false, colocatedShortTerm: colocated.marking == .shortTerm, &context,
                                   colocatedBlock: colocatedBlock)
            return true
        }
        let poc = current.pictureOrderCount
        let identity1 = referenceIdentity(list: 1, 0, &context)
        for sub in 0..<4 where subMask & (1 << sub) != 0 {
            let x8 = sub & 1, y8 = sub >> 1
            var ref0 = 0
            var mvCol: (Int32, Int32) = (0, 0)
            if let col = colocatedBlock(x8, y8) {
                mvCol = fieldPair ? col.mv : (col.mv.0, fieldFromFrame ? col.mv.1 / 2 : col.mv.1 &* 2)
                // The picture the co-located block meant, as the current list 0 holds it: the field a co-located field
                // macroblock referenced, the field of the frame a frame macroblock referenced with the current parity, or
                // the frame of that field.
                let wanted = fieldPair && col.identity & 3 != 0 ? col.identity
                    : fieldFromFrame ? (col.identity & ~3) + Int32(current.fieldParity) : col.identity & ~3
                ref0 = context.referenceList.firstIndex { $0.map { Int32(truncatingIfNeeded: $0.identity) == wanted } ?? false } ?? 0
            }
            let picture0 = referencePicture(ref0, &context)
            var mv0 = mvCol, mv1: (Int32, Int32) = (0, 0)
            if let picture0, picture0.marking != .longTerm,
               let scale = PredictionWeights.distScaleFactor(current: poc, picture0.pictureOrderCount, colocated.pictureOrderCount) {
                let x = (scale * Int(mvCol.0) + 128) >> 8, y = (scale * Int(mvCol.1) + 128) >> 8
                mv0 = (Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y))
                mv1 = (mv0.0 &- mvCol.0, mv0.1 &- mvCol.1)
            }
            for j in (2 * y8)..<(2 * y8 + 2) {
                for i in (2 * x8)..<(2 * x8 + 2) {
                    setMotion(list: 0, mb, x: i, y: j, ref: ref0, mv: mv0, identity: Int32(truncatingIfNeeded: picture0?.identity ?? -1))
                    setMotion(list: 1, mb, x: i, y: j, ref: 0, mv: mv1, identity: identity1)
                }
            }
        }
        return true
    }
}
