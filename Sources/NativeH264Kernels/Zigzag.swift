/// The zig-zag scan of 4x4 frame blocks (§8.5.6, Table 8-13): the order in which CAVLC codes the 16
/// levels of a transform block.
public enum Zigzag {
    /// Raster index (4·row + column) of each scan position 0…15 (frame macroblocks).
    public static let frame4x4: [Int] = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15]

    /// Reorders a raster-order block into scan order, plain.
    /// - Parameter raster: 16 values, raster order.
    /// - Returns: 16 values in zig-zag order.
    public static func scanReference(_ raster: [Int32]) -> [Int32] {
        frame4x4.map { raster[$0] }
    }

    /// Reorders a raster block into scan order, fast (pointers, no allocation).
    /// - Parameters:
    ///   - raster: 16 values, raster order.
    ///   - scan: receives the 16 values in zig-zag order.
    @inlinable
    public static func scan(_ raster: UnsafePointer<Int32>, into scan: UnsafeMutablePointer<Int32>) {
        scan[0] = raster[0]; scan[1] = raster[1]; scan[2] = raster[4]; scan[3] = raster[8]
        scan[4] = raster[5]; scan[5] = raster[2]; scan[6] = raster[3]; scan[7] = raster[6]
        scan[8] = raster[9]; scan[9] = raster[12]; scan[10] = raster[13]; scan[11] = raster[10]
        scan[12] = raster[7]; scan[13] = raster[11]; scan[14] = raster[14]; scan[15] = raster[15]
    }

    /// Puts scan-order values back into raster order (the decoder's inverse scan, §8.5.6).
    /// - Parameters:
    ///   - scan: 16 values in zig-zag order.
    ///   - raster: receives the 16 values in raster order.
    @inlinable
    public static func unscan(_ scan: UnsafePointer<Int32>, into raster: UnsafeMutablePointer<Int32>) {
        raster[0] = scan[0]; raster[1] = scan[1]; raster[4] = scan[2]; raster[8] = scan[3]
        raster[5] = scan[4]; raster[2] = scan[5]; raster[3] = scan[6]; raster[6] = scan[7]
        raster[9] = scan[8]; raster[12] = scan[9]; raster[13] = scan[10]; raster[10] = scan[11]
        raster[7] = scan[12]; raster[11] = scan[13]; raster[14] = scan[14]; raster[15] = scan[15]
    }
}
