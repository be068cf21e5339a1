import NativeH264Kernels

extension NativeH264Decoder {
    /// The deblocking filter over an MBAFF frame of intra macroblocks (§8.7; MBAFF frames have I slices only so
    /// far, ``checkSupport(sps:pps:header:)``), macroblocks in address order (pair by pair, top then bottom),
    /// each: luma then chroma, its left edge, inner vertical edges, top edge, inner horizontal edges.
    ///
    /// A field macroblock is filtered in its field (every other row of the frame, §8.7.1 fieldMbInFrameFlag):
    /// its top edge meets the rows of the same field above its pair. Intra bS (§8.7.2.1): 4 on vertical
    /// macroblock edges; on horizontal macroblock edges 4 only between two frame macroblocks, else 3
    /// (mixedModeEdgeFlag, or field macroblocks); 3 inside. Mixed edges:
    /// - the left edge of a field macroblock next to a frame pair: its rows 0–7 meet the pair's top macroblock,
    ///   rows 8–15 its bottom one (qPp of each);
    /// - the left edge of a frame macroblock next to a field pair: its even rows meet the top field macroblock,
    ///   odd rows the bottom field one, filtered in each field;
    /// - the top edge of a frame pair's top macroblock under a field pair: filtered twice, once in each field
    ///   against that field's macroblock (bS 3).
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
                guard slice >= pictureFirstSlice else { continue }
                let sliceOffset = Int(slice - pictureFirstSlice)
                guard sliceOffset < sliceFilters.count else { continue }
                let filter = sliceFilters[sliceOffset]
                if filter.disableIDC == 1 { continue }
                @inline(__always) func usable(_ n: Int) -> Bool {
                    mbSlice[n] >= pictureFirstSlice && (filter.disableIDC != 2 || mbSlice[n] == slice)
                }
                let field = mbField[mb] != 0
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
                let (lumaView, cbView, crView) = field ? (bottom == 0 ? fieldViews.0 : fieldViews.1) : frameViews
                let x = mbX * 16, y = field ? pairRow * 16 : (2 * pairRow + bottom) * 16
                let cx = mbX * 8, cy = field ? pairRow * 8 : (2 * pairRow + bottom) * 8
                let inner = DeblockingThresholds(qPp: here, qPq: here, filterOffsetA: a, filterOffsetB: b)
                let innerChroma = (DeblockingThresholds(qPp: hereCb, qPq: hereCb, filterOffsetA: a, filterOffsetB: b),
                                   DeblockingThresholds(qPp: hereCr, qPq: hereCr, filterOffsetA: a, filterOffsetB: b))
                // Inner edges, intra: bS 3; with transform_size_8x8_flag the luma edges 1 and 3 are not filtered.
                let innerMask = mbTransform8x8[mb] & 16 != 0
                @inline(__always) func setInner(vertical: Bool) {
                    for index in 0..<32 { strengths[index] = 0 }
                    for edge in 1..<4 {
                        let value = innerMask && edge != 2 ? 0 : 3
                        for segment in 0..<4 { strengths[(vertical ? 0 : 16) + edge * 4 + segment] = value }
                    }
                }
                let thresholds = (left: inner, top: inner, inner: inner)
                let chromaThresholds = (cb: (left: innerChroma.0, top: innerChroma.0, inner: innerChroma.0),
                                        cr: (left: innerChroma.1, top: innerChroma.1, inner: innerChroma.1))

