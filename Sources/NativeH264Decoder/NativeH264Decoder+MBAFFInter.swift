import NativeH264Kernels

/// Inter prediction in MBAFF frames (MbaffFrameFlag 1): the neighbours' motion through Table 6-4 with the
/// frame/field scaling of §8.4.1.3.1, the field references of field macroblocks (§8.4.2.1) and their motion
/// compensation into the rows of their field (§8.4.2.2), with weighted prediction (§8.4.2.3).
///
/// What the per-4x4-block tables hold for a field macroblock of an MBAFF frame (what deblocking and later
/// pictures read): `refIndices` the field reference index as coded (0 … 2·num_ref_idx_active − 1, not halved);
/// `motionX`/`motionY` the vector in the field's quarter samples (vertical: field rows, as coded);
/// `refIdentities` the identity of the reference *field*: ``DecoderPicture/identity`` of the field picture,
/// which is its frame's identity + 1 (top field) or + 2 (bottom field) — frame identities are multiples of 4 in
/// interlaced streams — so that the two fields of one frame differ, and `identity & ~3` is the frame. Frame
/// macroblocks hold frame reference indices, frame vectors and the frame's identity. ``mbField`` tells which.
extension NativeH264Decoder {
    /// Loads one list's neighbouring motion around macroblock `mb` of an MBAFF frame into that list's cache
    /// (§6.4.11.7 through ``mbaffNeighbours``): A per 4x4 row, B, C (above right) and D (above left), and in the
    /// spare column x = 5 of rows 1…3 neighbour D of a partition at the left edge whose top is that row (yN =
    /// 4·row − 1). Each neighbour's reference index and vertical vector are scaled to the current macroblock's
    /// structure (§8.4.1.3.1): a frame neighbour of a field macroblock refIdx · 2 and mvy / 2 (truncating), a field
    /// neighbour of a frame macroblock refIdx >> 1 and mvy · 2.
    func loadMotionCacheMBAFF(_ mb: Int, refIndices: UnsafeMutablePointer<Int8>, motionX: UnsafeMutablePointer<Int32>,
                              motionY: UnsafeMutablePointer<Int32>, refCache: UnsafeMutablePointer<Int8>, mvCache: UnsafeMutablePointer<Int32>) {
        for i in 0..<40 { refCache[i] = -2 }
        for i in 0..<80 { mvCache[i] = 0 }
        let field = mbField[mb] != 0
        let n = mbaffNeighbours
        @inline(__always) func load(_ neighbour: Int, _ block: Int, _ index: Int) {
            guard neighbour >= 0 else { return }
            let source = neighbour * 16 + block
            var ref = refIndices[source], mvy = motionY[source]
            if ref >= 0 {
                let neighbourField = mbField[neighbour] != 0
                if field && !neighbourField {
                    ref = ref &* 2
                    mvy = mvy / 2
                } else if !field && neighbourField {
                    ref = ref >> 1
                    mvy = mvy &* 2
                }
            }
            refCache[index] = ref
            mvCache[2 * index] = motionX[source]
            mvCache[2 * index + 1] = mvy
        }
        if n.topMb >= 0 { for x in 0..<4 { load(n.topMb, 12 + x, Self.cacheIndex(x, -1)) } }
        load(n.topLeftMb, n.topLeftRow * 4 + 3, Self.cacheIndex(-1, -1))
        load(n.topRightMb, n.topRightRow * 4, Self.cacheIndex(4, -1))
        for y in 0..<4 { load(n.leftMb[y], n.leftRow[y] * 4 + 3, Self.cacheIndex(-1, y)) }
        for y in 1..<4 { load(n.leftDiagonalMb[y - 1], n.leftDiagonalRow[y - 1] * 4 + 3, Self.cacheIndex(5, y)) }
    }

    /// The number of reference indices a macroblock may use from a list of `count` entries (§8.4.2.1,
    /// §7.4.5.1): twice as many for a field macroblock of an MBAFF frame (each frame's two fields).
    @inline(__always)
    func activeReferenceCount(_ count: Int, _ mb: Int) -> Int {
        interlace.mbaff && mbField[mb] != 0 ? 2 * count : count
    }

