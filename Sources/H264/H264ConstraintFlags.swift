/// The byte of an SPS that follows `profile_idc` (ITU-T H.264 §7.3.2.1.1): `constraint_set0_flag` …
/// `constraint_set5_flag` and `reserved_zero_2bits`.
///
/// The raw value is the whole byte, reserved bits included, so a parsed SPS writes back unchanged.
public struct H264ConstraintFlags: OptionSet, Sendable, Hashable {
    /// The byte as coded: `constraint_set0_flag` is the most significant bit.
    public var rawValue: UInt8

    /// Creates the flags from the coded byte.
    /// - Parameter rawValue: the byte after `profile_idc`.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `constraint_set0_flag`: the stream obeys the constraints of the Baseline profile (A.2.1).
    public static let constraintSet0 = H264ConstraintFlags(rawValue: 0x80)
    /// `constraint_set1_flag`: the stream obeys the constraints of the Main profile (A.2.2); with
    /// profile_idc 66 it means Constrained Baseline.
    public static let constraintSet1 = H264ConstraintFlags(rawValue: 0x40)
    /// `constraint_set2_flag`: the stream obeys the constraints of the Extended profile (A.2.3).
    public static let constraintSet2 = H264ConstraintFlags(rawValue: 0x20)
    /// `constraint_set3_flag`: level 1b (profiles 66, 77, 88 with level_idc 11) or an Intra profile
    /// (profiles 110, 122, 244, 44).
    public static let constraintSet3 = H264ConstraintFlags(rawValue: 0x10)
    /// `constraint_set4_flag`: for High profiles, frame_mbs_only_flag is 1 (Progressive High, A.2.4.1).
    public static let constraintSet4 = H264ConstraintFlags(rawValue: 0x08)
    /// `constraint_set5_flag`: for High profiles, no B slices (Constrained High, A.2.4.2).
    public static let constraintSet5 = H264ConstraintFlags(rawValue: 0x04)

    /// `reserved_zero_2bits`: 0 in a conforming stream; kept so the SPS writes back unchanged.
    public var reservedZero2Bits: UInt8 { rawValue & 0x03 }
}
