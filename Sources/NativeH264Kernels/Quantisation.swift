/// Quantisation of the encoder and the scaling (dequantisation) of the decoder for 4x4 blocks with
/// the flat scaling matrix (Flat_4x4_16, §7.4.2.1.1).
///
/// The decoder side is exact (§8.5.9 LevelScale4x4, §8.5.12.1 scaling); the encoder side is a dead-zone
/// quantiser, level = (|c| · MF + f) >> (15 + qP / 6) with rounding offset f = 2^qbits / 3 for intra and
/// 2^qbits / 6 for inter blocks (as JM and x264 do). Blocks are 16 values in raster order.
public enum Quantisation {
    /// normAdjust4x4's v (Table 8-13 / 8-315): rows m = qP % 6, columns for the three position classes.
    public static let normAdjust: [[Int32]] = [[10, 16, 13], [11, 18, 14], [13, 20, 16], [14, 23, 18], [16, 25, 20], [18, 29, 23]]

    /// The encoder's multiplication factors MF(m, class), the integer reciprocals 2^15 / (v · scale) of the
    /// transform's norms, same classes as ``normAdjust``.
    public static let multiplier: [[Int32]] = [
        [13107, 5243, 8066], [11916, 4660, 7490], [10082, 4194, 6554],
        [9362, 3647, 5825], [8192, 3355, 5243], [7282, 2893, 4559],
    ]

    /// ``multiplier`` row m as three scalars (no array access on the hot path).
    @inlinable @inline(__always)
    static func multipliers(_ m: Int) -> (Int32, Int32, Int32) {
        switch m {
        case 0: (13107, 5243, 8066)
        case 1: (11916, 4660, 7490)
        case 2: (10082, 4194, 6554)
        case 3: (9362, 3647, 5825)
        case 4: (8192, 3355, 5243)
        default: (7282, 2893, 4559)
        }
    }

    /// ``normAdjust`` row m as three scalars.
    @inlinable @inline(__always)
    static func norms(_ m: Int) -> (Int32, Int32, Int32) {
        switch m {
        case 0: (10, 16, 13)
        case 1: (11, 18, 14)
        case 2: (13, 20, 16)
        case 3: (14, 23, 18)
        case 4: (16, 25, 20)
        default: (18, 29, 23)
        }
    }

    /// The position class of raster index i, j: 0 when both even, 1 when both odd, 2 otherwise (8-315).
    @inlinable @inline(__always)
    public static func positionClass(_ i: Int, _ j: Int) -> Int {
        (i & 1) == 0 && (j & 1) == 0 ? 0 : ((i & 1) == 1 && (j & 1) == 1 ? 1 : 2)
    }

    /// LevelScale4x4(m, i, j) = weightScale4x4(i, j) · normAdjust4x4(m, i, j) with the flat weight 16 (8-316).
    /// - Parameters:
    ///   - m: qP % 6.
    ///   - i: row, 0…3.
    ///   - j: column, 0…3.
    /// - Returns: the level scale.
    @inlinable
    public static func levelScale4x4(_ m: Int, _ i: Int, _ j: Int) -> Int {
        16 * Int(normAdjust[m][positionClass(i, j)])
    }

    /// Which rounding offset the quantiser uses.
    public enum Kind: Sendable {
        /// Intra blocks: f = 2^qbits / 3.
        case intra
        /// Inter blocks: f = 2^qbits / 6.
        case inter
    }

