import MediaCore

/// `kVTProfileLevel_…`: a profile and a level (or automatic level selection).
public struct ProfileLevel: Sendable, Hashable, CustomStringConvertible {
    /// The profiles the seeds' apps use.
    public enum Profile: String, Sendable, Hashable {
        /// H.264 Baseline (CAVLC, no B-frames).
        case baseline
        /// H.264 Main.
        case main
        /// H.264 High.
        case high
        /// H.264 High 4:4:4 Predictive (`profile_idc` 244): the profile that codes a quantiser of 0
        /// losslessly (`qpprime_y_zero_transform_bypass_flag`), here with 4:2:0 pictures.
        case high444Predictive
        /// H.265 Main.
        case hevcMain
    }

    /// The profile.
    public var profile: Profile
    /// The level as written in the stream name, for example "3.1"; `nil` for AutoLevel.
    public var level: String?

    /// Creates a profile/level pair.
    /// - Parameters:
    ///   - profile: the profile.
    ///   - level: the level, or `nil` for automatic.
    public init(profile: Profile, level: String? = nil) {
        self.profile = profile
        self.level = level
    }

    /// `kVTProfileLevel_H264_Baseline_AutoLevel`.
    public static let h264Baseline = ProfileLevel(profile: .baseline)
    /// `kVTProfileLevel_H264_Main_AutoLevel`.
    public static let h264Main = ProfileLevel(profile: .main)
    /// `kVTProfileLevel_H264_High_AutoLevel`.
    public static let h264High = ProfileLevel(profile: .high)
    /// H.264 High 4:4:4 Predictive, automatic level: lossless coding with a quantiser of 0.
    public static let h264High444Predictive = ProfileLevel(profile: .high444Predictive)
    /// `kVTProfileLevel_HEVC_Main_AutoLevel`.
    public static let hevcMain = ProfileLevel(profile: .hevcMain)

    /// The codec the profile belongs to.
    public var codec: CodecType { profile == .hevcMain ? .hevc : .h264 }

    /// Whether this is H.264 Baseline (no CABAC, no B-frames).
    public var isBaseline: Bool { profile == .baseline }

    /// The profile name as ffprobe prints it ("Baseline" is reported as "Constrained Baseline" by
    /// ffprobe when constraint_set1 is set, which x264 does).
    public var profileName: String {
        switch profile {
        case .baseline: return "Baseline"
        case .main: return "Main"
        case .high: return "High"
        case .high444Predictive: return "High 4:4:4 Predictive"
        case .hevcMain: return "Main"
        }
    }

    /// `H264_High_AutoLevel`, `H264_Main_3_1`, `H264_High444Predictive_AutoLevel`, `HEVC_Main_AutoLevel`.
    public var description: String {
        let codec: String
        switch profile {
        case .hevcMain: codec = "HEVC_Main"
        case .high444Predictive: codec = "H264_High444Predictive"
        default: codec = "H264_\(profileName)"
        }
        return "\(codec)_\(level.map { $0.replacingOccurrences(of: ".", with: "_") } ?? "AutoLevel")"
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
