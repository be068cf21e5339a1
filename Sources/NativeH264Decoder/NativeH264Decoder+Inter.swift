import NativeH264Kernels

extension NativeH264Decoder {
    /// Cache index of 4x4 block (x, y) of the current macroblock, x in −1…4, y in −1…3.
    @inline(__always) static func cacheIndex(_ x: Int, _ y: Int) -> Int { (y + 1) * 8 + x + 1 }

    /// Loads the neighbours' reference indices and motion vectors around the current macroblock into
    /// the cache (§6.4.11.7): −2 where a neighbour is not available (or not yet decoded), −1 for intra.
    func loadMotionCache(_ mb: Int, _ context: inout SliceContext) {
        loadMotionCache(mb, &context, refIndices: refIndices, motionX: motionX, motionY: motionY, refCache: refCache, mvCache: mvCache)
    }

    /// Loads one list's neighbouring reference indices and motion vectors (list 0 or list 1 tables) into
    /// that list's cache (§6.4.11.7).
    func loadMotionCache(_ mb: Int, _ context: inout SliceContext, refIndices: UnsafeMutablePointer<Int8>, motionX: UnsafeMutablePointer<Int32>,
                         motionY: UnsafeMutablePointer<Int32>, refCache: UnsafeMutablePointer<Int8>, mvCache: UnsafeMutablePointer<Int32>) {
        if interlace.mbaff {
            loadMotionCacheMBAFF(mb, refIndices: refIndices, motionX: motionX, motionY: motionY, refCache: refCache, mvCache: mvCache)
            return
        }
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        for i in 0..<40 { refCache[i] = -2 }
        for i in 0..<80 { mvCache[i] = 0 }
        @inline(__always) func load(_ neighbour: Int, _ block: Int, _ x: Int, _ y: Int) {
            guard isAvailable(neighbour, &context) else { return }
            let index = Self.cacheIndex(x, y), source = neighbour * 16 + block
            refCache[index] = refIndices[source]
            mvCache[2 * index] = motionX[source]
            mvCache[2 * index + 1] = motionY[source]
        }
        if mbY > 0 {
            let top = mb - widthInMbs
            for x in 0..<4 { load(top, 12 + x, x, -1) }
            if mbX > 0 { load(top - 1, 15, -1, -1) }
            if mbX < widthInMbs - 1 { load(top + 1, 12, 4, -1) }
        }
        if mbX > 0 {
            for y in 0..<4 { load(mb - 1, y * 4 + 3, -1, y) }
        }
    }

    /// The motion vector predictor (§8.4.1.3) of a partition at (x, y), `w`×`h` 4x4 blocks, with
    /// reference index `ref`; `shape` 1 for 16x8, 2 for 8x16 (the directional rules), 0 otherwise.
    func predictMotion(x: Int, y: Int, w: Int, ref: Int, shape: Int) -> (Int32, Int32) {
        Self.predictMotion(x: x, y: y, w: w, ref: ref, shape: shape, refCache: refCache, mvCache: mvCache, mbaff: interlace.mbaff)
    }

