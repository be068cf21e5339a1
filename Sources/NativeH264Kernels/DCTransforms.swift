/// The second-stage transforms of the DC coefficients: the 4x4 Hadamard of Intra16x16 luma DC
/// (§8.5.10) and the 2x2 transform of 4:2:0 chroma DC (§8.5.11), both directions, with the DC
/// scaling of the decoder.
public enum DCTransforms {
    /// Inverse Intra16x16 DC transform, plain: f = H · c · H with H = [[1,1,1,1],[1,1,−1,−1],[1,−1,−1,1],
    /// [1,−1,1,−1]] (8-320), then scaled (8-321/8-322) with LevelScale4x4(qP % 6, 0, 0).
    /// - Parameters:
    ///   - coefficients: 16 DC levels c, raster order of the 4x4 matrix.
    ///   - qP: QP′Y, 0…51.
    /// - Returns: the 16 dcY values, raster order (dcY[i][j] is the DC of 4x4 block at row i, column j).
    public static func inverseLumaDCReference(_ coefficients: [Int32], qP: Int) -> [Int32] {
        let h: [[Int32]] = [[1, 1, 1, 1], [1, 1, -1, -1], [1, -1, -1, 1], [1, -1, 1, -1]]
        let scale = Int32(Quantisation.levelScale4x4(qP % 6, 0, 0))
        var out = [Int32](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var f: Int32 = 0
                for k in 0..<4 { for l in 0..<4 { f += h[i][k] * coefficients[4 * k + l] * h[l][j] } }
                if qP >= 36 {
                    out[4 * i + j] = (f * scale) << (qP / 6 - 6)
                } else {
                    out[4 * i + j] = (f * scale + (1 << (5 - qP / 6))) >> (6 - qP / 6)
                }
            }
        }
        return out
    }

    /// Inverse Intra16x16 DC transform and scaling, fast, in place.
    /// - Parameters:
    ///   - block: 16 DC levels in, 16 dcY values out (raster order).
    ///   - qP: QP′Y, 0…51.
    @inlinable
    public static func inverseLumaDC(_ block: UnsafeMutablePointer<Int32>, qP: Int) {
        hadamard4x4(block)
        let scale = Quantisation.norms(qP % 6).0 &* 16
        if qP >= 36 {
            let shift = Int32(qP / 6 - 6)
            for i in 0..<16 { block[i] = (block[i] &* scale) << shift }
        } else {
            let shift = Int32(6 - qP / 6), round = Int32(1) << (shift - 1)
            for i in 0..<16 { block[i] = (block[i] &* scale &+ round) >> shift }
        }
    }

    /// Forward Intra16x16 DC transform of the encoder: the same Hadamard H · c · H, halved with
    /// rounding ((f + 1) >> 1, as JM and x264 do) so that its quantisation uses qbits + 1.
    /// - Parameter block: the 16 DC coefficients of the 4x4 blocks in (raster order of the blocks), the
    ///   transformed values out.
    @inlinable
    public static func forwardLumaDC(_ block: UnsafeMutablePointer<Int32>) {
        hadamard4x4(block)
        for i in 0..<16 { block[i] = (block[i] &+ 1) >> 1 }
    }

    /// The 4x4 Hadamard H · c · H in place (H symmetric, so rows then columns).
    @inlinable @inline(__always)
    static func hadamard4x4(_ block: UnsafeMutablePointer<Int32>) {
        for i in 0..<4 {
            let r = block + 4 * i
            let s01 = r[0] &+ r[1], d01 = r[0] &- r[1], s23 = r[2] &+ r[3], d23 = r[2] &- r[3]
            r[0] = s01 &+ s23; r[1] = s01 &- s23; r[2] = d01 &- d23; r[3] = d01 &+ d23
        }
        for j in 0..<4 {
            let c = block + j
            let s01 = c[0] &+ c[4], d01 = c[0] &- c[4], s23 = c[8] &+ c[12], d23 = c[8] &- c[12]
            c[0] = s01 &+ s23; c[4] = s01 &- s23; c[8] = d01 &- d23; c[12] = d01 &+ d23
        }
    }

    /// Inverse 4:2:0 chroma DC transform, plain: f = [[1,1],[1,−1]] · c · [[1,1],[1,−1]] (8-328), then
    /// dcC = ((f · LevelScale4x4(qP % 6, 0, 0)) << (qP / 6)) >> 5 (8-330).
    /// - Parameters:
    ///   - coefficients: 4 chroma DC levels, raster order of the 2x2 matrix (c[0][0], c[0][1], c[1][0], c[1][1]).
    ///   - qP: QP′C, 0…51.
    /// - Returns: the 4 dcC values, same order.
    public static func inverseChromaDCReference(_ coefficients: [Int32], qP: Int) -> [Int32] {
        let c = coefficients
        let f = [c[0] + c[1] + c[2] + c[3], c[0] - c[1] + c[2] - c[3], c[0] + c[1] - c[2] - c[3], c[0] - c[1] - c[2] + c[3]]
        let scale = Int32(Quantisation.levelScale4x4(qP % 6, 0, 0))
        return f.map { (($0 * scale) << (qP / 6)) >> 5 }
    }

    /// Inverse chroma DC transform and scaling, fast, in place.
    /// - Parameters:
    ///   - block: 4 levels in, 4 dcC values out.
    ///   - qP: QP′C, 0…51.
    @inlinable
    public static func inverseChromaDC(_ block: UnsafeMutablePointer<Int32>, qP: Int) {
        forwardChromaDC(block)
        let scale = Quantisation.norms(qP % 6).0 &* 16, shift = Int32(qP / 6)
        for i in 0..<4 { block[i] = ((block[i] &* scale) << shift) >> 5 }
    }

    /// Forward 4:2:0 chroma DC transform of the encoder (the same 2x2 Hadamard, unscaled; its
    /// quantisation uses qbits + 1).
    /// - Parameter block: the DCs of the four 4x4 chroma blocks in (raster order), transformed values out.
    @inlinable
    public static func forwardChromaDC(_ block: UnsafeMutablePointer<Int32>) {
        let a = block[0], b = block[1], c = block[2], d = block[3]
        block[0] = a &+ b &+ c &+ d; block[1] = a &- b &+ c &- d
        block[2] = a &+ b &- c &- d; block[3] = a &- b &- c &+ d
    }
}
