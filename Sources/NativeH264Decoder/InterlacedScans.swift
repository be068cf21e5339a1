/// The inverse scans and CABAC context increments of field-coded blocks (§8.5.6 Table 8-12 and §8.5.7
/// Table 8-13 field scan, §9.3.3.1.3 Table 9-43 field column), used in field pictures instead of the
/// frame (zig-zag) ones.
enum InterlacedScans {
    /// The 4x4 field scan (Table 8-12): scan position → raster position (4·y + x).
    static let field4x4: [Int] = [0, 4, 1, 8, 12, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]

    /// The 8x8 field scan (Table 8-13): scan position → raster position (8·y + x).
    static let field8x8: [Int] = [
        0, 8, 16, 1, 9, 24, 32, 17, 2, 25, 40, 48, 56, 33, 10, 3,
        18, 41, 49, 57, 26, 11, 4, 19, 34, 42, 50, 58, 27, 12, 5, 20,
        35, 43, 51, 59, 28, 13, 6, 21, 36, 44, 52, 60, 29, 14, 22, 37,
        45, 53, 61, 30, 7, 15, 38, 46, 54, 62, 23, 31, 39, 47, 55, 63,
    ]

    /// ctxIdxInc of significant_coeff_flag in a field-coded 8x8 block (Table 9-43, field column), by scan position.
    static let significance8x8Field: [UInt8] = [
        0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 7, 7, 8, 4, 5,
        6, 9, 10, 10, 8, 11, 12, 11, 9, 9, 10, 10, 8, 11, 12, 11,
        9, 9, 10, 10, 8, 11, 12, 11, 9, 9, 10, 10, 8, 13, 13, 9,
        9, 10, 10, 8, 13, 13, 9, 9, 10, 10, 14, 14, 14, 14, 14,
    ]

    /// Places 16 levels in field scan order at their raster positions (the inverse field scan of §8.5.6).
    /// - Parameters:
    ///   - scan: the levels in scan order.
    ///   - raster: where they go, in raster order.
    @inline(__always)
    static func unscan4x4(_ scan: UnsafePointer<Int32>, into raster: UnsafeMutablePointer<Int32>) {
        field4x4.withUnsafeBufferPointer { table in
            for k in 0..<16 { raster[table[k]] = scan[k] }
        }
    }

    /// Places 64 levels in 8x8 field scan order at their raster positions (the inverse field scan of §8.5.7).
    /// - Parameters:
    ///   - scan: the levels in scan order.
    ///   - raster: where they go, in raster order.
    @inline(__always)
    static func unscan8x8(_ scan: UnsafePointer<Int32>, into raster: UnsafeMutablePointer<Int32>) {
        field8x8.withUnsafeBufferPointer { table in
            for k in 0..<64 { raster[table[k]] = scan[k] }
        }
    }
}
