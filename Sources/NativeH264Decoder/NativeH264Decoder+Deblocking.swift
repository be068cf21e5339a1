import NativeH264Kernels

extension NativeH264Decoder {
    /// The deblocking filter over a decoded frame (§8.7), macroblocks in raster order: luma vertical
    /// edges left to right, then horizontal edges top to bottom, then the same for Cb and Cr. Each
    /// macroblock uses its slice's disable_deblocking_filter_idc (1: off; 2: not across slice edges)
    /// and filter offsets; concealed macroblocks are left alone.
    func deblockPicture(_ picture: DecoderPicture) {
        if interlace.mbaff {
            deblockMBAFFPicture(picture)
            return
        }
        let w = widthInMbs
        let lumaPlane = MutablePlaneView(base: picture.luma, width: picture.width, height: picture.height, stride: picture.width)
        let hasChroma = picture.chromaWidth > 0
        let cbPlane = MutablePlaneView(base: picture.cb, width: max(picture.chromaWidth, 1), height: max(picture.chromaHeight, 1),
                                       stride: max(picture.chromaWidth, 1))
        let crPlane = MutablePlaneView(base: picture.cr, width: max(picture.chromaWidth, 1), height: max(picture.chromaHeight, 1),
                                       stride: max(picture.chromaWidth, 1))
        let fieldPicture = interlace.fieldPicture
        // A vertical vector difference of 4 quarter frame samples is 2 quarter field samples (§8.7.2.1, NOTE).
        let verticalLimit = fieldPicture ? 2 : 4
        for mb in 0..<(w * heightInMbs) {
            let slice = mbSlice[mb]
            guard let filter = deblockingControls(ofSlice: slice) else { continue }
            let mbX = mb % w, mbY = mb / w
            let left = mb - 1, top = mb - w
            let filterLeft = mbX > 0 && mbSlice[left] >= pictureFirstSlice && (filter.disableIDC != 2 || mbSlice[left] == slice)
            let filterTop = mbY > 0 && mbSlice[top] >= pictureFirstSlice && (filter.disableIDC != 2 || mbSlice[top] == slice)
            // bS of each edge segment (§8.7.2.1): vertical edges at 0…15, horizontal ones at 16…31, edge · 4 + segment.
            let strengths = strengthScratch
            var any = 0
            let transform = mbTransform8x8[mb]
            // With transform_size_8x8_flag the luma edges inside the 8x8 blocks are not filtered (§8.7).
            let innerMask = transform & 16 != 0 ? 2 : 0
            if mbKind[mb] != Kind.inter {
                let leftStrength = filterLeft ? 4 : 0, topStrength = filterTop ? (fieldPicture ? 3 : 4) : 0
                for segment in 0..<4 {
                    strengths[segment] = leftStrength
                    strengths[16 + segment] = topStrength
                    for edge in 1..<4 {
                        let inner = innerMask != 0 && edge != 2 ? 0 : 3
                        strengths[edge * 4 + segment] = inner
                        strengths[16 + edge * 4 + segment] = inner
                    }
                }
                any = 3
            } else {
                let coded = codedBlocks(mb)
                let base = mb * 16
                if filterLeft {
                    if mbKind[left] != Kind.inter {
                        for segment in 0..<4 { strengths[segment] = 4 }
                        any = 4
                    } else {
                        let p = left * 16 + 3
                        let own = Int32(truncatingIfNeeded: coded)
                        let leftCoded = SIMD4<Int32>(own, own >> 4, own >> 8, own >> 12) & 1
                            | SIMD4(hasCoefficients(p) ? 1 : 0, hasCoefficients(p + 4) ? 1 : 0, hasCoefficients(p + 8) ? 1 : 0,
                                    hasCoefficients(p + 12) ? 1 : 0)
                        any |= edgeStrengths(p: p, q: base, step: 4, coded: leftCoded, verticalLimit: verticalLimit, into: strengths)
                    }
                } else {
                    for segment in 0..<4 { strengths[segment] = 0 }
                }
                if filterTop {
                    if mbKind[top] != Kind.inter {
                        let value = fieldPicture ? 3 : 4
                        for segment in 0..<4 { strengths[16 + segment] = value }
                        any |= value
                    } else {
                        let p = top * 16 + 12
                        let own = Int32(truncatingIfNeeded: coded)
                        let topCoded = SIMD4<Int32>(own, own >> 1, own >> 2, own >> 3) & 1
                            | SIMD4(hasCoefficients(p) ? 1 : 0, hasCoefficients(p + 1) ? 1 : 0, hasCoefficients(p + 2) ? 1 : 0,
                                    hasCoefficients(p + 3) ? 1 : 0)
                        any |= edgeStrengths(p: p, q: base, step: 1, coded: topCoded, verticalLimit: verticalLimit, into: strengths + 16)
                    }
                } else {
                    for segment in 0..<4 { strengths[16 + segment] = 0 }
                }
                any |= setInterInnerStrengths(mb, coded: coded, innerMask: innerMask, verticalLimit: verticalLimit, strengths)
            }
            if any == 0 { continue }
            let here = Int(mbQP[mb])
            let leftQP = filterLeft ? Int(mbQP[left]) : here, topQP = filterTop ? Int(mbQP[top]) : here
            let (a, b) = (filter.offsetA, filter.offsetB)
            let luma = (DeblockingThresholds(qPp: leftQP, qPq: here, filterOffsetA: a, filterOffsetB: b),
                        DeblockingThresholds(qPp: topQP, qPq: here, filterOffsetA: a, filterOffsetB: b),
                        DeblockingThresholds(qPp: here, qPq: here, filterOffsetA: a, filterOffsetB: b))
            Self.filterMacroblock(lumaPlane, x: mbX * 16, y: mbY * 16, strengths: strengths, thresholds: luma,
                                  filterLeft: filterLeft, filterTop: filterTop, isChroma: false)
            guard hasChroma else { continue }
            @inline(__always) func chromaThresholds(_ qp: UnsafeMutablePointer<Int8>)
                -> (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds) {
                let c = Int(qp[mb])
                let cl = filterLeft ? Int(qp[left]) : c, ct = filterTop ? Int(qp[top]) : c
                return (DeblockingThresholds(qPp: cl, qPq: c, filterOffsetA: a, filterOffsetB: b),
                        DeblockingThresholds(qPp: ct, qPq: c, filterOffsetA: a, filterOffsetB: b),
                        DeblockingThresholds(qPp: c, qPq: c, filterOffsetA: a, filterOffsetB: b))
            }
            Self.filterChromaMacroblock(cb: cbPlane, cr: crPlane, x: mbX * 8, y: mbY * 8, strengths: strengths,
                                        cbThresholds: chromaThresholds(mbQPCb), crThresholds: chromaThresholds(mbQPCr),
                                        filterLeft: filterLeft, filterTop: filterTop)
        }
    }