                // Left macroblock edge (bS 4).
                if filterLeft {
                    if leftField == field {
                        // Same coding: the macroblock in the same slot (same parity for field pairs).
                        let t = luma(mb - 1), c = chroma(mb - 1)
                        for segment in 0..<4 {
                            DeblockingFilter.filter(lumaView, x: x, y: y + segment * 4, direction: .vertical, length: 4, strength: 4,
                                                    thresholds: t, isChroma: false)
                        }
                        if hasChroma {
                            DeblockingFilter.filterChromaEdges(cb: cbView, cr: crView, x: cx, y: cy, direction: .vertical, strengths: (4, 4, 4, 4),
                                                               cbThresholds: c.0, crThresholds: c.1)
                        }
                    } else if field {
                        // A field macroblock next to a frame pair: rows 0–7 meet its top macroblock, 8–15 its bottom one.
                        for segment in 0..<4 {
                            DeblockingFilter.filter(lumaView, x: x, y: y + segment * 4, direction: .vertical, length: 4, strength: 4,
                                                    thresholds: luma(segment < 2 ? leftTop : leftTop + w), isChroma: false)
                        }
                        if hasChroma {
                            let upper = chroma(leftTop), lower = chroma(leftTop + w)
                            DeblockingFilter.filterChromaEdges(cb: cbView, cr: crView, x: cx, y: cy, direction: .vertical, strengths: (4, 4, 0, 0),
                                                               cbThresholds: upper.0, crThresholds: upper.1)
                            DeblockingFilter.filterChromaEdges(cb: cbView, cr: crView, x: cx, y: cy, direction: .vertical, strengths: (0, 0, 4, 4),
                                                               cbThresholds: lower.0, crThresholds: lower.1)
                        }
                    } else {
                        // A frame macroblock next to a field pair: its rows of each field meet that field's macroblock.
                        for parity in 0..<2 {
                            let (fieldLuma, fieldCb, fieldCr) = parity == 0 ? fieldViews.0 : fieldViews.1
                            let n = leftTop + parity * w
                            let t = luma(n)
                            for segment in 0..<2 {
                                DeblockingFilter.filter(fieldLuma, x: x, y: pairRow * 16 + bottom * 8 + segment * 4, direction: .vertical,
                                                        length: 4, strength: 4, thresholds: t, isChroma: false)
                            }
                            if hasChroma {
                                // Four chroma rows of the field: the chroma kernel filters eight, four of them with bS 0
                                // (inside the pair's rows).
                                let c = chroma(n)
                                DeblockingFilter.filterChromaEdges(cb: fieldCb, cr: fieldCr, x: cx, y: pairRow * 8, direction: .vertical,
                                                                   strengths: bottom == 0 ? (4, 4, 0, 0) : (0, 0, 4, 4),
                                                                   cbThresholds: c.0, crThresholds: c.1)
                            }
                        }
                    }
                }
                // Inner vertical edges.
                setInner(vertical: true)
                Self.filterMacroblock(lumaView, x: x, y: y, strengths: strengths, thresholds: thresholds, filterLeft: false, filterTop: false,
                                      isChroma: false)
                if hasChroma {
                    Self.filterChromaMacroblock(cb: cbView, cr: crView, x: cx, y: cy, strengths: strengths, cbThresholds: chromaThresholds.cb,
                                                crThresholds: chromaThresholds.cr, filterLeft: false, filterTop: false)
                }
                // Top macroblock edge.
                if filterTop {
                    if !field && bottom == 0 && aboveField {
                        // A frame macroblock under a field pair: once in each field, against that field's macroblock (bS 3).
                        for parity in 0..<2 {
                            let (fieldLuma, fieldCb, fieldCr) = parity == 0 ? fieldViews.0 : fieldViews.1
                            let n = aboveTop + parity * w
                            DeblockingFilter.filterLumaEdge(fieldLuma, x: x, y: pairRow * 16, direction: .horizontal, strengths: (3, 3, 3, 3),
                                                            thresholds: luma(n))
                            if hasChroma {
                                let c = chroma(n)
                                DeblockingFilter.filterChromaEdges(cb: fieldCb, cr: fieldCr, x: cx, y: pairRow * 8, direction: .horizontal,
                                                                   strengths: (3, 3, 3, 3), cbThresholds: c.0, crThresholds: c.1)
                            }
                        }
                    } else {
                        // The macroblock above in the same view: the top macroblock of a frame pair for its bottom one; for a
                        // frame pair's top one, the bottom macroblock above; for a field macroblock, the same field's above.
                        let n = !field ? mb - w : (bottom == 0 && aboveField ? aboveTop : aboveTop + w)
                        let value = !field && (bottom == 1 || !aboveField) ? 4 : 3
                        let t = luma(n)
                        if value == 4 {
                            for segment in 0..<4 {
                                DeblockingFilter.filter(lumaView, x: x + segment * 4, y: y, direction: .horizontal, length: 4, strength: 4,
                                                        thresholds: t, isChroma: false)
                            }
                        } else {
                            DeblockingFilter.filterLumaEdge(lumaView, x: x, y: y, direction: .horizontal, strengths: (3, 3, 3, 3), thresholds: t)
                        }
                        if hasChroma {
                            let c = chroma(n)
                            DeblockingFilter.filterChromaEdges(cb: cbView, cr: crView, x: cx, y: cy, direction: .horizontal,
                                                               strengths: (value, value, value, value), cbThresholds: c.0, crThresholds: c.1)
                        }
                    }
                }
                // Inner horizontal edges.
                setInner(vertical: false)
                Self.filterMacroblock(lumaView, x: x, y: y, strengths: strengths, thresholds: thresholds, filterLeft: false, filterTop: false,
                                      isChroma: false)
                if hasChroma {
                    Self.filterChromaMacroblock(cb: cbView, cr: crView, x: cx, y: cy, strengths: strengths, cbThresholds: chromaThresholds.cb,
                                                crThresholds: chromaThresholds.cr, filterLeft: false, filterTop: false)
                }
            }
        }
    }
}
