import NativeH264Kernels

extension NativeH264Decoder {
    /// The deblocking filter over a decoded frame (§8.7), macroblocks in raster order: luma vertical
    /// edges left to right, then horizontal edges top to bottom, then the same for Cb and Cr. Each
    /// macroblock uses its slice's disable_deblocking_filter_idc (1: off; 2: not across slice edges)
    /// and filter offsets; concealed macroblocks are left alone.
    func deblockPicture(_ picture: DecoderPicture) {
        let w = widthInMbs
        let lumaPlane = MutablePlaneView(base: picture.luma, width: picture.width, height: picture.height, stride: picture.width)
        let hasChroma = picture.chromaWidth > 0
        let cbPlane = MutablePlaneView(base: picture.cb, width: max(picture.chromaWidth, 1), height: max(picture.chromaHeight, 1),
                                       stride: max(picture.chromaWidth, 1))
        let crPlane = MutablePlaneView(base: picture.cr, width: max(picture.chromaWidth, 1), height: max(picture.chromaHeight, 1),
                                       stride: max(picture.chromaWidth, 1))
        for mb in 0..<(w * heightInMbs) {
            let slice = mbSlice[mb]
            guard slice >= pictureFirstSlice else { continue }
            let sliceOffset = Int(slice - pictureFirstSlice)
            guard sliceOffset < sliceFilters.count else { continue }
            let filter = sliceFilters[sliceOffset]
            if filter.disableIDC == 1 { continue }
            let mbX = mb % w, mbY = mb / w
            let left = mb - 1, top = mb - w
            let filterLeft = mbX > 0 && mbSlice[left] >= pictureFirstSlice && (filter.disableIDC != 2 || mbSlice[left] == slice)
            let filterTop = mbY > 0 && mbSlice[top] >= pictureFirstSlice && (filter.disableIDC != 2 || mbSlice[top] == slice)
            let strengths = strengthScratch
            strengths.update(repeating: 0, count: 32)
            var any = 0
            let qIntra = mbKind[mb] != Kind.inter
            // With transform_size_8x8_flag the luma edges inside the 8x8 blocks are not filtered (§8.7).
            let innerEdges = mbTransform8x8[mb] & 16 != 0 ? 2 : 1
            // An inter macroblock without luma coefficients whose 16 blocks share one motion has bS 0 on every inner
            // edge (§8.7.2.1): only its two outer edges are derived.
            var edgeLimit = 4
            if !qIntra {
                let transform = mbTransform8x8[mb]
                var coded = transform & 16 != 0 ? Int(transform & 15) : 0
                if transform & 16 == 0 { for block in (mb * 16)..<(mb * 16 + 16) { coded |= Int(lumaTotals[block]) } }
                if coded == 0 && sameMotion(mb) { edgeLimit = 1 }
            }
            for edge in stride(from: 0, to: edgeLimit, by: innerEdges) {
                for segment in 0..<4 {
                    if edge > 0 || filterLeft {
                        let pMb = edge == 0 ? left : mb
                        let p = pMb * 16 + segment * 4 + (edge == 0 ? 3 : edge - 1), q = mb * 16 + segment * 4 + edge
                        strengths[edge * 4 + segment] = strength(p: p, q: q, pIntra: mbKind[pMb] != Kind.inter, qIntra: qIntra, edge: edge == 0)
                        any |= strengths[edge * 4 + segment]
                    }
                    if edge > 0 || filterTop {
                        let pMb = edge == 0 ? top : mb
                        let p = pMb * 16 + (edge == 0 ? 12 : (edge - 1) * 4) + segment, q = mb * 16 + edge * 4 + segment
                        strengths[16 + edge * 4 + segment] = strength(p: p, q: q, pIntra: mbKind[pMb] != Kind.inter, qIntra: qIntra, edge: edge == 0 && !interlace.fieldPicture)
                        any |= strengths[16 + edge * 4 + segment]
                    }
                }
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
            for component in 0..<2 {
                let plane = component == 0 ? cbPlane : crPlane
                @inline(__always) func qp(_ n: Int) -> Int { Int(component == 0 ? mbQPCb[n] : mbQPCr[n]) }
                let c = qp(mb)
                let cl = filterLeft ? qp(left) : c, ct = filterTop ? qp(top) : c
                let chroma = (DeblockingThresholds(qPp: cl, qPq: c, filterOffsetA: a, filterOffsetB: b),
                              DeblockingThresholds(qPp: ct, qPq: c, filterOffsetA: a, filterOffsetB: b),
                              DeblockingThresholds(qPp: c, qPq: c, filterOffsetA: a, filterOffsetB: b))
                Self.filterMacroblock(plane, x: mbX * 8, y: mbY * 8, strengths: strengths, thresholds: chroma,
                                      filterLeft: filterLeft, filterTop: filterTop, isChroma: true)
            }
        }
    }

    /// bS of the edge between 4x4 luma blocks p and q (indices into the per-block tables) (§8.7.2.1).
    @inline(__always)
    func strength(p: Int, q: Int, pIntra: Bool, qIntra: Bool, edge: Bool) -> Int {
        if pIntra || qIntra { return edge ? 4 : 3 }
        if hasCoefficients(p) || hasCoefficients(q) { return 2 }
        return motionStrength(p: p, q: q)
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
}