    /// The deblocking controls of the slice of the current picture with index `slice` (``mbSlice``), or nil when the
    /// macroblock is not filtered: not decoded in this picture (concealed), or in a slice with
    /// disable_deblocking_filter_idc 1 (§7.4.3).
    @inline(__always)
    func deblockingControls(ofSlice slice: Int32) -> SliceFilter? {
        guard slice >= pictureFirstSlice else { return nil }
        let offset = Int(slice - pictureFirstSlice)
        guard offset < sliceFilters.count, sliceFilters[offset].disableIDC != 1 else { return nil }
        return sliceFilters[offset]
    }

    /// The 4x4 luma blocks of macroblock `mb` whose transform block has non-zero coefficients (§8.7.2.1, bS 2), one
    /// bit per block in raster order: a 4x4 block's own, or with transform_size_8x8_flag its 8x8 block's for all four.
    @inline(__always)
    func codedBlocks(_ mb: Int) -> Int {
        let transform = mbTransform8x8[mb]
        var coded = 0
        if transform & 16 != 0 {
            if transform & 1 != 0 { coded |= 0x0033 }
            if transform & 2 != 0 { coded |= 0x00CC }
            if transform & 4 != 0 { coded |= 0x3300 }
            if transform & 8 != 0 { coded |= 0xCC00 }
        } else {
            let totals = lumaTotals + mb * 16
            for block in 0..<16 where totals[block] != 0 { coded |= 1 << block }
        }
        return coded
    }

