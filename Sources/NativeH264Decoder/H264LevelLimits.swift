/// The level limits a decoder needs before it allocates (ITU-T H.264 Table A-1): MaxFS, the largest
/// frame in macroblocks, and MaxDpbMbs, the decoded picture buffer in macroblocks.
enum H264LevelLimits {
    /// (MaxFS, MaxDpbMbs) for `level_idc`; `nil` for an undefined level. Level 1b (`level_idc` 9, or 11
    /// with constraint_set3_flag in Baseline) is read as level 1.1, which allows more.
    /// - Parameter levelIDC: `level_idc`.
    /// - Returns: the two limits.
    static func limits(levelIDC: UInt8) -> (maxFrameSize: Int, maxDpbMbs: Int)? {
        switch levelIDC {
        case 9, 10: (99, 396)
        case 11: (396, 900)
        case 12, 13, 20: (396, 2376)
        case 21: (792, 4752)
        case 22, 30: (1620, 8100)
        case 31: (3600, 18000)
        case 32: (5120, 20480)
        case 40, 41: (8192, 32768)
        case 42: (8704, 34816)
        case 50: (22080, 110400)
        case 51, 52: (36864, 184320)
        case 60, 61, 62: (139264, 696320)
        default: nil
        }
    }
}
