import NativeH264Kernels

extension IntraSliceCoder {
    /// The deblocking filter over the whole reconstructed picture (§8.7), macroblocks in raster order:
    /// luma vertical edges left to right, luma horizontal edges top to bottom, then the same for Cb and
    /// Cr. Every macroblock is intra: bS 4 on macroblock edges (not at the picture's border), 3 inside.
    mutating func deblock() {
        let luma = DeblockingThresholds(qPp: qp, qPq: qp)
        let chroma = DeblockingThresholds(qPp: chromaQP, qPq: chromaQP)
        let (w, h, cw, ch) = (reconstruction.width, reconstruction.height, reconstruction.chromaWidth, reconstruction.chromaHeight)
        for mbY in 0..<heightInMbs {
            for mbX in 0..<widthInMbs {
                reconstruction.luma.withUnsafeMutableBufferPointer { buffer in
                    let plane = MutablePlaneView(base: buffer.baseAddress!, width: w, height: h, stride: w)
                    Self.filterMacroblock(plane, x: mbX * 16, y: mbY * 16, size: 16, step: 4, thresholds: luma, isChroma: false)
                }
                for component in 0..<2 {
                    let body: (inout UnsafeMutableBufferPointer<UInt8>) -> Void = { buffer in
                        let plane = MutablePlaneView(base: buffer.baseAddress!, width: cw, height: ch, stride: cw)
                        Self.filterMacroblock(plane, x: mbX * 8, y: mbY * 8, size: 8, step: 4, thresholds: chroma, isChroma: true)
                    }
                    if component == 0 { reconstruction.cb.withUnsafeMutableBufferPointer(body) } else { reconstruction.cr.withUnsafeMutableBufferPointer(body) }
                }
            }
        }
    }

    /// The edges of one macroblock's plane block: vertical ones, then horizontal ones (§8.7).
    static func filterMacroblock(_ plane: MutablePlaneView, x: Int, y: Int, size: Int, step: Int,
                                 thresholds: DeblockingThresholds, isChroma: Bool) {
        for edge in stride(from: 0, to: size, by: step) where x + edge > 0 {
            DeblockingFilter.filter(plane, x: x + edge, y: y, direction: .vertical, length: size,
                                    strength: edge == 0 ? 4 : 3, thresholds: thresholds, isChroma: isChroma)
        }
        for edge in stride(from: 0, to: size, by: step) where y + edge > 0 {
            DeblockingFilter.filter(plane, x: x, y: y + edge, direction: .horizontal, length: size,
                                    strength: edge == 0 ? 4 : 3, thresholds: thresholds, isChroma: isChroma)
        }
    }
}
