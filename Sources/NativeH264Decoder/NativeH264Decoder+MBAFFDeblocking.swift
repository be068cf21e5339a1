import NativeH264Kernels

extension NativeH264Decoder {
    /// The deblocking filter over an MBAFF frame (§8.7), macroblocks in address order (pair by pair, top then
    /// bottom), each: luma then chroma, its left edge, inner vertical edges, top edge, inner horizontal edges.
    ///
    /// A field macroblock is filtered in its field (every other row of the frame, §8.7.1 fieldMbInFrameFlag):
    /// its top edge meets the rows of the same field above its pair. bS (§8.7.2.1, ``mbaffEdgeStrength(p:q:vertical:bothFrame:mixed:verticalLimit:)``
    /// on macroblock edges, as in progressive frames inside a macroblock, with a vertical vector limit of 2 quarter
    /// samples in field macroblocks). Edges between a field and a frame macroblock pair (mixedModeEdgeFlag) take the
    /// neighbours of Table 6-4 line by line:
    /// - the left edge of a field macroblock next to a frame pair: its field row y meets frame row 2y + parity of
    ///   the pair (rows 0–7 the top macroblock, 8–15 the bottom one), so bS changes every 2 rows;
    /// - the left edge of a frame macroblock next to a field pair: its rows of each field meet that field's
    ///   macroblock, filtered in the field, bS again per 2 rows;
    /// - the top edge of a frame pair's top macroblock under a field pair: filtered twice, once in each field
    ///   against that field's macroblock;
    /// - a chroma row takes the bS of the luma row twice its index in the same field or frame (as the JM reference
    ///   decoder does: for 4:2:0, luma rows 4i and 4i + 1 of a frame macroblock next to a field pair, by parity).
    /// Each macroblock uses its slice's disable_deblocking_filter_idc and offsets; concealed macroblocks are left alone.
    func deblockMBAFFPicture(_ picture: DecoderPicture) {
        let w = widthInMbs
        let width = picture.width, height = picture.height
        let hasChroma = picture.chromaWidth > 0
        let cw = max(picture.chromaWidth, 1), ch = max(picture.chromaHeight, 1)
        /// The frame (nil) or the field of a parity (0 top, 1 bottom) as planes.
        @inline(__always) func views(_ parity: Int?) -> (MutablePlaneView, MutablePlaneView, MutablePlaneView) {
            guard let parity else {
                return (MutablePlaneView(base: picture.luma, width: width, height: height, stride: width),
                        MutablePlaneView(base: picture.cb, width: cw, height: ch, stride: cw),
                        MutablePlaneView(base: picture.cr, width: cw, height: ch, stride: cw))
            }
            let chromaOffset = hasChroma ? parity * cw : 0, chromaStride = hasChroma ? 2 * cw : cw
            return (MutablePlaneView(base: picture.luma + parity * width, width: width, height: height / 2, stride: 2 * width),
                    MutablePlaneView(base: picture.cb + chromaOffset, width: cw, height: max(ch / 2, 1), stride: chromaStride),
                    MutablePlaneView(base: picture.cr + chromaOffset, width: cw, height: max(ch / 2, 1), stride: chromaStride))
        }
        let frameViews = views(nil), fieldViews = (views(0), views(1))
        let strengths = strengthScratch
        for pair in 0..<(w * heightInMbs / 2) {
            let mbX = pair % w, pairRow = pair / w
            for bottom in 0..<2 {
                let mb = (2 * pairRow + bottom) * w + mbX
                let slice = mbSlice[mb]
                guard let filter = deblockingControls(ofSlice: slice) else { continue }
                @inline(__always) func usable(_ n: Int) -> Bool {
                    mbSlice[n] >= pictureFirstSlice && (filter.disableIDC != 2 || mbSlice[n] == slice)
                }
                let field = mbField[mb] != 0
                let limit = field ? 2 : 4
                // The slots of the pairs left and above (top macroblocks; + w: bottom ones).
                let leftTop = (2 * pairRow) * w + mbX - 1, aboveTop = (2 * pairRow - 2) * w + mbX
                let filterLeft = mbX > 0 && usable(leftTop)
                let filterTop = !field && bottom == 1 ? true : pairRow > 0 && usable(aboveTop)
                let leftField = filterLeft && mbField[leftTop] != 0
                let aboveField = pairRow > 0 && mbField[aboveTop] != 0
                let (a, b) = (filter.offsetA, filter.offsetB)
                let here = Int(mbQP[mb]), hereCb = Int(mbQPCb[mb]), hereCr = Int(mbQPCr[mb])
                @inline(__always) func luma(_ p: Int) -> DeblockingThresholds {
                    DeblockingThresholds(qPp: Int(mbQP[p]), qPq: here, filterOffsetA: a, filterOffsetB: b)
                }
                @inline(__always) func chroma(_ p: Int) -> (DeblockingThresholds, DeblockingThresholds) {
                    (DeblockingThresholds(qPp: Int(mbQPCb[p]), qPq: hereCb, filterOffsetA: a, filterOffsetB: b),
                     DeblockingThresholds(qPp: Int(mbQPCr[p]), qPq: hereCr, filterOffsetA: a, filterOffsetB: b))
                }
                /// bS of the macroblock edge between block `p` and this macroblock's block `q` (raster index).
                @inline(__always) func edge(_ p: Int, _ q: Int, vertical: Bool, mixed: Bool) -> Int {
                    mbaffEdgeStrength(p: p, q: mb * 16 + q, vertical: vertical, bothFrame: !field && !mixed, mixed: mixed, verticalLimit: limit)
                }
                let (lumaView, cbView, crView) = field ? (bottom == 0 ? fieldViews.0 : fieldViews.1) : frameViews
                let x = mbX * 16, y = field ? pairRow * 16 : (2 * pairRow + bottom) * 16
                let cx = mbX * 8, cy = field ? pairRow * 8 : (2 * pairRow + bottom) * 8
                /// A whole macroblock edge against macroblock `n`, its 4 segments each with its bS (left: p is n's block
                /// column 3, row for row; top: n's block row 3), luma and chroma, in the planes `views` with the edge at
                /// luma (x, y), chroma (cx, cy).
                @inline(__always) func filterEdge(against n: Int, vertical: Bool, mixed: Bool,
                                                  _ views: (MutablePlaneView, MutablePlaneView, MutablePlaneView), y: Int, cy: Int) {
                    @inline(__always) func segment(_ k: Int) -> Int {
                        vertical ? edge(n * 16 + 4 * k + 3, 4 * k, vertical: true, mixed: mixed)
                            : edge(n * 16 + 12 + k, k, vertical: false, mixed: mixed)
                    }
                    let s = (segment(0), segment(1), segment(2), segment(3))
                    Self.filterLumaMacroblockEdge(views.0, x: x, y: y, direction: vertical ? .vertical : .horizontal, strengths: s,
                                                  thresholds: luma(n))
                    if hasChroma && s.0 | s.1 | s.2 | s.3 != 0 {
                        let c = chroma(n)
                        DeblockingFilter.filterChromaEdges(cb: views.1, cr: views.2, x: cx, y: cy, direction: vertical ? .vertical : .horizontal,
                                                           strengths: s, cbThresholds: c.0, crThresholds: c.1)
                    }
                }
                let inner = DeblockingThresholds(qPp: here, qPq: here, filterOffsetA: a, filterOffsetB: b)
                let innerChroma = (DeblockingThresholds(qPp: hereCb, qPq: hereCb, filterOffsetA: a, filterOffsetB: b),
                                   DeblockingThresholds(qPp: hereCr, qPq: hereCr, filterOffsetA: a, filterOffsetB: b))
                // Inner edges (the edge 0 entries are not read): intra bS 3, inter as in progressive frames; with
                // transform_size_8x8_flag the luma edges 1 and 3 are not filtered.
                let innerMask = mbTransform8x8[mb] & 16 != 0 ? 2 : 0
                var anyInner = 3
                if mbKind[mb] != Kind.inter {
                    for edge in 1..<4 {
                        let value = innerMask != 0 && edge != 2 ? 0 : 3
                        for segment in 0..<4 { strengths[edge * 4 + segment] = value; strengths[16 + edge * 4 + segment] = value }
                    }
                } else {
                    anyInner = setInterInnerStrengths(mb, coded: codedBlocks(mb), innerMask: innerMask, verticalLimit: limit, strengths)
                }
                let thresholds = (left: inner, top: inner, inner: inner)
                let chromaThresholds = (cb: (left: innerChroma.0, top: innerChroma.0, inner: innerChroma.0),
                                        cr: (left: innerChroma.1, top: innerChroma.1, inner: innerChroma.1))

                // Left macroblock edge.
                if filterLeft {
                    if leftField == field {
                        // Same coding: the macroblock in the same slot (same parity for field pairs), row for row.
                        filterEdge(against: mb - 1, vertical: true, mixed: false, (lumaView, cbView, crView), y: y, cy: cy)
                    } else if field {
                        // A field macroblock next to a frame pair: its rows 2s and 2s + 1 meet frame rows 4s + parity and
                        // 4s + 2 + parity of the pair: block row s % 4 of the top (s < 4) or bottom macroblock.
                        let upper = (luma(leftTop), chroma(leftTop)), lower = (luma(leftTop + w), chroma(leftTop + w))
                        for segment in 0..<8 {
                            let n = segment < 4 ? leftTop : leftTop + w
                            let value = edge(n * 16 + (segment & 3) * 4 + 3, (segment >> 1) * 4, vertical: true, mixed: true)
                            let (t, c) = segment < 4 ? upper : lower
                            DeblockingFilter.filter(lumaView, x: x, y: y + 2 * segment, direction: .vertical, length: 2, strength: value,
                                                    thresholds: t, isChroma: false)
                            if hasChroma {
                                DeblockingFilter.filter(cbView, x: cx, y: cy + segment, direction: .vertical, length: 1, strength: value,
                                                        thresholds: c.0, isChroma: true)
                                DeblockingFilter.filter(crView, x: cx, y: cy + segment, direction: .vertical, length: 1, strength: value,
                                                        thresholds: c.1, isChroma: true)
                            }
                        }
                    } else {
                        // A frame macroblock next to a field pair: in each field its 8 rows (frame rows 2j + parity) meet
                        // rows j + 8 · bottom of that field's macroblock; bS per 2 rows.
                        for parity in 0..<2 {
                            let (fieldLuma, fieldCb, fieldCr) = parity == 0 ? fieldViews.0 : fieldViews.1
                            let n = leftTop + parity * w
                            let t = luma(n), c = chroma(n)
                            for segment in 0..<4 {
                                let value = edge(n * 16 + ((segment >> 1) + 2 * bottom) * 4 + 3, segment * 4, vertical: true, mixed: true)
                                DeblockingFilter.filter(fieldLuma, x: x, y: pairRow * 16 + bottom * 8 + 2 * segment, direction: .vertical,
                                                        length: 2, strength: value, thresholds: t, isChroma: false)
                                if hasChroma {
                                    let row = pairRow * 8 + bottom * 4 + segment
                                    DeblockingFilter.filter(fieldCb, x: cx, y: row, direction: .vertical, length: 1, strength: value,
                                                            thresholds: c.0, isChroma: true)
                                    DeblockingFilter.filter(fieldCr, x: cx, y: row, direction: .vertical, length: 1, strength: value,
                                                            thresholds: c.1, isChroma: true)
                                }
                            }
                        }
                    }
                }
                // Inner vertical edges.
                if anyInner != 0 {
                    Self.filterMacroblockInnerEdges(lumaView, cb: cbView, cr: crView, x: x, y: y, cx: cx, cy: cy, vertical: true,
                                                    strengths: strengths, thresholds: thresholds, chromaThresholds: chromaThresholds,
                                                    hasChroma: hasChroma)
                }
                // Top macroblock edge.
                if filterTop {
                    if !field && bottom == 0 && aboveField {
                        // A frame macroblock under a field pair: once in each field, against that field's macroblock.
                        filterEdge(against: aboveTop, vertical: false, mixed: true, fieldViews.0, y: pairRow * 16, cy: pairRow * 8)
                        filterEdge(against: aboveTop + w, vertical: false, mixed: true, fieldViews.1, y: pairRow * 16, cy: pairRow * 8)
                    } else {
                        // The macroblock above in the same view: the top macroblock of a frame pair for its bottom one; for a
                        // frame pair's top one, the bottom macroblock above; for a field macroblock, the same field's above
                        // (a frame pair's bottom macroblock when the pair above is a frame pair: mixed).
                        let n = !field ? mb - w : (bottom == 0 && aboveField ? aboveTop : aboveTop + w)
                        filterEdge(against: n, vertical: false, mixed: field && !aboveField, (lumaView, cbView, crView), y: y, cy: cy)
                    }
                }
                // Inner horizontal edges.
                if anyInner != 0 {
                    Self.filterMacroblockInnerEdges(lumaView, cb: cbView, cr: crView, x: x, y: y, cx: cx, cy: cy, vertical: false,
                                                    strengths: strengths, thresholds: thresholds, chromaThresholds: chromaThresholds,
                                                    hasChroma: hasChroma)
                }
            }
        }
    }