    /// The motion vector predictor (§8.4.1.3) from one list's cache (list 0 or list 1). In an MBAFF frame
    /// (`mbaff`) neighbour D of a partition at the left edge below the macroblock's first row is the cache's spare
    /// column (``loadMotionCacheMBAFF(_:refIndices:motionX:motionY:refCache:mvCache:)``).
    static func predictMotion(x: Int, y: Int, w: Int, ref: Int, shape: Int, refCache: UnsafeMutablePointer<Int8>,
                              mvCache: UnsafeMutablePointer<Int32>, mbaff: Bool = false) -> (Int32, Int32) {
        let a = Self.cacheIndex(x - 1, y), b = Self.cacheIndex(x, y - 1)
        var c = Self.cacheIndex(x + w, y - 1)
        if refCache[c] == -2 { c = mbaff && x == 0 && y > 0 ? Self.cacheIndex(5, y) : Self.cacheIndex(x - 1, y - 1) }
        let refA = Int(refCache[a]), refB = Int(refCache[b]), refC = Int(refCache[c])
        if shape == 1 {
            if y == 0 && refB == ref { return (mvCache[2 * b], mvCache[2 * b + 1]) }
            if y != 0 && refA == ref { return (mvCache[2 * a], mvCache[2 * a + 1]) }
        } else if shape == 2 {
            if x == 0 && refA == ref { return (mvCache[2 * a], mvCache[2 * a + 1]) }
            if x != 0 && refC == ref { return (mvCache[2 * c], mvCache[2 * c + 1]) }
        }
        if refB == -2 && refC == -2 && refA != -2 { return (mvCache[2 * a], mvCache[2 * a + 1]) }
        let matches = (refA == ref ? 1 : 0) + (refB == ref ? 1 : 0) + (refC == ref ? 1 : 0)
        if matches == 1 {
            let n = refA == ref ? a : (refB == ref ? b : c)
            return (mvCache[2 * n], mvCache[2 * n + 1])
        }
        @inline(__always) func median(_ p: Int32, _ q: Int32, _ r: Int32) -> Int32 { max(min(p, q), min(max(p, q), r)) }
        return (median(mvCache[2 * a], mvCache[2 * b], mvCache[2 * c]), median(mvCache[2 * a + 1], mvCache[2 * b + 1], mvCache[2 * c + 1]))
    }

    /// Writes a partition's reference index and motion vector into the cache and the picture's tables (for a field
    /// macroblock of an MBAFF frame in field units, with the reference field's identity: NativeH264Decoder+MBAFFInter.swift).
    @inline(__always)
    func fill(_ mb: Int, x: Int, y: Int, w: Int, h: Int, ref: Int, mv: (Int32, Int32), identity: Int32) {
        for j in y..<(y + h) {
            for i in x..<(x + w) {
                let index = Self.cacheIndex(i, j)
                refCache[index] = Int8(ref)
                mvCache[2 * index] = mv.0
                mvCache[2 * index + 1] = mv.1
                let block = mb * 16 + j * 4 + i
                refIndices[block] = Int8(ref)
                refIdentities[block] = identity
                motionX[block] = mv.0
                motionY[block] = mv.1
            }
        }
    }

    /// The reference picture for a reference index, or a stand-in (the first existing entry, or the last
    /// decoded frame) when the list has none there (concealment); a missing or inferred (lost) frame is reported.
    /// For a field macroblock of an MBAFF frame, the reference field of `ref` (``referenceField(_:ref:mb:)``).
    func referencePicture(_ ref: Int, _ context: inout SliceContext) -> DecoderPicture? {
        if interlace.mbaff && mbField[context.currentMb] != 0 {
            return referenceField(frameReferencePicture(ref >> 1, &context), ref: ref, mb: context.currentMb)
        }
        return frameReferencePicture(ref, &context)
    }

    /// RefPicList0[ref] as the slice built it (frames in a frame), or its stand-in.
    func frameReferencePicture(_ ref: Int, _ context: inout SliceContext) -> DecoderPicture? {
        if ref < context.referenceList.count, let picture = context.referenceList[ref] {
            // A frame inferred for a gap in frame_num (§8.2.5.2) stands for a lost one: used, and reported.
            if picture.isNonExisting { context.missingReference = true }
            return picture
        }
        context.missingReference = true
        for case let picture? in context.referenceList { return picture }
        return lastDecoded !== context.picture ? lastDecoded : nil
    }

    /// P_Skip (§8.4.1.1): 16x16, reference 0, the predictor unless a neighbour is missing or still.
    func decodeSkip(_ mb: Int, _ context: inout SliceContext) {
        loadMotionCache(mb, &context)
        let a = Self.cacheIndex(-1, 0), b = Self.cacheIndex(0, -1)
        var mv: (Int32, Int32) = (0, 0)
        if refCache[a] != -2 && refCache[b] != -2
            && !(refCache[a] == 0 && mvCache[2 * a] == 0 && mvCache[2 * a + 1] == 0)
            && !(refCache[b] == 0 && mvCache[2 * b] == 0 && mvCache[2 * b + 1] == 0) {
            mv = predictMotion(x: 0, y: 0, w: 4, ref: 0, shape: 0)
        }
        let reference = referencePicture(0, &context)
        fill(mb, x: 0, y: 0, w: 4, h: 4, ref: 0, mv: mv, identity: Int32(truncatingIfNeeded: reference?.identity ?? -1))
        record(mb, kind: Kind.inter, qp: context.qp, &context)
        for i in 0..<16 { intraModes[mb * 16 + i] = 2; lumaTotals[mb * 16 + i] = 0 }
        for i in 0..<8 { chromaTotals[mb * 8 + i] = 0 }
        if context.weights.mode == .none {
            predictInter(mb, x: 0, y: 0, w: 4, h: 4, mv: mv, reference: reference, picture: context.picture)
        } else {
            predictPartition(mb, x: 0, y: 0, w: 4, h: 4, ref0: 0, mv0: mv, ref1: -1, mv1: (0, 0), &context)
        }
    }