    /// bS of the inner edges of inter macroblock `mb` (§8.7.2.1) into `strengths` (vertical edges 1…3 at 4…15,
    /// horizontal ones at 20…31): 2 where either 4x4 block's transform block has coefficients (`coded`, from
    /// ``codedBlocks(_:)``), else the motion comparison with `verticalLimit`; 0 on the edges inside 8x8 transform
    /// blocks (`innerMask` ≠ 0) and on every edge of a macroblock without coefficients whose 16 blocks share one
    /// motion. Returns the values or-ed together (0: nothing to filter inside).
    @inline(__always)
    func setInterInnerStrengths(_ mb: Int, coded: Int, innerMask: Int, verticalLimit: Int, _ strengths: UnsafeMutablePointer<Int>) -> Int {
        let base = mb * 16
        if coded == 0 && sameMotion(mb) {
            for edge in 1..<4 {
                for segment in 0..<4 { strengths[edge * 4 + segment] = 0; strengths[16 + edge * 4 + segment] = 0 }
            }
            return 0
        }
        var any = 0
        for edge in 1..<4 {
            if innerMask != 0 && edge != 2 {
                for segment in 0..<4 { strengths[edge * 4 + segment] = 0; strengths[16 + edge * 4 + segment] = 0 }
                continue
            }
            // Vertical edge: column edge − 1 against column edge; horizontal edge: row edge − 1 against row edge.
            let columns = Int32(truncatingIfNeeded: coded >> (edge - 1) | coded >> edge)
            let verticalCoded = SIMD4<Int32>(columns, columns >> 4, columns >> 8, columns >> 12) & 1
            let rows = Int32(truncatingIfNeeded: coded >> ((edge - 1) * 4) | coded >> (edge * 4))
            let horizontalCoded = SIMD4<Int32>(rows, rows >> 1, rows >> 2, rows >> 3) & 1
            any |= edgeStrengths(p: base + edge - 1, q: base + edge, step: 4, coded: verticalCoded, verticalLimit: verticalLimit,
                                 into: strengths + edge * 4)
            any |= edgeStrengths(p: base + (edge - 1) * 4, q: base + edge * 4, step: 1, coded: horizontalCoded, verticalLimit: verticalLimit,
                                 into: strengths + 16 + edge * 4)
        }
        return any
    }

    /// bS of the four segments of an edge between inter blocks (§8.7.2.1) into `strengths[0…3]`: 2 where `coded` is 1
    /// (either block's transform block has coefficients), else 1 or 0 from the blocks' motion; returns them or-ed.
    /// Segment k's blocks are p + k · step and q + k · step (indices into the per-block tables; step 1 along a
    /// horizontal edge, 4 down a vertical one). When no block uses list 1 (every P macroblock, and B blocks predicted
    /// from list 0 alone), the four are compared at once — different reference pictures, or vectors at least 4 quarter
    /// samples apart horizontally or `verticalLimit` vertically — else one by one (``motionStrength(p:q:verticalLimit:)``).
    @inline(__always)
    func edgeStrengths(p: Int, q: Int, step: Int, coded: SIMD4<Int32>, verticalLimit: Int, into strengths: UnsafeMutablePointer<Int>) -> Int {
        @inline(__always) func load(_ table: UnsafeMutablePointer<Int32>, _ start: Int) -> SIMD4<Int32> {
            step == 1 ? UnsafeRawPointer(table + start).loadUnaligned(as: SIMD4<Int32>.self)
                : SIMD4(table[start], table[start + step], table[start + 2 * step], table[start + 3 * step])
        }
        var values: SIMD4<Int32>
        if any((load(refIdentitiesL1, p) .>= 0) .| (load(refIdentitiesL1, q) .>= 0)) {
            values = SIMD4(repeating: 0)
            for k in 0..<4 where coded[k] == 0 {
                values[k] = Int32(motionStrength(p: p + k * step, q: q + k * step, verticalLimit: verticalLimit))
            }
        } else {
            // Differences wrap for hostile vectors (no trap; such a stream's picture is garbage anyway).
            let dx = load(motionX, p) &- load(motionX, q), dy = load(motionY, p) &- load(motionY, q)
            let limit = Int32(truncatingIfNeeded: verticalLimit)
            let differs = (load(refIdentities, p) .!= load(refIdentities, q)) .| (dx .>= 4) .| (dx .<= -4) .| (dy .>= limit) .| (dy .<= -limit)
            values = SIMD4<Int32>(repeating: 0).replacing(with: 1, where: differs)
        }
        values.replace(with: 2, where: coded .!= 0)
        strengths[0] = Int(values[0]); strengths[1] = Int(values[1]); strengths[2] = Int(values[2]); strengths[3] = Int(values[3])
        return Int(values[0] | values[1] | values[2] | values[3])
    }

    /// Whether the transform block holding 4x4 luma block `block` (an index into the per-block tables) has
    /// non-zero coefficients: the 4x4 block's own, or its 8x8 block's with transform_size_8x8_flag.
    @inline(__always)
    func hasCoefficients(_ block: Int) -> Bool {
        let transform = mbTransform8x8[block >> 4]
        guard transform & 16 != 0 else { return lumaTotals[block] != 0 }
        let raster = block & 15
        return transform & (1 << ((raster >> 3) << 1 | (raster & 3) >> 1)) != 0
    }

    /// The four segments' bS of a luma edge when some are 1…3 and none is 4 (the edge for `filterLumaEdge`), else nil:
    /// an edge with nothing to filter is skipped, and bS 4 takes the line-by-line strong filter.
    @inline(__always)
    static func weakStrengths(_ s: UnsafeMutablePointer<Int>) -> (Int, Int, Int, Int)? {
        let all = (s[0], s[1], s[2], s[3])
        guard all.0 < 4, all.1 < 4, all.2 < 4, all.3 < 4, all.0 | all.1 | all.2 | all.3 != 0 else { return nil }
        return all
    }

