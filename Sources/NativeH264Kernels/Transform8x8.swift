/// The 8x8 inverse transform of the High profiles (§8.5.13.2) and the 8x8 frame zig-zag scan (§8.5.7,
/// Table 8-13).
public enum Transform8x8 {
    /// Raster position (8·row + column) of each scan index of the 8x8 frame zig-zag scan (Table 8-13).
    public static let frameScan: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// Places 64 levels in zig-zag scan order at their raster positions (the inverse scan of §8.5.7).
    /// - Parameters:
    ///   - scan: 64 levels in scan order.
    ///   - raster: receives the 64 levels in raster order.
    @inlinable
    public static func unscan(_ scan: UnsafePointer<Int32>, into raster: UnsafeMutablePointer<Int32>) {
        frameScan.withUnsafeBufferPointer { order in
            for k in 0..<64 { raster[order[k]] = scan[k] }
        }
    }

    /// The one-dimensional inverse transform of §8.5.13.2 (8-337 … 8-368) over eight values `stride` apart.
    @inlinable @inline(__always)
    static func inverse1D(_ d: UnsafeMutablePointer<Int32>, stride s: Int) {
        let d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s], d6 = d[6 * s], d7 = d[7 * s]
        let e0 = d0 &+ d4, e1 = d5 &- d3 &- d7 &- (d7 >> 1), e2 = d0 &- d4, e3 = d1 &+ d7 &- d3 &- (d3 >> 1)
        let e4 = (d2 >> 1) &- d6, e5 = d7 &- d1 &+ d5 &+ (d5 >> 1), e6 = d2 &+ (d6 >> 1), e7 = d3 &+ d5 &+ d1 &+ (d1 >> 1)
        let f0 = e0 &+ e6, f1 = e1 &+ (e7 >> 2), f2 = e2 &+ e4, f3 = e3 &+ (e5 >> 2)
        let f4 = e2 &- e4, f5 = (e3 >> 2) &- e5, f6 = e0 &- e6, f7 = e7 &- (e1 >> 2)
        d[0] = f0 &+ f7; d[s] = f2 &+ f5; d[2 * s] = f4 &+ f3; d[3 * s] = f6 &+ f1
        d[4 * s] = f6 &- f1; d[5 * s] = f4 &- f3; d[6 * s] = f2 &- f5; d[7 * s] = f0 &- f7
    }

    /// The inverse transform in place (§8.5.13.2): rows, then columns, then (x + 32) >> 6.
    /// - Parameter block: 64 scaled coefficients in, 64 residual samples out (raster order).
    @inlinable
    public static func inverse(_ block: UnsafeMutablePointer<Int32>) {
        for i in 0..<8 { inverse1D(block + 8 * i, stride: 1) }
        for j in 0..<8 { inverse1D(block + j, stride: 8) }
        for k in 0..<64 { block[k] = (block[k] &+ 32) >> 6 }
    }

    /// Adds a residual block to a predicted block in place and clips (§8.5.14, Clip1).
    /// - Parameters:
    ///   - residual: 64 residual samples, raster order.
    ///   - samples: the top-left predicted sample; reconstructed samples are written back.
    ///   - stride: samples from one row of `samples` to the next.
    @inlinable
    public static func add(_ residual: UnsafePointer<Int32>, to samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        for y in 0..<8 {
            let row = samples + y * stride
            for x in 0..<8 { row[x] = clip1(Int32(row[x]) &+ residual[8 * y + x]) }
        }
    }
}