    /// An inter macroblock of a P slice (`mb_type` 0…4, Table 7-13): reference indices, motion vector
    /// differences (§7.3.5.1, §7.3.5.2), prediction (§8.4) and residual.
    func decodeInterMacroblock(_ mb: Int, type: Int, _ reader: inout SliceBitReader, _ context: inout SliceContext) throws(SliceDataError) {
        loadMotionCache(mb, &context)
        let refMax = activeReferenceCount(context.referenceCount, mb) - 1
        @inline(__always) func readRef(_ reader: inout SliceBitReader) throws(SliceDataError) -> Int {
            guard refMax > 0 else { return 0 }
            let ref = try reader.te(max: refMax)
            guard ref <= refMax else { throw SliceDataError(field: "ref_idx_l0") }
            return ref
        }
        @inline(__always) func readMVD(_ reader: inout SliceBitReader) throws(SliceDataError) -> (Int32, Int32) {
            let x = try reader.se(), y = try reader.se()
            return (x, y)
        }
        // Reference indices first (mb_pred / sub_mb_pred order), then each partition's mvd in order: its
        // vector is predicted from the partitions before it, and it is predicted at once (no scratch lists).
        var refs = InlineArray<4, Int>(repeating: 0)
        var subTypes = InlineArray<4, Int>(repeating: 0)
        switch type {
        case 0:
            refs[0] = try readRef(&reader)
        case 1, 2:
            refs[0] = try readRef(&reader)
            refs[1] = try readRef(&reader)
        default:
            for i in 0..<4 {
                let sub = Int(try reader.ue())
                guard sub <= 3 else { throw SliceDataError(field: "sub_mb_type") }
                subTypes[i] = sub
            }
            if type == 3 { for i in 0..<4 { refs[i] = try readRef(&reader) } }
        }
        func partition(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ ref: Int, _ shape: Int, _ reader: inout SliceBitReader,
                       _ context: inout SliceContext) throws(SliceDataError) {
            let mvd = try readMVD(&reader)
            let predictor = predictMotion(x: x, y: y, w: w, ref: ref, shape: shape)
            let mv = (predictor.0 &+ mvd.0, predictor.1 &+ mvd.1)
            let reference = referencePicture(ref, &context)
            fill(mb, x: x, y: y, w: w, h: h, ref: ref, mv: mv, identity: Int32(truncatingIfNeeded: reference?.identity ?? -1))
            if context.weights.mode == .none {
                predictInter(mb, x: x, y: y, w: w, h: h, mv: mv, reference: reference, picture: context.picture)
            } else {
                predictPartition(mb, x: x, y: y, w: w, h: h, ref0: ref, mv0: mv, ref1: -1, mv1: (0, 0), &context)
            }
        }
        switch type {
        case 0:
            try partition(0, 0, 4, 4, refs[0], 0, &reader, &context)
        case 1:
            try partition(0, 0, 4, 2, refs[0], 1, &reader, &context)
            try partition(0, 2, 4, 2, refs[1], 1, &reader, &context)
        case 2:
            try partition(0, 0, 2, 4, refs[0], 2, &reader, &context)
            try partition(2, 0, 2, 4, refs[1], 2, &reader, &context)
        default:
            for i in 0..<4 {
                let sx = (i & 1) * 2, sy = (i >> 1) * 2, ref = refs[i]
                switch subTypes[i] {
                case 0:
                    try partition(sx, sy, 2, 2, ref, 0, &reader, &context)
                case 1:
                    try partition(sx, sy, 2, 1, ref, 0, &reader, &context)
                    try partition(sx, sy + 1, 2, 1, ref, 0, &reader, &context)
                case 2:
                    try partition(sx, sy, 1, 2, ref, 0, &reader, &context)
                    try partition(sx + 1, sy, 1, 2, ref, 0, &reader, &context)
                default:
                    try partition(sx, sy, 1, 1, ref, 0, &reader, &context)
                    try partition(sx + 1, sy, 1, 1, ref, 0, &reader, &context)
                    try partition(sx, sy + 1, 1, 1, ref, 0, &reader, &context)
                    try partition(sx + 1, sy + 1, 1, 1, ref, 0, &reader, &context)
                }
            }
        }
        let cbp = try readCodedBlockPattern(&reader, intra: false, &context)
        // transform_size_8x8_flag (§7.3.5): luma coded, and no sub-macroblock partition below 8x8.
        let transform8x8 = cbp & 15 != 0 && context.pps.transform8x8ModeFlag && (type < 3 || subTypes[0] | subTypes[1] | subTypes[2] | subTypes[3] == 0) && reader.bit()
        if cbp != 0 { try readQPDelta(&reader, &context) }
        record(mb, kind: Kind.inter, qp: context.qp, &context)
        for i in 0..<16 { intraModes[mb * 16 + i] = 2 }
        try readResidual(mb, cbp: cbp, intra16x16: false, transform8x8: transform8x8, &reader, &context)
        addLumaResidual(mb, qP: context.qp, picture: context.picture)
        if context.hasChroma { addChromaResidual(mb, cbp: cbp, picture: context.picture) }
    }

