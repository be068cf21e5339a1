/// The 4x4 integer transform pair: the encoder's forward core transform (the exact integer inverse of
/// §8.5.12.2's butterflies up to the scaling that quantisation absorbs) and the decoder's inverse
/// (§8.5.12.2), with the reconstruction of §8.5.14 (prediction + residual, Clip1).
///
/// Blocks are 16 coefficients in raster order (index = 4·row + column).
public enum Transform4x4 {
    /// Forward core transform, plain: Cf · X · Cfᵀ with Cf = [[1,1,1,1],[2,1,−1,−2],[1,−1,−1,1],[1,−2,2,−1]].
    /// - Parameter residual: 16 differences (source − prediction), raster order.
    /// - Returns: 16 unscaled coefficients, raster order.
    public static func forwardReference(_ residual: [Int32]) -> [Int32] {
        let cf: [[Int32]] = [[1, 1, 1, 1], [2, 1, -1, -2], [1, -1, -1, 1], [1, -2, 2, -1]]
        var out = [Int32](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var sum: Int32 = 0
                for k in 0..<4 { for l in 0..<4 { sum += cf[i][k] * residual[4 * k + l] * cf[j][l] } }
                out[4 * i + j] = sum
            }
        }
        return out
    }

    /// Forward core transform, fast: butterflies in place on scalar locals.
    /// - Parameter block: 16 differences in, 16 coefficients out (raster order).
    @inlinable
    public static func forward(_ block: UnsafeMutablePointer<Int32>) {
        for i in 0..<4 {
            let r = block + 4 * i
            let s03 = r[0] &+ r[3], d03 = r[0] &- r[3], s12 = r[1] &+ r[2], d12 = r[1] &- r[2]
            r[0] = s03 &+ s12; r[1] = (d03 << 1) &+ d12; r[2] = s03 &- s12; r[3] = d03 &- (d12 << 1)
        }
        for j in 0..<4 {
            let c = block + j
            let s03 = c[0] &+ c[12], d03 = c[0] &- c[12], s12 = c[4] &+ c[8], d12 = c[4] &- c[8]
            c[0] = s03 &+ s12; c[4] = (d03 << 1) &+ d12; c[8] = s03 &- s12; c[12] = d03 &- (d12 << 1)
        }
    }

    /// The residual of a 4x4 block and its forward core transform, plain: the differences into an
    /// array, then ``forwardReference(_:)``.
    /// - Parameters:
    ///   - source: the first sample of the source block.
    ///   - sourceStride: samples from one row of `source` to the next.
    ///   - prediction: the first sample of the prediction.
    ///   - predictionStride: samples from one row of `prediction` to the next.
    /// - Returns: 16 coefficients, raster order.
    public static func forwardDifferenceReference(_ source: UnsafePointer<UInt8>, stride sourceStride: Int,
                                                  _ prediction: UnsafePointer<UInt8>, stride predictionStride: Int) -> [Int32] {
        var residual = [Int32](repeating: 0, count: 16)
        for y in 0..<4 {
            for x in 0..<4 { residual[4 * y + x] = Int32(source[y * sourceStride + x]) - Int32(prediction[y * predictionStride + x]) }
        }
        return forwardReference(residual)
    }

    /// The residual of a 4x4 block (source − prediction) through the forward core transform, fast:
    /// each row's differences and butterflies on scalar locals straight from the samples, the
    /// columns' butterflies, one store of the 16 coefficients (no round trip of the residual
    /// through memory).
    /// - Parameters:
    ///   - source: the first sample of the source block.
    ///   - sourceStride: samples from one row of `source` to the next.
    ///   - prediction: the first sample of the prediction.
    ///   - predictionStride: samples from one row of `prediction` to the next.
    ///   - block: where the 16 coefficients go (raster order).
    @inlinable
    public static func forwardDifference(_ source: UnsafePointer<UInt8>, stride sourceStride: Int,
                                         _ prediction: UnsafePointer<UInt8>, stride predictionStride: Int,
                                         into block: UnsafeMutablePointer<Int32>) {
        @inline(__always) func row(_ y: Int) -> (Int32, Int32, Int32, Int32) {
            let s = source + y &* sourceStride, p = prediction + y &* predictionStride
            let r0 = Int32(s[0]) &- Int32(p[0]), r1 = Int32(s[1]) &- Int32(p[1])
            let r2 = Int32(s[2]) &- Int32(p[2]), r3 = Int32(s[3]) &- Int32(p[3])
            let s03 = r0 &+ r3, d03 = r0 &- r3, s12 = r1 &+ r2, d12 = r1 &- r2
            return (s03 &+ s12, (d03 &<< 1) &+ d12, s03 &- s12, d03 &- (d12 &<< 1))
        }
        let a = row(0), b = row(1), c = row(2), d = row(3)
        @inline(__always) func column(_ j: Int, _ c0: Int32, _ c4: Int32, _ c8: Int32, _ c12: Int32) {
            let s03 = c0 &+ c12, d03 = c0 &- c12, s12 = c4 &+ c8, d12 = c4 &- c8
            block[j] = s03 &+ s12
            block[4 + j] = (d03 &<< 1) &+ d12
            block[8 + j] = s03 &- s12
            block[12 + j] = d03 &- (d12 &<< 1)
        }
        column(0, a.0, b.0, c.0, d.0)
        column(1, a.1, b.1, c.1, d.1)
        column(2, a.2, b.2, c.2, d.2)
        column(3, a.3, b.3, c.3, d.3)
    }

    /// Inverse transform, plain, as §8.5.12.2 writes it: rows (8-338 … 8-345), then columns
    /// (8-346 … 8-353), then r = (h + 32) >> 6 (8-354).
    /// - Parameter coefficients: 16 scaled coefficients d, raster order.
    /// - Returns: 16 residual samples r, raster order.
    public static func inverseReference(_ coefficients: [Int32]) -> [Int32] {
        var f = [Int32](repeating: 0, count: 16)
        for i in 0..<4 {
            let d = Array(coefficients[(4 * i)..<(4 * i + 4)])
            let e = d[0] + d[2], ff = d[0] - d[2], g = (d[1] >> 1) - d[3], h = d[1] + (d[3] >> 1)
            f[4 * i] = e + h; f[4 * i + 1] = ff + g; f[4 * i + 2] = ff - g; f[4 * i + 3] = e - h
        }
        var r = [Int32](repeating: 0, count: 16)
        for j in 0..<4 {
            let g0 = f[j] + f[8 + j], h0 = f[j] - f[8 + j]
            let g1 = (f[4 + j] >> 1) - f[12 + j], h1 = f[4 + j] + (f[12 + j] >> 1)
            r[j] = (g0 + h1 + 32) >> 6
            r[4 + j] = (h0 + g1 + 32) >> 6
            r[8 + j] = (h0 - g1 + 32) >> 6
            r[12 + j] = (g0 - h1 + 32) >> 6
        }
        return r
    }

    /// Inverse transform, fast, in place on a pointer.
    /// - Parameter block: 16 scaled coefficients in, 16 residual samples out (raster order).
    @inlinable
    public static func inverse(_ block: UnsafeMutablePointer<Int32>) {
        for i in 0..<4 {
            let r = block + 4 * i
            let e = r[0] &+ r[2], f = r[0] &- r[2], g = (r[1] >> 1) &- r[3], h = r[1] &+ (r[3] >> 1)
            r[0] = e &+ h; r[1] = f &+ g; r[2] = f &- g; r[3] = e &- h
        }
        for j in 0..<4 {
            let c = block + j
            let e = c[0] &+ c[8], f = c[0] &- c[8], g = (c[4] >> 1) &- c[12], h = c[4] &+ (c[12] >> 1)
            c[0] = (e &+ h &+ 32) >> 6; c[4] = (f &+ g &+ 32) >> 6; c[8] = (f &- g &+ 32) >> 6; c[12] = (e &- h &+ 32) >> 6
        }
    }

    /// Adds a residual block to a predicted block in place and clips (§8.5.14, Clip1).
    /// - Parameters:
    ///   - residual: 16 residual samples, raster order.
    ///   - samples: the top-left predicted sample; reconstructed samples are written back.
    ///   - stride: samples from one row of `samples` to the next.
    @inlinable
    public static func add(_ residual: UnsafePointer<Int32>, to samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        for y in 0..<4 {
            let row = samples + y * stride
            for x in 0..<4 { row[x] = clip1(Int32(row[x]) &+ residual[4 * y + x]) }
        }
    }
}
