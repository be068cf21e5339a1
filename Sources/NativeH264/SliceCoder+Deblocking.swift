import NativeH264Kernels

extension SliceCoder {
    /// The deblocking filter over the whole reconstructed picture (§8.7), macroblocks in raster order:
    /// luma vertical edges left to right, luma horizontal edges top to bottom, then the same for Cb and
    /// Cr. Each 4-sample segment of an edge gets its own bS (§8.7.2.1) from the two 4x4 blocks beside
    /// it; chroma edges 0 and 4 take the bS of luma edges 0 and 8 (4:2:0).
    mutating func deblock() {
        let (w, h, cw, ch) = (reconstruction.width, reconstruction.height, reconstruction.chromaWidth, reconstruction.chromaHeight)
        for mbY in 0..<heightInMbs {
            for mbX in 0..<widthInMbs {
                // qPp and qPq of each edge (§8.7.2.2): the QPY (QPC) of the macroblocks either side.
                let mb = mbY * widthInMbs + mbX
                let here = Int(macroblockQPs[mb])
                let left = mbX > 0 ? Int(macroblockQPs[mb - 1]) : here, top = mbY > 0 ? Int(macroblockQPs[mb - widthInMbs]) : here
                let luma = EdgeThresholds(left: DeblockingThresholds(qPp: left, qPq: here), top: DeblockingThresholds(qPp: top, qPq: here),
                                          inner: DeblockingThresholds(qPp: here, qPq: here))
                let (c, cl, ct) = (ChromaQuantisation.chromaQP(lumaQP: here), ChromaQuantisation.chromaQP(lumaQP: left),
                                   ChromaQuantisation.chromaQP(lumaQP: top))
                let chroma = EdgeThresholds(left: DeblockingThresholds(qPp: cl, qPq: c), top: DeblockingThresholds(qPp: ct, qPq: c),
                                            inner: DeblockingThresholds(qPp: c, qPq: c))
                // bS[direction · 16 + edge · 4 + segment]: direction 0 vertical edges, 1 horizontal edges (inline, no heap).
                var strengths = InlineArray<32, Int>(repeating: 0)
                var anyStrength = 0
                for edge in 0..<4 {
                    for segment in 0..<4 {
                        let gx = mbX * 4 + edge, gy = mbY * 4 + segment
                        strengths[edge * 4 + segment] = gx > 0 ? strength(p: (gx - 1, gy), q: (gx, gy), isMacroblockEdge: edge == 0) : 0
                        let hx = mbX * 4 + segment, hy = mbY * 4 + edge
                        strengths[16 + edge * 4 + segment] = hy > 0 ? strength(p: (hx, hy - 1), q: (hx, hy), isMacroblockEdge: edge == 0) : 0
                        anyStrength |= strengths[edge * 4 + segment] | strengths[16 + edge * 4 + segment]
                    }
                }
                // bS 0 everywhere (a still or skipped area): no edge of the macroblock is filtered (§8.7.2: bS 0 leaves the samples).
                if anyStrength == 0 { continue }
                reconstruction.luma.withUnsafeMutableBufferPointer { buffer in
                    let plane = MutablePlaneView(base: buffer.baseAddress!, width: w, height: h, stride: w)
                    Self.filterMacroblock(plane, x: mbX * 16, y: mbY * 16, strengths: strengths, thresholds: luma, isChroma: false)
                }
                reconstruction.cb.withUnsafeMutableBufferPointer { buffer in
                    let plane = MutablePlaneView(base: buffer.baseAddress!, width: cw, height: ch, stride: cw)
                    Self.filterMacroblock(plane, x: mbX * 8, y: mbY * 8, strengths: strengths, thresholds: chroma, isChroma: true)
                }
                reconstruction.cr.withUnsafeMutableBufferPointer { buffer in
                    let plane = MutablePlaneView(base: buffer.baseAddress!, width: cw, height: ch, stride: cw)
                    Self.filterMacroblock(plane, x: mbX * 8, y: mbY * 8, strengths: strengths, thresholds: chroma, isChroma: true)
                }
            }
        }
    }

    /// bS between two 4x4 luma blocks at picture 4x4-grid coordinates (§8.7.2.1).
    func strength(p: (Int, Int), q: (Int, Int), isMacroblockEdge: Bool) -> Int {
        BoundaryStrength.derive(p: blockInfo(p.0, p.1), q: blockInfo(q.0, q.1), isMacroblockEdge: isMacroblockEdge)
    }

    /// What bS needs to know about the 4x4 luma block at grid position (x, y).
    func blockInfo(_ x: Int, _ y: Int) -> DeblockingBlockInfo {
        let mb = (y / 4) * widthInMbs + x / 4
        return DeblockingBlockInfo(isIntra: macroblockIsIntra[mb], hasCoefficients: lumaTotals[y * widthInMbs * 4 + x] > 0,
                                   referencePicture: 0, motionVector: motionVectors[y * widthInMbs * 4 + x])
    }

    /// (offset in samples, luma edge index) of the luma and the chroma edges, built once.
    static let lumaEdges = [(0, 0), (4, 1), (8, 2), (12, 3)]
    static let chromaEdges = [(0, 0), (4, 2)]

    /// The edges of one macroblock's plane block: vertical ones, then horizontal ones (§8.7), each
    /// segment (4 luma or 2 chroma lines) with its bS.
    static func filterMacroblock(_ plane: MutablePlaneView, x: Int, y: Int, strengths: InlineArray<32, Int>,
                                 thresholds: EdgeThresholds, isChroma: Bool) {
        // Luma edges 0, 4, 8, 12; chroma edges 0 and 4 (luma edges 0 and 8).
        let edges = isChroma ? chromaEdges : lumaEdges
        let segmentLength = isChroma ? 2 : 4
        for (offset, edge) in edges where x + offset > 0 {
            for segment in 0..<4 {
                DeblockingFilter.filter(plane, x: x + offset, y: y + segment * segmentLength, direction: .vertical, length: segmentLength,
                                        strength: strengths[edge * 4 + segment], thresholds: edge == 0 ? thresholds.left : thresholds.inner,
                                        isChroma: isChroma)
            }
        }
        for (offset, edge) in edges where y + offset > 0 {
            for segment in 0..<4 {
                DeblockingFilter.filter(plane, x: x + segment * segmentLength, y: y + offset, direction: .horizontal, length: segmentLength,
                                        strength: strengths[16 + edge * 4 + segment], thresholds: edge == 0 ? thresholds.top : thresholds.inner,
                                        isChroma: isChroma)
            }
        }
    }
}

/// The deblocking thresholds of one macroblock's edges: its left and top macroblock edges average
/// its QP with the neighbour's (8-460), the inner edges use its own.
struct EdgeThresholds {
    /// The left macroblock edge (vertical edge 0).
    let left: DeblockingThresholds
    /// The top macroblock edge (horizontal edge 0).
    let top: DeblockingThresholds
    /// The edges inside the macroblock.
    let inner: DeblockingThresholds
}
