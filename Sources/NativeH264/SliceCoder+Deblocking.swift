import NativeH264Kernels

extension SliceCoder {
    /// The deblocking filter over the whole reconstructed picture (§8.7), macroblocks in raster order
    /// (``PictureDeblocking``), on up to `threads` threads: rows in a wavefront, each macroblock filtered
    /// after its left neighbour and the two above it to the right, which gives the samples of the raster order.
    /// - Parameter threads: the most threads to filter on (1: this one alone).
    mutating func deblock(threads: Int = 1) {
        let pass = PictureDeblocking(widthInMbs: widthInMbs, heightInMbs: heightInMbs, macroblockQPs: macroblockQPs,
                                     macroblockIsIntra: macroblockIsIntra, lumaTotals: lumaTotals, motionVectors: motionVectors)
        let (w, h, cw, ch) = (reconstruction.width, reconstruction.height, reconstruction.chromaWidth, reconstruction.chromaHeight)
        reconstruction.luma.withUnsafeMutableBufferPointer { luma in
            reconstruction.cb.withUnsafeMutableBufferPointer { cb in
                reconstruction.cr.withUnsafeMutableBufferPointer { cr in
                    let planes = DeblockingPlanes(luma: MutablePlaneView(base: luma.baseAddress!, width: w, height: h, stride: w),
                                                  cb: MutablePlaneView(base: cb.baseAddress!, width: cw, height: ch, stride: cw),
                                                  cr: MutablePlaneView(base: cr.baseAddress!, width: cw, height: ch, stride: cw))
                    pass.run(on: planes, threads: threads)
                }
            }
        }
    }

    /// (offset in samples, luma edge index) of the luma and the chroma edges, built once.
    static let lumaEdges = [(0, 0), (4, 1), (8, 2), (12, 3)]
    static let chromaEdges = [(0, 0), (4, 2)]

    /// The edges of one macroblock's plane block: vertical ones, then horizontal ones (§8.7), each
    /// segment (4 luma or 2 chroma lines) with its bS.
    static func filterMacroblock(_ plane: MutablePlaneView, x: Int, y: Int, strengths: InlineArray<32, UInt8>,
                                 thresholds: EdgeThresholds, isChroma: Bool) {
        // Luma edges 0, 4, 8, 12; chroma edges 0 and 4 (luma edges 0 and 8).
        let edges = isChroma ? chromaEdges : lumaEdges
        let segmentLength = isChroma ? 2 : 4
        for (offset, edge) in edges where x + offset > 0 {
            for segment in 0..<4 {
                DeblockingFilter.filter(plane, x: x + offset, y: y + segment * segmentLength, direction: .vertical, length: segmentLength,
                                        strength: Int(strengths[edge * 4 + segment]), thresholds: edge == 0 ? thresholds.left : thresholds.inner,
                                        isChroma: isChroma)
            }
        }
        for (offset, edge) in edges where y + offset > 0 {
            for segment in 0..<4 {
                DeblockingFilter.filter(plane, x: x + segment * segmentLength, y: y + offset, direction: .horizontal, length: segmentLength,
                                        strength: Int(strengths[16 + edge * 4 + segment]), thresholds: edge == 0 ? thresholds.top : thresholds.inner,
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