    /// The edges of one macroblock's block of a plane: vertical ones, then horizontal ones, each segment
    /// (4 luma or 2 chroma lines) with its bS; chroma edges 0 and 4 take luma edges 0 and 2.
    static func filterMacroblock(_ plane: MutablePlaneView, x: Int, y: Int, strengths: UnsafeMutablePointer<Int>,
                                 thresholds: (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds),
                                 filterLeft: Bool, filterTop: Bool, isChroma: Bool) {
        let edgeCount = isChroma ? 2 : 4
        let segmentLength = isChroma ? 2 : 4
        for index in 0..<edgeCount {
            let offset = index * 4, edge = isChroma ? index * 2 : index
            guard edge > 0 || filterLeft else { continue }
            if strengths[edge * 4] | strengths[edge * 4 + 1] | strengths[edge * 4 + 2] | strengths[edge * 4 + 3] == 0 { continue }
            if !isChroma, let edgeStrengths = Self.weakStrengths(strengths + edge * 4) {
                DeblockingFilter.filterLumaEdge(plane, x: x + offset, y: y, direction: .vertical, strengths: edgeStrengths,
                                                thresholds: edge == 0 ? thresholds.left : thresholds.inner)
                continue
            }
            for segment in 0..<4 {
                DeblockingFilter.filter(plane, x: x + offset, y: y + segment * segmentLength, direction: .vertical, length: segmentLength,
                                        strength: strengths[edge * 4 + segment], thresholds: edge == 0 ? thresholds.left : thresholds.inner,
                                        isChroma: isChroma)
            }
        }
        for index in 0..<edgeCount {
            let offset = index * 4, edge = isChroma ? index * 2 : index
            guard edge > 0 || filterTop else { continue }
            if strengths[16 + edge * 4] | strengths[16 + edge * 4 + 1] | strengths[16 + edge * 4 + 2] | strengths[16 + edge * 4 + 3] == 0 {
                continue
            }
            if !isChroma, let edgeStrengths = Self.weakStrengths(strengths + 16 + edge * 4) {
                DeblockingFilter.filterLumaEdge(plane, x: x, y: y + offset, direction: .horizontal, strengths: edgeStrengths,
                                                thresholds: edge == 0 ? thresholds.top : thresholds.inner)
                continue
            }
            for segment in 0..<4 {
                DeblockingFilter.filter(plane, x: x + segment * segmentLength, y: y + offset, direction: .horizontal, length: segmentLength,
                                        strength: strengths[16 + edge * 4 + segment], thresholds: edge == 0 ? thresholds.top : thresholds.inner,
                                        isChroma: isChroma)
            }
        }
    }

    /// The chroma edges of one macroblock (4:2:0), Cb and Cr together: vertical edges 0 and 4, then horizontal ones,
    /// taking the bS of luma edges 0 and 2 (§8.7), each edge with nothing to filter skipped.
    static func filterChromaMacroblock(cb: MutablePlaneView, cr: MutablePlaneView, x: Int, y: Int, strengths: UnsafeMutablePointer<Int>,
                                       cbThresholds: (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds),
                                       crThresholds: (left: DeblockingThresholds, top: DeblockingThresholds, inner: DeblockingThresholds),
                                       filterLeft: Bool, filterTop: Bool) {
        for index in 0..<2 {
            let s = strengths + index * 8
            guard index > 0 || filterLeft, s[0] | s[1] | s[2] | s[3] != 0 else { continue }
            DeblockingFilter.filterChromaEdges(cb: cb, cr: cr, x: x + index * 4, y: y, direction: .vertical, strengths: (s[0], s[1], s[2], s[3]),
                                               cbThresholds: index == 0 ? cbThresholds.left : cbThresholds.inner,
                                               crThresholds: index == 0 ? crThresholds.left : crThresholds.inner)
        }
        for index in 0..<2 {
            let s = strengths + 16 + index * 8
            guard index > 0 || filterTop, s[0] | s[1] | s[2] | s[3] != 0 else { continue }
            DeblockingFilter.filterChromaEdges(cb: cb, cr: cr, x: x, y: y + index * 4, direction: .horizontal, strengths: (s[0], s[1], s[2], s[3]),
                                               cbThresholds: index == 0 ? cbThresholds.top : cbThresholds.inner,
                                               crThresholds: index == 0 ? crThresholds.top : crThresholds.inner)
        }
    }
}