    /// Scaling of a 4x4 block, plain, as §8.5.12.1 writes it (8-336/8-337): for qP ≥ 24,
    /// d = (c · LevelScale4x4) << (qP / 6 − 4), else (c · LevelScale4x4 + 2^(3 − qP/6)) >> (4 − qP / 6).
    /// - Parameters:
    ///   - levels: 16 levels c, raster order.
    ///   - qP: QP′Y or QP′C, 0…51.
    ///   - keepingDC: true for Intra16x16 luma and chroma blocks, whose d[0][0] is the c[0][0] already
    ///     scaled by the DC transform (8-335).
    /// - Returns: the 16 scaled coefficients d.
    public static func dequantiseReference(_ levels: [Int32], qP: Int, keepingDC: Bool) -> [Int32] {
        var d = [Int32](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                let c = levels[4 * i + j]
                if i == 0 && j == 0 && keepingDC { d[0] = c; continue }
                let scale = Int32(levelScale4x4(qP % 6, i, j))
                if qP >= 24 {
                    d[4 * i + j] = (c * scale) << (qP / 6 - 4)
                } else {
                    d[4 * i + j] = (c * scale + (1 << (3 - qP / 6))) >> (4 - qP / 6)
                }
            }
        }
        return d
    }

    /// Scaling of a 4x4 block, fast, in place.
    /// - Parameters:
    ///   - block: 16 levels in, 16 scaled coefficients out.
    ///   - qP: QP′Y or QP′C, 0…51.
    ///   - keepingDC: leave `block[0]` as it is (Intra16x16 luma and chroma AC blocks).
    @inlinable
    public static func dequantise(_ block: UnsafeMutablePointer<Int32>, qP: Int, keepingDC: Bool) {
        let v = norms(qP % 6)
        let v0 = v.0 &* 16, v1 = v.1 &* 16, v2 = v.2 &* 16
        let dc = block[0]
        if qP >= 24 {
            let shift = Int32(qP / 6 - 4)
            for i in 0..<16 {
                let scale = (i & 5) == 0 ? v0 : ((i & 5) == 5 ? v1 : v2)
                block[i] = (block[i] &* scale) << shift
            }
        } else {
            let shift = Int32(4 - qP / 6), round = Int32(1) << (shift - 1)
            for i in 0..<16 {
                let scale = (i & 5) == 0 ? v0 : ((i & 5) == 5 ? v1 : v2)
                block[i] = (block[i] &* scale &+ round) >> shift
            }
        }
        if keepingDC { block[0] = dc }
    }

    /// Dead-zone quantisation of a 4x4 block, plain.
    /// - Parameters:
    ///   - coefficients: 16 forward-transform coefficients, raster order.
    ///   - qP: 0…51.
    ///   - kind: intra or inter rounding.
    ///   - skippingDC: leave level[0] at 0 (its DC goes through the DC transform instead).
    /// - Returns: the 16 levels.
    public static func quantiseReference(_ coefficients: [Int32], qP: Int, kind: Kind, skippingDC: Bool) -> [Int32] {
        let qbits = 15 + qP / 6
        let f = (1 << qbits) / (kind == .intra ? 3 : 6)
        var out = [Int32](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                if i == 0 && j == 0 && skippingDC { continue }
                let c = Int(coefficients[4 * i + j])
                let level = (abs(c) * Int(multiplier[qP % 6][positionClass(i, j)]) + f) >> qbits
                out[4 * i + j] = Int32(c < 0 ? -level : level)
            }
        }
        return out
    }

    /// Dead-zone quantisation of a 4x4 block, fast, in place: one row of four coefficients per
    /// SIMD4<Int32> (the multipliers of a row alternate: rows 0 and 2 MF(m, 0), MF(m, 2); rows 1 and
    /// 3 MF(m, 2), MF(m, 1)), the sign taken off and put back arithmetically ((c ^ s) − s with s = c >> 31:
    /// no lane selects), the non-zero levels counted lane-wise.
    /// - Parameters:
    ///   - block: 16 coefficients in, 16 levels out.
    ///   - qP: 0…51.
    ///   - kind: intra or inter rounding.
    ///   - skippingDC: set level[0] to 0.
    /// - Returns: how many levels are non-zero.
    @inlinable @discardableResult
    public static func quantise(_ block: UnsafeMutablePointer<Int32>, qP: Int, kind: Kind, skippingDC: Bool) -> Int {
        let qbits = Int32(15 &+ qP / 6)
        let f = SIMD4<Int32>(repeating: (Int32(1) << qbits) / (kind == .intra ? 3 : 6))
        let (m0, m1, m2) = multipliers(qP % 6)
        let even = SIMD4<Int32>(m0, m2, m0, m2), odd = SIMD4<Int32>(m2, m1, m2, m1)
        let raw = UnsafeMutableRawPointer(block)
        @inline(__always) func row(_ offset: Int, _ multiplier: SIMD4<Int32>) -> SIMD4<Int32> {
            let c = raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<Int32>.self)
            let sign = c &>> 31
            let level = (((c ^ sign) &- sign) &* multiplier &+ f) &>> qbits
            raw.storeBytes(of: (level ^ sign) &- sign, toByteOffset: offset, as: SIMD4<Int32>.self)
            return (SIMD4<Int32>.zero &- level) &>> 31  // −1 where the level is non-zero (levels are ≥ 0 here)
        }
        let counted = row(0, even) &+ row(16, odd) &+ row(32, even) &+ row(48, odd)
        var nonZero = -Int(counted.wrappedSum())
        if skippingDC {
            nonZero &-= block[0] != 0 ? 1 : 0
            block[0] = 0
        }
        return nonZero
    }

    /// The largest SAD of a 4x4 residual block (Σ |source − prediction|) whose every level from
    /// ``quantise(_:qP:kind:skippingDC:)`` is certainly 0, so the transform and quantisation can be left
    /// out (zero-block detection; an encoder shortcut that changes no level). A coefficient c(i, j) of
    /// the forward core transform is at most wᵢ·wⱼ·SAD (w = 1, 2, 1, 2: the largest entry of each row of
    /// Cf), and its level (|c|·MF + f) >> qbits is 0 while that bound·MF + f < 2^qbits, in each position
    /// class: class 0 (w 1·1, MF(m, 0)), class 1 (2·2, MF(m, 1)), class 2 (1·2, MF(m, 2)).
    /// - Parameters:
    ///   - qP: 0…51.
    ///   - kind: intra or inter rounding.
    /// - Returns: the limit (the block is all zero when its SAD is at most this).
    @inlinable
    public static func zeroBlockLimit(qP: Int, kind: Kind) -> Int {
        let qbits = 15 + qP / 6
        let room = (1 << qbits) - (1 << qbits) / (kind == .intra ? 3 : 6) - 1
        let (m0, m1, m2) = multipliers(qP % 6)
        return min(room / Int(m0), room / (4 * Int(m1)), room / (2 * Int(m2)))
    }

    /// Dead-zone quantisation of DC values (Intra16x16 luma DC after ``DCTransforms/forwardLumaDC(_:)``,
    /// chroma DC after ``DCTransforms/forwardChromaDC(_:)``): MF(m, 0) with qbits + 1 and offset 2f.
    /// - Parameters:
    ///   - block: the values in, the levels out.
    ///   - count: 16 (luma) or 4 (chroma).
    ///   - qP: 0…51.
    ///   - kind: intra or inter rounding.
    /// - Returns: how many levels are non-zero.
    @inlinable @discardableResult
    public static func quantiseDC(_ block: UnsafeMutablePointer<Int32>, count: Int, qP: Int, kind: Kind) -> Int {
        let qbits = Int32(16 + qP / 6)
        let f = (Int32(1) << qbits) / (kind == .intra ? 3 : 6)
        let m = multipliers(qP % 6).0
        var nonZero = 0
        for i in 0..<count {
            let c = block[i]
            let level = Int32((Int64(abs(c)) * Int64(m) + Int64(f)) >> Int64(qbits))
            block[i] = c < 0 ? 0 &- level : level
            nonZero &+= level != 0 ? 1 : 0
        }
        return nonZero
    }
}
