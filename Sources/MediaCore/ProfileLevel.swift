/// `kVTProfileLevel_…`: a profile and a level (or automatic level selection).
///
/// A compression session is asked for one of the profiles the seeds' apps use (``h264Baseline``,
/// ``h264Main``, ``h264High``, ``hevcMain``); a ``FormatDescription`` says which profile and level a
/// stream really has, which may be any profile of the codec (``Profile/other(codec:name:)``).
public struct ProfileLevel: Sendable, Hashable, CustomStringConvertible {
    /// A profile.
    public enum Profile: Sendable, Hashable {
        /// H.264 Baseline (CAVLC, no B-frames).
        case baseline
        /// H.264 Constrained Baseline (Baseline with `constraint_set1_flag`, as x264 writes it).
        case constrainedBaseline
        /// H.264 Main.
        case main
        /// H.264 High.
        case high
        /// H.264 High 4:4:4 Predictive (`profile_idc` 244): the profile that codes a quantiser of 0
        /// losslessly (`qpprime_y_zero_transform_bypass_flag`), here with 4:2:0 pictures.
        case high444Predictive
        /// H.265 Main.
        case hevcMain
        /// Any other profile of a stream, named as ffprobe names it ("High 10", "Main 10" …).
        case other(codec: CodecType, name: String)
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

    /// Creates the pair a stream's parameter set names.
    /// - Parameters:
    ///   - codec: the stream's codec.
    ///   - name: the profile's name as ffprobe prints it ("Constrained Baseline", "High", "Main 10" …).
    ///   - level: the level's name ("3.1").
    public init(codec: CodecType, profileNamed name: String, level: String?) {
        switch (codec, name) {
        case (.h264, "Baseline"): profile = .baseline
        case (.h264, "Constrained Baseline"): profile = .constrainedBaseline
        case (.h264, "Main"): profile = .main
        case (.h264, "High"): profile = .high
        case (.h264, "High 4:4:4 Predictive"): profile = .high444Predictive
        case (.hevc, "Main"): profile = .hevcMain
        default: profile = .other(codec: codec, name: name)
        }
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
    public var codec: CodecType {
        switch profile {
        case .baseline, .constrainedBaseline, .main, .high, .high444Predictive: return .h264
        case .hevcMain: return .hevc
        case let .other(codec, _): return codec
        }
    }

    /// Whether this is H.264 Baseline or Constrained Baseline (no CABAC, no B-frames).
    public var isBaseline: Bool { profile == .baseline || profile == .constrainedBaseline }

    /// The profile name as ffprobe prints it.
    public var profileName: String {
        switch profile {
        case .baseline: return "Baseline"
        case .constrainedBaseline: return "Constrained Baseline"
        case .main: return "Main"
        case .high: return "High"
        case .high444Predictive: return "High 4:4:4 Predictive"
        case .hevcMain: return "Main"
        case let .other(_, name): return name
        }
    }

    /// `H264_High_AutoLevel`, `H264_Main_3_1`, `H264_High444Predictive_AutoLevel`, `HEVC_Main_AutoLevel`.
    public var description: String {
        let codecName = codec == .hevc ? "HEVC" : "H264"
        let profilePart = profileName.filter { $0 != " " && $0 != ":" }
        let levelPart = level.map { $0.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "_") }
        return "\(codecName)_\(profilePart)_\(levelPart ?? "AutoLevel")"
    }
}