    /// bS of a macroblock edge of an MBAFF frame between 4x4 luma blocks `p` and `q` (indices into the per-block
    /// tables) (§8.7.2.1): 4 next to an intra macroblock on a vertical edge or between two frame macroblocks
    /// (`bothFrame`), else 3 next to an intra macroblock; 2 when either transform block has coefficients; 1 on an
    /// edge between a field and a frame macroblock pair (`mixed`: mixedModeEdgeFlag); else the motion comparison
    /// (different reference pictures — fields for field macroblocks — or vectors `verticalLimit` apart).
    @inline(__always)
    func mbaffEdgeStrength(p: Int, q: Int, vertical: Bool, bothFrame: Bool, mixed: Bool, verticalLimit: Int) -> Int {
        if mbKind[p >> 4] != Kind.inter || mbKind[q >> 4] != Kind.inter { return vertical || bothFrame ? 4 : 3 }
        if hasCoefficients(p) || hasCoefficients(q) { return 2 }
        return mixed ? 1 : motionStrength(p: p, q: q, verticalLimit: verticalLimit)
    }

    /// One luma macroblock edge with the bS of its four 4-line segments: the vectorised edge filter when every
    /// bS is below 4, line by line otherwise; nothing when every bS is 0.
    @inline(__always)
    static func filterLumaMacroblockEdge(_ plane: MutablePlaneView, x: Int, y: Int, direction: EdgeDirection, strengths s: (Int, Int, Int, Int),
                                         thresholds: DeblockingThresholds) {
        guard s.0 | s.1 | s.2 | s.3 != 0 else { return }
        if s.0 < 4 && s.1 < 4 && s.2 < 4 && s.3 < 4 {
            DeblockingFilter.filterLumaEdge(plane, x: x, y: y, direction: direction, strengths: s, thresholds: thresholds)
            return
        }
        let (dx, dy) = direction == .vertical ? (0, 4) : (4, 0)
        DeblockingFilter.filter(plane, x: x, y: y, direction: direction, length: 4, strength: s.0, thresholds: thresholds, isChroma: false)
        DeblockingFilter.filter(plane, x: x + dx, y: y + dy, direction: direction, length: 4, strength: s.1, thresholds: thresholds, isChroma: false)
        DeblockingFilter.filter(plane, x: x + 2 * dx, y: y + 2 * dy, direction: direction, length: 4, strength: s.2, thresholds: thresholds,
                                isChroma: false)
        DeblockingFilter.filter(plane, x: x + 3 * dx, y: y + 3 * dy, direction: direction, length: 4, strength: s.3, thresholds: thresholds,
                                isChroma: false)
    }