    /// Motion-compensated prediction of one partition (§8.4.2.2) into the picture: luma quarter-sample
    /// and 4:2:0 chroma eighth-sample interpolation from the reference frame.
    func predictInter(_ mb: Int, x: Int, y: Int, w: Int, h: Int, mv: (Int32, Int32), reference: DecoderPicture?, picture: DecoderPicture) {
        if interlace.mbaff && mbField[mb] != 0 {
            predictInterFieldMacroblock(mb, x: x, y: y, w: w, h: h, mv: mv, reference: reference, picture: picture)
            return
        }
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        let px = mbX * 16 + x * 4, py = mbY * 16 + y * 4
        guard let reference, reference.width == picture.width, reference.height == picture.height else {
            for row in 0..<(h * 4) { (picture.luma + (py + row) * picture.width + px).update(repeating: 128, count: w * 4) }
            if picture.chromaWidth > 0 {
                for row in 0..<(h * 2) {
                    let offset = (py / 2 + row) * picture.chromaWidth + px / 2
                    (picture.cb + offset).update(repeating: 128, count: w * 2)
                    (picture.cr + offset).update(repeating: 128, count: w * 2)
                }
            }
            return
        }
        let size: BlockSize
        switch (w, h) {
        case (4, 4): size = .w16h16
        case (4, 2): size = .w16h8
        case (2, 4): size = .w8h16
        case (2, 2): size = .w8h8
        case (2, 1): size = .w8h4
        case (1, 2): size = .w4h8
        default: size = .w4h4
        }
        let plane = PlaneView(base: reference.luma, width: reference.width, height: reference.height, stride: reference.width)
        LumaInterpolation.fast(plane, quarterX: px * 4 + Int(mv.0), quarterY: py * 4 + Int(mv.1), size: size,
                               into: picture.luma + py * picture.width + px, stride: picture.width)
        guard picture.chromaWidth > 0, reference.chromaWidth == picture.chromaWidth else { return }
        let cx = px / 2, cy = py / 2
        for component in 0..<2 {
            let source = component == 0 ? reference.cb : reference.cr, destination = component == 0 ? picture.cb : picture.cr
            let view = PlaneView(base: source, width: reference.chromaWidth, height: reference.chromaHeight, stride: reference.chromaWidth)
            ChromaInterpolation.fast(view, eighthX: cx * 8 + Int(mv.0), eighthY: cy * 8 + Int(mv.1) + Self.chromaFieldOffset(reference, picture), width: w * 2, height: h * 2,
                                     into: destination + cy * picture.chromaWidth + cx, stride: picture.chromaWidth)
        }
    }
}
