import NativeH264Kernels

extension NativeH264Decoder {
    /// Bytes of ``predictionScratch``: two 16x16 luma predictions, then two 8x8 Cb and two 8x8 Cr.
    static let predictionScratchCount = 2 * 256 + 4 * 64

    /// Inter prediction of one partition from list 0, list 1 or both (§8.4.2): the fractional sample
    /// interpolation of each used list (§8.4.2.2), then the weighted sample prediction (§8.4.2.3) into the
    /// picture: a copy or the rounded average (default, §8.4.2.3.1), or the explicit or implicit weights
    /// of the slice (§8.4.2.3.2). `ref0`/`ref1` are −1 for a list the partition does not use;
    /// (x, y, w, h) in 4x4 blocks.
    func predictPartition(_ mb: Int, x: Int, y: Int, w: Int, h: Int, ref0: Int, mv0: (Int32, Int32), ref1: Int, mv1: (Int32, Int32),
                          _ context: inout SliceContext) {
        if interlace.mbaff && mbField[mb] != 0 {
            predictFieldPartition(mb, x: x, y: y, w: w, h: h, ref0: ref0, mv0: mv0, ref1: ref1, mv1: mv1, &context)
            return
        }
        let picture = context.picture
        let useL1 = ref1 >= 0, useL0 = ref0 >= 0 || !useL1
        let ref0 = max(ref0, 0)
        var mode = context.weights.mode
        if mode == .implicit && useL0 && useL1 {
            // Equal implicit weights (32, 32; logWD 5, no offsets) are the default average, bit for bit.
            let index = ref0 * context.weights.implicitStride + ref1
            if !context.weights.implicitWeights.indices.contains(index) || context.weights.implicitWeights[index] == 32 { mode = .none }
        } else if mode == .explicit {
            // Default explicit weights (w = 2^logWD, o = 0; x264 --weightp writes them for every reference it does not
            // weight) give the plain prediction, bit for bit: (x·2^logWD + 2^(logWD−1)) >> logWD is x (8-270), and
            // for two lists ((a + b)·2^logWD + 2^logWD) >> (logWD + 1) is the rounded average (8-301).
            let weights = context.weights
            if (!useL0 || weights.isDefault(list: 0, ref0)) && (!useL1 || weights.isDefault(list: 1, ref1)) { mode = .none }
        }
        if mode == .none || (mode == .implicit && !(useL0 && useL1)) {
            if useL0 != useL1 {
                let reference = useL0 ? referencePicture(ref0, &context) : referencePictureL1(ref1, &context)
                predictInter(mb, x: x, y: y, w: w, h: h, mv: useL0 ? mv0 : mv1, reference: reference, picture: picture)
                return
            }
        }
        let mbX = mb % widthInMbs, mbY = mb / widthInMbs
        let px = mbX * 16 + x * 4, py = mbY * 16 + y * 4
        let scratch = predictionScratch
        let hasChroma = picture.chromaWidth > 0
        if useL0 {
            interpolate(referencePicture(ref0, &context), px: px, py: py, w: w, h: h, mv: mv0, picture: picture,
                        luma: scratch, cb: scratch + 512, cr: scratch + 640)
        }
        if useL1 {
            interpolate(referencePictureL1(ref1, &context), px: px, py: py, w: w, h: h, mv: mv1, picture: picture,
                        luma: scratch + 256, cb: scratch + 576, cr: scratch + 704)
        }
        let implicitFirst = mode == .implicit ? context.weights.implicitWeights[ref0 * context.weights.implicitStride + ref1] : 32
        writePrediction(mode: mode, context.weights, implicitFirst: implicitFirst, explicitIndices: (ref0, ref1), useL0: useL0, useL1: useL1,
                        w: w, h: h, hasChroma: hasChroma, luma: picture.luma + py * picture.width + px, lumaStride: picture.width,
                        cb: picture.cb + (py / 2) * picture.chromaWidth + px / 2, cr: picture.cr + (py / 2) * picture.chromaWidth + px / 2,
                        chromaStride: picture.chromaWidth)
    }