    /// Whether the current macroblock is a field macroblock of an MBAFF frame.
    @inline(__always)
    func isFieldMacroblock(_ mb: Int) -> Bool { interlace.mbaff && mbField[mb] != 0 }

    /// The reference field of field reference index `ref` of a field macroblock (§8.4.2.1, MBAFF): the frame
    /// RefPicListX[ref >> 1], its field of the macroblock's parity when ref is even, of the other parity when odd.
    /// - Parameter frame: RefPicListX[ref >> 1] (or its stand-in).
    @inline(__always)
    func referenceField(_ frame: DecoderPicture?, ref: Int, mb: Int) -> DecoderPicture? {
        guard let frame else { return nil }
        guard let fields = frame.fields else { return frame.fieldParity != 0 ? frame : nil }
        let parity = (mb / widthInMbs) & 1 + 1
        return fields.field(ref & 1 == 0 ? parity : 3 - parity)
    }

    /// Motion-compensated prediction of one partition of a field macroblock of an MBAFF frame from one
    /// reference field (§8.4.2.2): the partition's position in field coordinates (the pair's row · 16 + y), written
    /// into the frame rows of the macroblock's parity; chroma with the vertical offset between fields of
    /// different parity (Table 8-10).
    func predictInterFieldMacroblock(_ mb: Int, x: Int, y: Int, w: Int, h: Int, mv: (Int32, Int32), reference: DecoderPicture?,
                                     picture: DecoderPicture) {
        let target = FieldPartitionTarget(mb, x: x, y: y, widthInMbs: widthInMbs, picture: picture)
        interpolateField(reference, target, w: w, h: h, mv: mv, picture: picture, luma: target.luma, lumaStride: target.lumaStride,
                         cb: target.cb, cr: target.cr, chromaStride: target.chromaStride)
    }

    /// Fractional sample interpolation (§8.4.2.2) of a partition of a field macroblock from a reference field into
    /// the given destinations; mid-grey without a field of the picture's size.
    func interpolateField(_ reference: DecoderPicture?, _ target: FieldPartitionTarget, w: Int, h: Int, mv: (Int32, Int32), picture: DecoderPicture,
                          luma: UnsafeMutablePointer<UInt8>, lumaStride: Int, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>,
                          chromaStride: Int) {
        let hasChroma = picture.chromaWidth > 0
        guard let reference, reference.width == picture.width, reference.height * 2 == picture.height,
              reference.chromaWidth == picture.chromaWidth else {
            for row in 0..<(h * 4) { (luma + row * lumaStride).update(repeating: 128, count: w * 4) }
            if hasChroma {
                for row in 0..<(h * 2) {
                    (cb + row * chromaStride).update(repeating: 128, count: w * 2)
                    (cr + row * chromaStride).update(repeating: 128, count: w * 2)
                }
            }
            return
        }
        let plane = PlaneView(base: reference.luma, width: reference.width, height: reference.height, stride: reference.width)
        LumaInterpolation.fast(plane, quarterX: target.px * 4 + Int(mv.0), quarterY: target.py * 4 + Int(mv.1),
                               size: Self.blockSize(w: w, h: h), into: luma, stride: lumaStride)
        guard hasChroma else { return }
        let offset = 2 * (target.parity + 1 - reference.fieldParity)
        for component in 0..<2 {
            let source = component == 0 ? reference.cb : reference.cr
            let view = PlaneView(base: source, width: reference.chromaWidth, height: reference.chromaHeight, stride: reference.chromaWidth)
            ChromaInterpolation.fast(view, eighthX: target.px / 2 * 8 + Int(mv.0), eighthY: target.py / 2 * 8 + Int(mv.1) + offset,
                                     width: w * 2, height: h * 2, into: component == 0 ? cb : cr, stride: chromaStride)
        }
    }

