/// The scaling of 8x8 transform coefficients (§8.5.13.1) with LevelScale8x8 (8-318: weightScale8x8 ·
/// normAdjust8x8).
public enum Quantisation8x8 {
    /// normAdjust8x8 (8-317): v[m][class] for m = qP % 6 and the six position classes.
    public static let normAdjust: [[Int32]] = [
        [20, 18, 32, 19, 25, 24], [22, 19, 35, 21, 28, 26], [26, 23, 42, 24, 33, 31],
        [28, 25, 45, 26, 35, 33], [32, 28, 51, 30, 40, 38], [36, 32, 58, 34, 46, 43],
    ]

    /// The position class of (i, j) in normAdjust8x8 (8-317): 0 both multiples of 4, 1 both odd, 2 both 2
    /// mod 4, 3 a multiple of 4 and an odd one, 4 a multiple of 4 and a 2 mod 4, 5 the rest.
    /// - Parameters:
    ///   - i: row, 0…7.
    ///   - j: column, 0…7.
    /// - Returns: 0…5.
    @inlinable
    public static func positionClass(_ i: Int, _ j: Int) -> Int {
        let a = i & 3, b = j & 3
        if a == 0 && b == 0 { return 0 }
        if i & 1 == 1 && j & 1 == 1 { return 1 }
        if a == 2 && b == 2 { return 2 }
        if (a == 0 && j & 1 == 1) || (i & 1 == 1 && b == 0) { return 3 }
        if (a == 0 && b == 2) || (a == 2 && b == 0) { return 4 }
        return 5
    }

    /// LevelScale8x8 for the six values of qP % 6, 64 raster-order entries each, for a weighting matrix.
    /// - Parameter weights: weightScale8x8 in raster order (64 entries; 16 everywhere is Flat_8x8_16).
    /// - Returns: 6 × 64 values, m-major.
    public static func levelScale(weights: [Int32]) -> [Int32] {
        var table = [Int32](repeating: 0, count: 384)
        for m in 0..<6 {
            for k in 0..<64 { table[m * 64 + k] = weights[k] * normAdjust[m][positionClass(k >> 3, k & 7)] }
        }
        return table
    }

    /// LevelScale8x8 of the flat weighting (Flat_8x8_16, no scaling matrix).
    public static let flatLevelScale: [Int32] = levelScale(weights: [Int32](repeating: 16, count: 64))

    /// Scales 64 levels in place (8-319, 8-320): qP ≥ 36 shifts left by qP / 6 − 6, below it rounds and
    /// shifts right by 6 − qP / 6.
    /// - Parameters:
    ///   - block: 64 levels in raster order in, scaled coefficients out.
    ///   - qP: the quantisation parameter, 0…51.
    ///   - levelScale: the 64 LevelScale8x8 values for qP % 6 (raster order).
    @inlinable
    public static func dequantise(_ block: UnsafeMutablePointer<Int32>, qP: Int, levelScale: UnsafePointer<Int32>) {
        if qP >= 36 {
            let shift = Int32(qP / 6 - 6)
            for k in 0..<64 { block[k] = (block[k] &* levelScale[k]) << shift }
        } else {
            let shift = Int32(6 - qP / 6), round = Int32(1) << (shift - 1)
            for k in 0..<64 { block[k] = (block[k] &* levelScale[k] &+ round) >> shift }
        }
    }
}
