import NativeH264Kernels

/// What rate control knows about a picture before coding it: a cost that grows with the bits it will
/// take, and each macroblock's adaptive QP offset.
///
/// The costs are 16x16 SATDs of the source: against the macroblock's own mean (an intra estimate, the
/// DC prediction with no neighbours) and against the same place in the previous source picture (an
/// inter estimate with a zero vector). A P picture costs the cheaper of the two per macroblock.
struct RateControlAnalysis {
    /// Sum over the macroblocks of the intra estimate.
    var intraCost = 0
    /// Sum over the macroblocks of min(inter, intra) estimate; equal to ``intraCost`` without a previous picture.
    var predictedCost = 0
    /// Per macroblock (raster): the QP offset from the picture QP, empty when adaptive quantisation is off.
    var offsets: [Int8] = []

    /// No analysis: zero costs, no offsets (a plain constant QP needs none).
    init() {}

    /// Analyses a picture.
    /// - Parameters:
    ///   - source: the picture, padded to whole macroblocks.
    ///   - previous: the previous source picture, if any.
    ///   - strength: adaptive quantisation strength (QP steps per doubling of variance; 0: no offsets).
    init(source: EncoderPicture, previous: EncoderPicture?, strength: Double) {
        let widthInMbs = source.width / 16, heightInMbs = source.height / 16
        let stride = source.width
        var logVariances = [Double]()
        if strength > 0 { logVariances.reserveCapacity(widthInMbs * heightInMbs) }
        var flat = [UInt8](repeating: 0, count: 256)
        source.luma.withUnsafeBufferPointer { src in
            flat.withUnsafeMutableBufferPointer { flat in
                for mbY in 0..<heightInMbs {
                    for mbX in 0..<widthInMbs {
                        let block = src.baseAddress! + mbY * 16 * stride + mbX * 16
                        var sum = 0, squares = 0
                        for y in 0..<16 {
                            for x in 0..<16 {
                                let v = Int(block[y * stride + x])
                                sum += v
                                squares += v * v
                            }
                        }
                        let mean = UInt8((sum + 128) >> 8)
                        flat.update(repeating: mean)
                        let intra = SATD.fast(.w16h16, block, stride: stride, flat.baseAddress!, stride: 16)
                        var inter = intra
                        if let previous {
                            inter = previous.luma.withUnsafeBufferPointer { prev in
                                SATD.fast(.w16h16, block, stride: stride, prev.baseAddress! + mbY * 16 * stride + mbX * 16, stride: stride)
                            }
                        }
                        intraCost += intra
                        predictedCost += min(inter, intra)
                        if strength > 0 {
                            // Σ(x − mean)² over the 256 samples.
                            let variance = squares - (sum * sum) / 256
                            logVariances.append(RateControlMath.log2(Double(max(variance, 0)) + 256))
                        }
                    }
                }
            }
        }
        if strength > 0, !logVariances.isEmpty {
            let mean = logVariances.reduce(0, +) / Double(logVariances.count)
            offsets = logVariances.map { Int8(min(max((strength * ($0 - mean)).rounded(), -8), 8)) }
        }
    }
}
