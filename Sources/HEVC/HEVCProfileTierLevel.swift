import Bitstream

/// `profile_tier_level( profilePresentFlag, maxNumSubLayersMinus1 )` of ITU-T H.265 §7.3.3:
/// the general profile, tier and level and the optional entries for each sub-layer.
public struct HEVCProfileTierLevel: Sendable, Hashable {
    /// The 88 bits that describe a profile: space, tier, `profile_idc`, compatibility flags and the
    /// 48 constraint-indicator bits. Used for the general profile and for each sub-layer.
    public struct Profile: Sendable, Hashable {
        /// `general_profile_space` / `sub_layer_profile_space`, 0…3 (0 in conforming streams).
        public var profileSpace: Int
        /// `general_tier_flag`: `false` for the Main tier, `true` for the High tier.
        public var tierFlag: Bool
        /// `general_profile_idc`, 0…31 (1 Main, 2 Main 10, 3 Main Still Picture, 4 format range extensions…).
        public var profileIDC: Int
        /// The 32 `general_profile_compatibility_flag[j]`: flag `j` is bit `31 − j` (as in hvcC).
        public var compatibilityFlags: UInt32
        /// The 48 bits from `general_progressive_source_flag` through `general_inbld_flag` (or the
        /// last reserved bit), first coded bit most significant — the hvcC `general_constraint_indicator_flags`.
        public var constraintIndicatorFlags: UInt64

        /// Creates a profile description.
        /// - Parameters:
        ///   - profileSpace: `general_profile_space`.
        ///   - tierFlag: `general_tier_flag`.
        ///   - profileIDC: `general_profile_idc`.
        ///   - compatibilityFlags: flag `j` in bit `31 − j`.
        ///   - constraintIndicatorFlags: the 48 constraint bits, first coded bit most significant.
        public init(profileSpace: Int = 0, tierFlag: Bool = false, profileIDC: Int = 1,
                    compatibilityFlags: UInt32 = 0x6000_0000, constraintIndicatorFlags: UInt64 = 0x9000_0000_0000) {
            self.profileSpace = profileSpace
            self.tierFlag = tierFlag
            self.profileIDC = profileIDC
            self.compatibilityFlags = compatibilityFlags
            self.constraintIndicatorFlags = constraintIndicatorFlags & 0xFFFF_FFFF_FFFF
        }

        /// Whether `general_profile_compatibility_flag[j]` is 1.
        /// - Parameter j: 0…31.
        /// - Returns: the flag; `false` for `j` outside 0…31.
        public func isCompatible(withProfileIDC j: Int) -> Bool {
            guard (0...31).contains(j) else { return false }
            return compatibilityFlags >> UInt32(31 - j) & 1 == 1
        }

        /// Constraint bit `index` counted from the first coded one (0 = `progressive_source_flag`,
        /// 47 = `inbld_flag` or its reserved bit).
        /// - Parameter index: 0…47.
        /// - Returns: the bit; `false` for `index` outside 0…47.
        public func constraintBit(_ index: Int) -> Bool {
            guard (0...47).contains(index) else { return false }
            return constraintIndicatorFlags >> UInt64(47 - index) & 1 == 1
        }

        /// `general_progressive_source_flag`.
        public var isProgressiveSource: Bool { constraintBit(0) }
        /// `general_interlaced_source_flag`.
        public var isInterlacedSource: Bool { constraintBit(1) }
        /// `general_non_packed_constraint_flag`.
        public var isNonPackedConstraint: Bool { constraintBit(2) }
        /// `general_frame_only_constraint_flag`.
        public var isFrameOnlyConstraint: Bool { constraintBit(3) }
        /// `general_max_12bit_constraint_flag` (meaningful for profiles 4…11).
        public var isMax12BitConstraint: Bool { constraintBit(4) }
        /// `general_max_10bit_constraint_flag` (meaningful for profiles 4…11).
        public var isMax10BitConstraint: Bool { constraintBit(5) }
        /// `general_max_8bit_constraint_flag` (meaningful for profiles 4…11).
        public var isMax8BitConstraint: Bool { constraintBit(6) }
        /// `general_max_422chroma_constraint_flag` (meaningful for profiles 4…11).
        public var isMax422ChromaConstraint: Bool { constraintBit(7) }
        /// `general_max_420chroma_constraint_flag` (meaningful for profiles 4…11).
        public var isMax420ChromaConstraint: Bool { constraintBit(8) }
        /// `general_max_monochrome_constraint_flag` (meaningful for profiles 4…11).
        public var isMaxMonochromeConstraint: Bool { constraintBit(9) }
        /// `general_intra_constraint_flag` (meaningful for profiles 4…11).
        public var isIntraConstraint: Bool { constraintBit(10) }
        /// `general_one_picture_only_constraint_flag` (profiles 2 and 4…11).
        public var isOnePictureOnlyConstraint: Bool { constraintBit(11) }
        /// `general_lower_bit_rate_constraint_flag` (meaningful for profiles 4…11).
        public var isLowerBitRateConstraint: Bool { constraintBit(12) }
        /// `general_inbld_flag` (profiles 1…5, 9 and 11; a reserved bit otherwise).
        public var isInbld: Bool { constraintBit(47) }

