/// The thresholds of the deblocking filter for one edge (§8.7.2.2): indexA and indexB from the average
/// QP of the two blocks plus the slice's filter offsets, α′ and β′ from Table 8-16 (8-bit: α = α′,
/// β = β′), and tC0 from Table 8-17.
public struct DeblockingThresholds: Sendable, Hashable {
    /// indexA = Clip3(0, 51, qPav + filterOffsetA) (8-461).
    public let indexA: Int
    /// indexB = Clip3(0, 51, qPav + filterOffsetB) (8-462).
    public let indexB: Int
    /// α (Table 8-16 at indexA).
    public let alpha: Int
    /// β (Table 8-16 at indexB).
    public let beta: Int

    /// Derives the thresholds.
    /// - Parameters:
    ///   - qPp: QP of the macroblock holding p0 (QPY for luma, QPC for chroma).
    ///   - qPq: QP of the macroblock holding q0.
    ///   - filterOffsetA: FilterOffsetA = slice_alpha_c0_offset_div2 · 2 (−12…12).
    ///   - filterOffsetB: FilterOffsetB = slice_beta_offset_div2 · 2 (−12…12).
    public init(qPp: Int, qPq: Int, filterOffsetA: Int = 0, filterOffsetB: Int = 0) {
        let average = (qPp + qPq + 1) >> 1  // 8-460
        indexA = min(max(average + filterOffsetA, 0), 51)
        indexB = min(max(average + filterOffsetB, 0), 51)
        alpha = Int(Self.alphaTable[indexA])
        beta = Int(Self.betaTable[indexB])
        tC0s = Self.packedTC0Table[indexA]
    }

    /// tC0 for a boundary strength 1…3 (Table 8-17).
    /// - Parameter strength: bS, 1…3.
    /// - Returns: tC0.
    @inlinable public func tC0(strength: Int) -> Int { Int(truncatingIfNeeded: (tC0s >> UInt32(truncatingIfNeeded: (strength &- 1) &* 8)) & 0xFF) }

    /// tC0 for bS = 1, 2 and 3 in bytes 0, 1 and 2, read from Table 8-17 once per edge rather than per line segment.
    public let tC0s: UInt32

    /// α′ by indexA (Table 8-16).
    public static let alphaTable: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 5, 6, 7, 8, 9, 10, 12, 13,
        15, 17, 20, 22, 25, 28, 32, 36, 40, 45, 50, 56, 63, 71, 80, 90, 101, 113, 127, 144, 162, 182, 203, 226, 255, 255,
    ]
    /// β′ by indexB (Table 8-16).
    public static let betaTable: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4,
        6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18,
    ]
    /// tC0′ by indexA and bS = 1, 2, 3 (Table 8-17). Intra pictures only read the bS = 3 column (bS 4 takes no
    /// tC0), so an error in the bS = 1 or 2 columns shows only in P pictures: indexA 37 is 3, 3, 5 and
    /// 38 is 3, 4, 6 (a P picture whose edges average QP 37 once decoded to other samples than ours).
    public static let tC0Table: [[UInt8]] = [
        [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0],
        [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0],
        [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 1, 1], [0, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1],
        [1, 1, 1], [1, 1, 2], [1, 1, 2], [1, 1, 2], [1, 1, 2], [1, 2, 3], [1, 2, 3], [2, 2, 3], [2, 2, 4],
        [2, 3, 4], [2, 3, 4], [3, 3, 5], [3, 4, 6], [3, 4, 6], [4, 5, 7], [4, 5, 8], [4, 6, 9], [5, 7, 10],
        [6, 8, 11], [6, 8, 13], [7, 10, 14], [8, 11, 16], [9, 12, 18], [10, 13, 20], [11, 15, 23], [13, 17, 25],
    ]

    /// ``tC0Table`` with each row packed as ``tC0s`` holds it (bS 1, 2, 3 in bytes 0, 1, 2): one load per edge,
    /// no row array to retain.
    static let packedTC0Table: [UInt32] = [
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000,
        0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x000000, 0x010000,
        0x010000, 0x010000, 0x010000, 0x010100, 0x010100, 0x010101, 0x010101, 0x010101, 0x010101,
        0x020101, 0x020101, 0x020101, 0x020101, 0x030201, 0x030201, 0x030202, 0x040202, 0x040302,
        0x040302, 0x050303, 0x060403, 0x060403, 0x070504, 0x080504, 0x090604, 0x0A0705, 0x0B0806,
        0x0D0806, 0x0E0A07, 0x100B08, 0x120C09, 0x140D0A, 0x170F0B, 0x19110D,
    ]
}