    /// The sample prediction of a partition (§8.4.2.3) from its list 0 and list 1 predictions in the scratch blocks
    /// (luma at 0 and 256, stride 16; Cb at 512 and 576, Cr at 640 and 704, stride 8), written at `luma`, `cb`, `cr`:
    /// the rounded average of both (mode none, or equal implicit weights), or the weighted prediction — implicit
    /// (8-300: logWD 5, w0 `implicitFirst`, w1 64 − w0, no offsets) or explicit (8-270, 8-301: the weights and offsets
    /// of refIdxL0WP and refIdxL1WP, `explicitIndices`; 2^logWD and 0 when the table has none) — of one list or both.
    @inline(__always)
    func writePrediction(mode: PredictionWeights.Mode, _ weights: PredictionWeights, implicitFirst: Int, explicitIndices: (Int, Int),
                         useL0: Bool, useL1: Bool, w: Int, h: Int, hasChroma: Bool, luma: UnsafeMutablePointer<UInt8>, lumaStride: Int,
                         cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, chromaStride: Int) {
        let scratch = predictionScratch
        let lumaWidth = w * 4, lumaHeight = h * 4
        // The weights of each component: logWD, w0, w1, o0, o1.
        var logWD = (0, 0), w0 = (1, 1, 1), w1 = (1, 1, 1), o0 = (0, 0, 0), o1 = (0, 0, 0)
        var weighted = true
        switch mode {
        case .none:
            weighted = false
        case .implicit:
            logWD = (5, 5)
            w0 = (implicitFirst, implicitFirst, implicitFirst)
            w1 = (64 - implicitFirst, 64 - implicitFirst, 64 - implicitFirst)
        case .explicit:
            let (wp0, wp1) = explicitIndices
            logWD = (weights.lumaLog2Denominator, weights.chromaLog2Denominator)
            if useL0, wp0 >= 0, wp0 < weights.list0.count { w0 = weights.list0[wp0].weight; o0 = weights.list0[wp0].offset }
            else if useL0 { w0 = (1 << logWD.0, 1 << logWD.1, 1 << logWD.1) }
            if useL1, wp1 >= 0, wp1 < weights.list1.count { w1 = weights.list1[wp1].weight; o1 = weights.list1[wp1].offset }
            else if useL1 { w1 = (1 << logWD.0, 1 << logWD.1, 1 << logWD.1) }
        }
        if useL0 && useL1 {
            if weighted {
                Self.weightBoth(scratch, scratch + 256, stride: 16, into: luma, stride: lumaStride, width: lumaWidth,
                                height: lumaHeight, logWD: logWD.0, w0: w0.0, w1: w1.0, offset: (o0.0 + o1.0 + 1) >> 1)
                if hasChroma {
                    Self.weightBoth(scratch + 512, scratch + 576, stride: 8, into: cb, stride: chromaStride,
                                    width: w * 2, height: h * 2, logWD: logWD.1, w0: w0.1, w1: w1.1, offset: (o0.1 + o1.1 + 1) >> 1)
                    Self.weightBoth(scratch + 640, scratch + 704, stride: 8, into: cr, stride: chromaStride,
                                    width: w * 2, height: h * 2, logWD: logWD.1, w0: w0.2, w1: w1.2, offset: (o0.2 + o1.2 + 1) >> 1)
                }
            } else {
                Self.average(scratch, scratch + 256, stride: 16, into: luma, stride: lumaStride, width: lumaWidth, height: lumaHeight)
                if hasChroma {
                    Self.average(scratch + 512, scratch + 576, stride: 8, into: cb, stride: chromaStride, width: w * 2, height: h * 2)
                    Self.average(scratch + 640, scratch + 704, stride: 8, into: cr, stride: chromaStride, width: w * 2, height: h * 2)
                }
            }
            return
        }
        // One list, explicit weights.
        let (source, weight, offset, cbSource, crSource) = useL0
            ? (scratch, w0, o0, scratch + 512, scratch + 640) : (scratch + 256, w1, o1, scratch + 576, scratch + 704)
        Self.weightOne(source, stride: 16, into: luma, stride: lumaStride, width: lumaWidth, height: lumaHeight,
                       logWD: logWD.0, weight: weight.0, offset: offset.0)
        if hasChroma {
            Self.weightOne(cbSource, stride: 8, into: cb, stride: chromaStride, width: w * 2, height: h * 2,
                           logWD: logWD.1, weight: weight.1, offset: offset.1)
            Self.weightOne(crSource, stride: 8, into: cr, stride: chromaStride, width: w * 2, height: h * 2,
                           logWD: logWD.1, weight: weight.2, offset: offset.2)
        }
    }

