/// Scaling with weighting matrices (§8.5.9, §8.5.10, §8.5.11.2, §8.5.12.1): LevelScale4x4 = weightScale4x4 ·
/// normAdjust4x4 for any scaling list, where the flat kernels assume Flat_4x4_16.
extension Quantisation {
    /// LevelScale4x4 (8-315) for the six values of qP % 6, 16 raster-order entries each, for a weighting matrix.
    /// - Parameter weights: weightScale4x4 in raster order (16 entries; 16 everywhere is Flat_4x4_16).
    /// - Returns: 6 × 16 values, m-major.
    public static func levelScale(weights: [Int32]) -> [Int32] {
        var table = [Int32](repeating: 0, count: 96)
        for m in 0..<6 {
            for k in 0..<16 { table[m * 16 + k] = weights[k] * normAdjust[m][positionClass(k >> 2, k & 3)] }
        }
        return table
    }

    /// Scales 16 levels in place with explicit LevelScale4x4 values (8-336 … 8-338).
    /// - Parameters:
    ///   - block: 16 levels in raster order in, scaled coefficients out.
    ///   - qP: the quantisation parameter, 0…51.
    ///   - levelScale: the 16 LevelScale4x4 values for qP % 6 (raster order).
    ///   - keepingDC: leave `block[0]` alone (Intra16x16 and chroma, whose DC is scaled with the DC transform).
    @inlinable
    public static func dequantise(_ block: UnsafeMutablePointer<Int32>, qP: Int, levelScale: UnsafePointer<Int32>, keepingDC: Bool) {
        let dc = block[0]
        if qP >= 24 {
            let shift = Int32(qP / 6 - 4)
            for k in 0..<16 { block[k] = (block[k] &* levelScale[k]) << shift }
        } else {
            let shift = Int32(4 - qP / 6), round = Int32(1) << (shift - 1)
            for k in 0..<16 { block[k] = (block[k] &* levelScale[k] &+ round) >> shift }
        }
        if keepingDC { block[0] = dc }
    }
}

extension DCTransforms {
    /// The Intra16x16 luma DC transform and scaling (§8.5.10) with an explicit LevelScale4x4(qP % 6, 0, 0).
    /// - Parameters:
    ///   - block: 16 DC levels in raster order in, scaled DC values out.
    ///   - qP: the quantisation parameter, 0…51.
    ///   - dcScale: LevelScale4x4(qP % 6, 0, 0) of the Intra Y list.
    @inlinable
    public static func inverseLumaDC(_ block: UnsafeMutablePointer<Int32>, qP: Int, dcScale: Int32) {
        hadamard4x4(block)
        if qP >= 36 {
            let shift = Int32(qP / 6 - 6)
            for i in 0..<16 { block[i] = (block[i] &* dcScale) << shift }
        } else {
            let shift = Int32(6 - qP / 6), round = Int32(1) << (shift - 1)
            for i in 0..<16 { block[i] = (block[i] &* dcScale &+ round) >> shift }
        }
    }

    /// The 4:2:0 chroma DC transform and scaling (§8.5.11.2, 8-330) with an explicit LevelScale4x4(qP % 6, 0, 0).
    /// - Parameters:
    ///   - block: 4 DC levels in, scaled DC values out.
    ///   - qP: the chroma quantisation parameter, 0…51.
    ///   - dcScale: LevelScale4x4(qP % 6, 0, 0) of the component's list.
    @inlinable
    public static func inverseChromaDC(_ block: UnsafeMutablePointer<Int32>, qP: Int, dcScale: Int32) {
        forwardChromaDC(block)
        let shift = Int32(qP / 6)
        for i in 0..<4 { block[i] = ((block[i] &* dcScale) << shift) >> 5 }
    }
}