    /// Inter prediction of one partition of a field macroblock of an MBAFF frame from list 0, list 1 or both
    /// (§8.4.2), as ``predictPartition(_:x:y:w:h:ref0:mv0:ref1:mv1:_:)`` does for frames, with field references
    /// (``referencePicture(_:_:)`` answers fields for a field macroblock) and the weights of §8.4.2.3 for field
    /// macroblocks: explicit weights of refIdx >> 1 (refIdxL0WP, 8-262), implicit weights from the picture order
    /// counts of the current macroblock's field and the two reference fields.
    func predictFieldPartition(_ mb: Int, x: Int, y: Int, w: Int, h: Int, ref0: Int, mv0: (Int32, Int32), ref1: Int, mv1: (Int32, Int32),
                               _ context: inout SliceContext) {
        let picture = context.picture
        let target = FieldPartitionTarget(mb, x: x, y: y, widthInMbs: widthInMbs, picture: picture)
        let useL1 = ref1 >= 0, useL0 = ref0 >= 0 || !useL1
        let ref0 = max(ref0, 0)
        let reference0 = useL0 ? referencePicture(ref0, &context) : nil
        let reference1 = useL1 ? referencePictureL1(ref1, &context) : nil
        var mode = context.weights.mode
        var implicitW0 = 32
        if mode == .implicit && useL0 && useL1 {
            let current = picture.fields?.field(target.parity + 1).pictureOrderCount ?? picture.pictureOrderCount
            implicitW0 = PredictionWeights.implicitWeight(current: current, reference0, reference1)
            if implicitW0 == 32 { mode = .none }
        } else if mode == .explicit {
            let weights = context.weights
            if (!useL0 || weights.isDefault(list: 0, ref0 >> 1)) && (!useL1 || weights.isDefault(list: 1, ref1 >> 1)) { mode = .none }
        }
        if mode == .none || (mode == .implicit && !(useL0 && useL1)) {
            if useL0 != useL1 {
                interpolateField(useL0 ? reference0 : reference1, target, w: w, h: h, mv: useL0 ? mv0 : mv1, picture: picture,
                                 luma: target.luma, lumaStride: target.lumaStride, cb: target.cb, cr: target.cr, chromaStride: target.chromaStride)
                return
            }
        }
        let scratch = predictionScratch
        let hasChroma = picture.chromaWidth > 0
        if useL0 {
            interpolateField(reference0, target, w: w, h: h, mv: mv0, picture: picture, luma: scratch, lumaStride: 16,
                             cb: scratch + 512, cr: scratch + 640, chromaStride: 8)
        }
        if useL1 {
            interpolateField(reference1, target, w: w, h: h, mv: mv1, picture: picture, luma: scratch + 256, lumaStride: 16,
                             cb: scratch + 576, cr: scratch + 704, chromaStride: 8)
        }
        writePrediction(mode: mode, context.weights, implicitFirst: implicitW0, explicitIndices: (ref0 >> 1, ref1 >> 1), useL0: useL0,
                        useL1: useL1, w: w, h: h, hasChroma: hasChroma, luma: target.luma, lumaStride: target.lumaStride, cb: target.cb,
                        cr: target.cr, chromaStride: target.chromaStride)
    }
}

/// Where a partition of a field macroblock of an MBAFF frame is (§6.4.1 with §8.4.2.2): its upper-left luma
/// sample in field coordinates (what the reference field is read at) and where its samples go in the frame
/// (every other row from the macroblock's parity).
struct FieldPartitionTarget {
    /// The macroblock's field: 0 top, 1 bottom.
    let parity: Int
    /// The partition's upper-left luma sample in the field.
    let px: Int, py: Int
    /// The partition's first luma sample in the frame, and the distance between its rows.
    let luma: UnsafeMutablePointer<UInt8>
    let lumaStride: Int
    /// The partition's first Cb and Cr samples in the frame, and the distance between their rows.
    let cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    let chromaStride: Int

    /// The target of the partition at 4x4 block (x, y) of field macroblock `mb` (internal index: pair row · 2 + parity).
    @inline(__always)
    init(_ mb: Int, x: Int, y: Int, widthInMbs: Int, picture: DecoderPicture) {
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        parity = mbY & 1
        px = mbX * 16 + x * 4
        py = (mbY >> 1) * 16 + y * 4
        luma = picture.luma + (2 * py + parity) * picture.width + px
        lumaStride = 2 * picture.width
        if picture.chromaWidth > 0 {
            let offset = (2 * (py / 2) + parity) * picture.chromaWidth + px / 2
            cb = picture.cb + offset
            cr = picture.cr + offset
            chromaStride = 2 * picture.chromaWidth
        } else {
            cb = picture.cb
            cr = picture.cr
            chromaStride = 0
        }
    }
}