    /// RefPicList1[ref] (§8.4.2.1), or a stand-in when the list has none there (concealment).
    /// For a field macroblock of an MBAFF frame, the reference field of `ref` (``referenceField(_:ref:mb:)``).
    func referencePictureL1(_ ref: Int, _ context: inout SliceContext) -> DecoderPicture? {
        if interlace.mbaff && mbField[context.currentMb] != 0 {
            return referenceField(frameReferencePictureL1(ref >> 1, &context), ref: ref, mb: context.currentMb)
        }
        return frameReferencePictureL1(ref, &context)
    }

    /// RefPicList1[ref] as the slice built it, or its stand-in.
    func frameReferencePictureL1(_ ref: Int, _ context: inout SliceContext) -> DecoderPicture? {
        if ref >= 0, ref < context.referenceList1.count, let picture = context.referenceList1[ref] {
            if picture.isNonExisting { context.missingReference = true }
            return picture
        }
        context.missingReference = true
        for case let picture? in context.referenceList1 { return picture }
        return frameReferencePicture(0, &context)
    }

    /// Fractional sample interpolation (§8.4.2.2) of a partition at luma (px, py) into scratch blocks
    /// (luma stride 16, chroma stride 8); mid-grey without a reference of the picture's size.
    func interpolate(_ reference: DecoderPicture?, px: Int, py: Int, w: Int, h: Int, mv: (Int32, Int32), picture: DecoderPicture,
                     luma: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>) {
        guard let reference, reference.width == picture.width, reference.height == picture.height,
              reference.chromaWidth == picture.chromaWidth else {
            luma.update(repeating: 128, count: 256)
            cb.update(repeating: 128, count: 64)
            cr.update(repeating: 128, count: 64)
            return
        }
        let plane = PlaneView(base: reference.luma, width: reference.width, height: reference.height, stride: reference.width)
        LumaInterpolation.fast(plane, quarterX: px * 4 + Int(mv.0), quarterY: py * 4 + Int(mv.1), size: Self.blockSize(w: w, h: h),
                               into: luma, stride: 16)
        guard picture.chromaWidth > 0 else { return }
        let cx = px / 2, cy = py / 2
        for component in 0..<2 {
            let source = component == 0 ? reference.cb : reference.cr
            let view = PlaneView(base: source, width: reference.chromaWidth, height: reference.chromaHeight, stride: reference.chromaWidth)
            ChromaInterpolation.fast(view, eighthX: cx * 8 + Int(mv.0), eighthY: cy * 8 + Int(mv.1) + Self.chromaFieldOffset(reference, picture), width: w * 2, height: h * 2,
                                     into: component == 0 ? cb : cr, stride: 8)
        }
    }

    /// The block shape of a partition of `w`×`h` 4x4 blocks (Tables 7-13/7-17 partition sizes).
    static func blockSize(w: Int, h: Int) -> BlockSize {
        switch (w, h) {
        case (4, 4): .w16h16
        case (4, 2): .w16h8
        case (2, 4): .w8h16
        case (2, 2): .w8h8
        case (2, 1): .w8h4
        case (1, 2): .w4h8
        default: .w4h4
        }
    }