        /// The profile a decoder should assume: `profile_idc`, or when it is 0 the first `j` > 0
        /// whose compatibility flag is set (what FFmpeg does, §A.3).
        public var effectiveProfileIDC: Int {
            if profileIDC != 0 { return profileIDC }
            return (1...31).first { isCompatible(withProfileIDC: $0) } ?? 0
        }

        /// The profile's name as ffprobe prints it: "Main", "Main 10", "Main Still Picture",
        /// "Rext"; later profiles get the names of Annex A ("High Throughput", "Multiview Main",
        /// "Scalable Main", "3D Main", "SCC", "Scalable Rext", "High Throughput SCC"); `nil` if unknown.
        public var name: String? {
            switch effectiveProfileIDC {
            case 1: return "Main"
            case 2: return "Main 10"
            case 3: return "Main Still Picture"
            case 4: return "Rext"
            case 5: return "High Throughput"
            case 6: return "Multiview Main"
            case 7: return "Scalable Main"
            case 8: return "3D Main"
            case 9: return "SCC"
            case 10: return "Scalable Rext"
            case 11: return "High Throughput SCC"
            default: return nil
            }
        }

        /// Reads the 88 profile bits of §7.3.3.
        /// - Parameters:
        ///   - reader: the reader.
        ///   - subLayer: whether these are `sub_layer_…` elements (only changes error names).
        /// - Throws: ``SyntaxError`` if the data ends.
        init(from reader: inout BitReader, subLayer: Bool) throws(SyntaxError) {
            if subLayer {
                profileSpace = Int(try reader.u(2, "sub_layer_profile_space"))
                tierFlag = try reader.flag("sub_layer_tier_flag")
                profileIDC = Int(try reader.u(5, "sub_layer_profile_idc"))
                compatibilityFlags = try reader.u(32, "sub_layer_profile_compatibility_flag")
                let high = UInt64(try reader.u(16, "sub_layer_progressive_source_flag"))
                constraintIndicatorFlags = high << 32 | UInt64(try reader.u(32, "sub_layer_reserved_zero_43bits"))
            } else {
                profileSpace = Int(try reader.u(2, "general_profile_space"))
                tierFlag = try reader.flag("general_tier_flag")
                profileIDC = Int(try reader.u(5, "general_profile_idc"))
                compatibilityFlags = try reader.u(32, "general_profile_compatibility_flag")
                let high = UInt64(try reader.u(16, "general_progressive_source_flag"))
                constraintIndicatorFlags = high << 32 | UInt64(try reader.u(32, "general_reserved_zero_43bits"))
            }
        }

        /// Writes the 88 profile bits of §7.3.3.
        /// - Parameter writer: the destination.
        func write(to writer: inout BitWriter) {
            writer.u(2, profileSpace)
            writer.flag(tierFlag)
            writer.u(5, profileIDC)
            writer.u(32, compatibilityFlags)
            writer.writeBits(constraintIndicatorFlags, count: 48)
        }
    }

    /// The optional entries of one sub-layer.
    public struct SubLayer: Sendable, Hashable {
        /// The sub-layer profile; `nil` when `sub_layer_profile_present_flag` is 0.
        public var profile: Profile?
        /// `sub_layer_level_idc`; `nil` when `sub_layer_level_present_flag` is 0.
        public var levelIDC: Int?

        /// Creates a sub-layer entry.
        /// - Parameters:
        ///   - profile: the profile, or `nil` when absent.
        ///   - levelIDC: `sub_layer_level_idc`, or `nil` when absent.
        public init(profile: Profile? = nil, levelIDC: Int? = nil) {
            self.profile = profile
            self.levelIDC = levelIDC
        }
    }

