import MediaCore

extension SDPH264Parameters.ProfileLevelID {
    /// The H.264 profile a `profile-level-id` names, read from `profile_idc` and the constraint flags as RFC 6184
    /// §8.1 Table 5 (and Annex A of H.264) lay them out — the classification Chromium's WebRTC negotiates on.
    public enum Profile: Sendable, Hashable, CustomStringConvertible {
        /// Constrained Baseline (A.2.1.1): 42 with constraint_set1, 4D with constraint_set0, 58 with set0 and set1.
        case constrainedBaseline
        /// Baseline (A.2.1): 42 without constraint_set1, 58 with constraint_set0 alone.
        case baseline
        /// Main (A.2.2).
        case main
        /// Extended (A.2.3).
        case extended
        /// Constrained High (A.2.4.2): 64 with constraint_set4 and constraint_set5 (no B slices, frames only).
        case constrainedHigh
        /// High (A.2.4).
        case high
        /// Progressive High (A.2.4.1): 64 with constraint_set4 alone.
        case progressiveHigh
        /// High 10, High 4:2:2, High 4:4:4 Predictive and the other profile_idc values, named by their number.
        case other(UInt8)

        /// `Constrained Baseline`, `High`, …
        public var description: String {
            switch self {
            case .constrainedBaseline: "Constrained Baseline"
            case .baseline: "Baseline"
            case .main: "Main"
            case .extended: "Extended"
            case .constrainedHigh: "Constrained High"
            case .high: "High"
            case .progressiveHigh: "Progressive High"
            case let .other(idc): "profile_idc \(idc)"
            }
        }

        /// Whether a decoder of this profile decodes every stream of `other` (H.264 A.2: a Constrained Baseline stream
        /// conforms to Baseline, Main, Extended and every High profile; Constrained High to Progressive High and High;
        /// Progressive High and Main to High; A.2.5–A.2.7: High 10 (110), High 4:2:2 (122) and High 4:4:4 Predictive
        /// (244) decoders take High streams and what High decoders take).
        /// - Parameter other: the stream's profile.
        /// - Returns: whether this profile contains it.
        public func decodes(_ other: Profile) -> Bool {
            if self == other { return true }
            if case let .other(idc) = self, idc == 110 || idc == 122 || idc == 244 {
                switch other {
                case .constrainedBaseline, .main, .constrainedHigh, .progressiveHigh, .high: return true
                case let .other(inner): return inner == 110 ? idc != 110 : inner == 122 ? idc == 244 : false
                default: return false
                }
            }
            switch (self, other) {
            case (.baseline, .constrainedBaseline), (.main, .constrainedBaseline), (.extended, .constrainedBaseline),
                 (.constrainedHigh, .constrainedBaseline), (.progressiveHigh, .constrainedBaseline), (.high, .constrainedBaseline),
                 (.progressiveHigh, .constrainedHigh), (.high, .constrainedHigh), (.high, .progressiveHigh), (.high, .main):
                return true
            default:
                return false
            }
        }
    }

    /// The profile, from `profile_idc` and the constraint flags (RFC 6184 §8.1, H.264 A.2; constraint_set0…5 are
    /// the byte's bits 7…2).
    public var profile: Profile {
        let set0 = constraints & 0x80 != 0, set1 = constraints & 0x40 != 0, set3 = constraints & 0x10 != 0
        let set4 = constraints & 0x08 != 0, set5 = constraints & 0x04 != 0
        switch profileIDC {
        case 0x42: return set1 ? .constrainedBaseline : .baseline
        case 0x4D: return set0 ? .constrainedBaseline : .main
        case 0x58: return set0 && set1 ? .constrainedBaseline : set0 ? .baseline : .extended
        case 0x64:
            // constraint_set3 with profile_idc 100 is reserved (A.2.4): read as plain High.
            if set4 && set5 && !set3 { return .constrainedHigh }
            if set4 && !set3 { return .progressiveHigh }
            return .high
        default: return .other(profileIDC)
        }
    }

    /// The level as a number that orders levels (H.264 A.3.1: level 1b is `level_idc` 11 with constraint_set3 in the
    /// Baseline, Constrained Baseline and Main profiles, between 1 and 1.1; else `level_idc` is ten times the level).
    public var orderedLevel: Int {
        let set3 = constraints & 0x10 != 0
        if levelIDC == 11, set3, profileIDC == 0x42 || profileIDC == 0x4D || profileIDC == 0x58 { return 10 * 10 + 5 }
        if levelIDC == 9 { return 10 * 10 + 5 }  // level_idc 9: level 1b in the High profiles
        return Int(levelIDC) * 10
    }

    /// The `profile-level-id` of an SPS (its bytes 1…3 after the NAL header: profile_idc, the constraint flags,
    /// level_idc — RFC 6184 §8.1).
    /// - Parameter sps: the SPS NAL unit, header included.
    /// - Returns: the triple, or `nil` for an SPS shorter than 4 bytes.
    public init?(sequenceParameterSet sps: [UInt8]) {
        guard sps.count >= 4, sps[0] & 0x1F == 7 else { return nil }
        self.init(profileIDC: sps[1], constraints: sps[2], levelIDC: sps[3])
    }

    /// The `profile-level-id` of a format's first SPS (RFC 6184 §8.1), or `nil` when its parameter sets hold none.
    /// - Parameter format: an H.264 format description.
    public init?(sequenceParameterSetOf format: FormatDescription) {
        guard let id = format.parameterSets.lazy.compactMap(Self.init(sequenceParameterSet:)).first else { return nil }
        self = id
    }
}