    /// Default weighted sample prediction of two predictions (8-273): (a + b + 1) >> 1.
    static func average(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, stride: Int,
                        into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int, width: Int, height: Int) {
        // Whole rows as one vector each for the partition widths (the element loop stays scalar: the compiler cannot
        // tell that the three blocks never overlap); (p + q + 1) >> 1 as (p | q) − ((p ^ q) >> 1), without widening.
        @inline(__always) func rows<Row: SIMD>(_: Row.Type) where Row.Scalar == UInt8 {
            for row in 0..<height {
                let p = UnsafeRawPointer(a + row &* stride).loadUnaligned(as: Row.self)
                let q = UnsafeRawPointer(b + row &* stride).loadUnaligned(as: Row.self)
                UnsafeMutableRawPointer(destination + row &* destinationStride).storeBytes(of: (p | q) &- ((p ^ q) &>> 1), as: Row.self)
            }
        }
        switch width {
        case 16: rows(SIMD16<UInt8>.self)
        case 8: rows(SIMD8<UInt8>.self)
        case 4: rows(SIMD4<UInt8>.self)
        case 2: rows(SIMD2<UInt8>.self)
        default:
            for row in 0..<height {
                let p = a + row &* stride, q = b + row &* stride, d = destination + row &* destinationStride
                for column in 0..<width { d[column] = UInt8(truncatingIfNeeded: (UInt16(p[column]) &+ UInt16(q[column]) &+ 1) >> 1) }
            }
        }
    }

    /// Explicit or implicit weighting of one prediction (8-274, 8-275):
    /// Clip1(((a·w + 2^(logWD−1)) >> logWD) + o), or Clip1(a·w + o) when logWD is 0.
    static func weightOne(_ a: UnsafeMutablePointer<UInt8>, stride: Int, into destination: UnsafeMutablePointer<UInt8>,
                          stride destinationStride: Int, width: Int, height: Int, logWD: Int, weight: Int, offset: Int) {
        let round = Int32(truncatingIfNeeded: logWD >= 1 ? 1 << (logWD - 1) : 0)
        // In Int32 with wrapping arithmetic so that the rows vectorise: weights are −128…127 and offsets −128…127
        // (§7.4.3.2), logWD ≤ 7, far inside Int32.
        let weight = Int32(truncatingIfNeeded: weight), offset = Int32(truncatingIfNeeded: offset), shift = Int32(truncatingIfNeeded: logWD)
        for row in 0..<height {
            let p = a + row &* stride, d = destination + row &* destinationStride
            for column in 0..<width {
                let value = ((Int32(p[column]) &* weight &+ round) >> shift) &+ offset
                d[column] = UInt8(truncatingIfNeeded: min(max(value, 0), 255))
            }
        }
    }

    /// Explicit or implicit weighting of two predictions (8-276):
    /// Clip1(((a·w0 + b·w1 + 2^logWD) >> (logWD + 1)) + ((o0 + o1 + 1) >> 1)), the offset already combined.
    static func weightBoth(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, stride: Int,
                           into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int, width: Int, height: Int,
                           logWD: Int, w0: Int, w1: Int, offset: Int) {
        // In Int32 with wrapping arithmetic, as in weightOne (implicit weights are −64…128).
        let round = Int32(truncatingIfNeeded: 1 << logWD), shift = Int32(truncatingIfNeeded: logWD + 1)
        let w0 = Int32(truncatingIfNeeded: w0), w1 = Int32(truncatingIfNeeded: w1), offset = Int32(truncatingIfNeeded: offset)
        for row in 0..<height {
            let p = a + row &* stride, q = b + row &* stride, d = destination + row &* destinationStride
            for column in 0..<width {
                let value = ((Int32(p[column]) &* w0 &+ Int32(q[column]) &* w1 &+ round) >> shift) &+ offset
                d[column] = UInt8(truncatingIfNeeded: min(max(value, 0), 255))
            }
        }
    }
}