    /// `profilePresentFlag`: whether the general profile bits are coded (always 1 in VPS and SPS).
    public var isProfilePresent: Bool
    /// The general profile (meaningless when ``isProfilePresent`` is `false`).
    public var general: Profile
    /// `general_level_idc`: 30 × the level number (93 = level 3.1).
    public var generalLevelIDC: Int
    /// One entry per sub-layer below the highest: `maxNumSubLayersMinus1` entries.
    public var subLayers: [SubLayer]
    /// The `reserved_zero_2bits[i]` for `i` = `maxNumSubLayersMinus1`…7, concatenated (kept as coded).
    public var reservedZeroBits: Int

    /// Creates a profile, tier and level structure.
    /// - Parameters:
    ///   - general: the general profile.
    ///   - generalLevelIDC: `general_level_idc`.
    ///   - subLayers: `maxNumSubLayersMinus1` sub-layer entries.
    ///   - isProfilePresent: `profilePresentFlag`.
    public init(general: Profile = Profile(), generalLevelIDC: Int = 93, subLayers: [SubLayer] = [],
                isProfilePresent: Bool = true) {
        self.general = general
        self.generalLevelIDC = generalLevelIDC
        self.subLayers = subLayers
        self.isProfilePresent = isProfilePresent
        self.reservedZeroBits = 0
    }

    /// The general profile's name as ffprobe prints it (see ``Profile/name``).
    public var profileName: String? { general.name }

    /// The level as a decimal string: `general_level_idc` / 30, for example "3", "3.1", "4.1".
    public var levelName: String { Self.levelName(forIDC: generalLevelIDC) }

    /// The level number for a `level_idc`: "3" for 90, "3.1" for 93, "6.2" for 186.
    /// - Parameter idc: a `general_level_idc` or `sub_layer_level_idc`.
    /// - Returns: the level as written in Table A.8.
    public static func levelName(forIDC idc: Int) -> String {
        let major = idc / 30
        let minor = (idc % 30) / 3
        return minor == 0 ? "\(major)" : "\(major).\(minor)"
    }

    /// Parses `profile_tier_level()` (ITU-T H.265 §7.3.3).
    /// - Parameters:
    ///   - reader: the reader, positioned at the structure.
    ///   - profilePresent: `profilePresentFlag`.
    ///   - maxNumSubLayersMinus1: `maxNumSubLayersMinus1` (0…6).
    /// - Throws: ``SyntaxError`` naming the element when the data ends.
    public init(from reader: inout BitReader, profilePresent: Bool, maxNumSubLayersMinus1: Int) throws(SyntaxError) {
        self.init(isProfilePresent: profilePresent)
        if profilePresent {
            general = try Profile(from: &reader, subLayer: false)
        }
        generalLevelIDC = Int(try reader.u(8, "general_level_idc"))
        let count = max(0, min(maxNumSubLayersMinus1, 7))
        var profilePresentFlags = [Bool]()
        var levelPresentFlags = [Bool]()
        for _ in 0..<count {
            profilePresentFlags.append(try reader.flag("sub_layer_profile_present_flag"))
            levelPresentFlags.append(try reader.flag("sub_layer_level_present_flag"))
        }
        if count > 0 {
            reservedZeroBits = Int(try reader.u(2 * (8 - count), "reserved_zero_2bits"))
        }
        for index in 0..<count {
            var entry = SubLayer()
            if profilePresentFlags[index] {
                entry.profile = try Profile(from: &reader, subLayer: true)
            }
            if levelPresentFlags[index] {
                entry.levelIDC = Int(try reader.u(8, "sub_layer_level_idc"))
            }
            subLayers.append(entry)
        }
    }

    /// Writes `profile_tier_level()` (ITU-T H.265 §7.3.3); `maxNumSubLayersMinus1` is `subLayers.count`.
    /// - Parameter writer: the destination.
    public func write(to writer: inout BitWriter) {
        if isProfilePresent { general.write(to: &writer) }
        writer.u(8, generalLevelIDC)
        let count = min(subLayers.count, 7)
        for entry in subLayers.prefix(count) {
            writer.flag(entry.profile != nil)
            writer.flag(entry.levelIDC != nil)
        }
        if count > 0 { writer.u(2 * (8 - count), reservedZeroBits) }
        for entry in subLayers.prefix(count) {
            entry.profile?.write(to: &writer)
            if let level = entry.levelIDC { writer.u(8, level) }
        }
    }
}