    /// A macroblock's inner vertical (or horizontal) edges in luma and chroma with the bS in `strengths` (edge 0 skipped).
    @inline(__always)
    static func filterMacroblockInnerEdges(_ luma: MutablePlaneView, cb: MutablePlaneView, cr: MutablePlaneView, x: Int, y: Int, cx: Int, cy: Int,
                                           vertical: Bool, strengths: UnsafeMutablePointer<Int>,
                                           thresholds: (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds),
                                           chromaThresholds: (cb: (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds),
                                                              cr: (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds)),
                                           hasChroma: Bool) {
        // filterMacroblock filters vertical edges, then horizontal ones: the other direction's bS are parked as 0.
        let other = vertical ? 16 : 0
        var parked: InlineArray<16, Int> = .init(repeating: 0)
        for index in 4..<16 { parked[index] = strengths[other + index]; strengths[other + index] = 0 }
        Self.filterMacroblock(luma, x: x, y: y, strengths: strengths, thresholds: thresholds, filterLeft: false, filterTop: false, isChroma: false)
        if hasChroma {
            Self.filterChromaMacroblock(cb: cb, cr: cr, x: cx, y: cy, strengths: strengths, cbThresholds: chromaThresholds.cb,
                                        crThresholds: chromaThresholds.cr, filterLeft: false, filterTop: false)
        }
        for index in 4..<16 { strengths[other + index] = parked[index] }
    }
}
