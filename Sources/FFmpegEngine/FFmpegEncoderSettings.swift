#if FFmpeg
import CodecInterface
import MediaCore

/// What a ``CompressionConfiguration`` becomes for one libavcodec video encoder: the `AVCodecContext`
/// fields to set and the encoder's private options (`priv_data` AVOptions such as `profile`,
/// `x264-params`).
///
/// Building the settings is pure Swift so the mapping can be checked without opening an encoder; a
/// property the encoder cannot honour is refused here with ``CodecError/unsupportedProperty(_:reason:engine:)``.
struct FFmpegEncoderSettings: Sendable, Hashable {
    /// One private AVOption, set with `av_opt_set` on the encoder's `priv_data`.
    struct Option: Sendable, Hashable {
        /// The option's name, for example `profile`.
        var name: String
        /// Its value as text, for example `high`.
        var value: String
    }

    /// A frame rate as a fraction.
    struct Rational: Sendable, Hashable {
        /// The numerator.
        var numerator: Int32
        /// The denominator (positive).
        var denominator: Int32
    }

    /// The libavcodec encoder, for example `libx264`.
    var encoderName: String
    /// The engine name used in errors.
    var engineName: String
    /// The picture width.
    var width: Int32
    /// The picture height.
    var height: Int32
    /// `AVCodecContext.framerate`; the time base is its inverse, so one tick is one frame.
    var frameRate: Rational
    /// `gop_size`: the key-frame interval.
    var gopSize: Int32?
    /// `keyint_min`.
    var keyIntervalMinimum: Int32?
    /// `max_b_frames`.
    var maxBFrames: Int32?
    /// `bit_rate` in bits per second (average bit rate).
    var bitRate: Int64?
    /// `rc_max_rate` in bits per second (VBV).
    var maxRate: Int64?
    /// `rc_buffer_size` in bits (VBV).
    var bufferSize: Int32?
    /// Whether the VBV was set from the average bit rate alone (a live x264 session without data-rate limits:
    /// max rate = average, one second of buffer), so that a new average moves the VBV with it.
    var vbvFollowsAverage = false
    /// `AVCodecContext.profile` (encoders that take the profile as a number).
    var profile: Int32?
    /// `AVCodecContext.level` (encoders that take the level as a number).
    var level: Int32?
    /// `thread_count` (0: libavcodec/the library chooses).
    var threadCount: Int32 = 0
    /// Private options in the order they are set.
    var options: [Option] = []

    /// The H.264 levels of Table A-1 by name.
    static let h264Levels: [String: Int32] = [
        "1": 10, "1b": 9, "1.1": 11, "1.2": 12, "1.3": 13, "2": 20, "2.1": 21, "2.2": 22, "3": 30, "3.1": 31,
        "3.2": 32, "4": 40, "4.1": 41, "4.2": 42, "5": 50, "5.1": 51, "5.2": 52, "6": 60, "6.1": 61, "6.2": 62,
    ]
    /// The H.265 levels of Table A.8 by name, as `general_level_idc` (30 × the level).
    static let hevcLevels: [String: Int32] = [
        "1": 30, "2": 60, "2.1": 63, "3": 90, "3.1": 93, "4": 120, "4.1": 123, "5": 150, "5.1": 153,
        "5.2": 156, "6": 180, "6.1": 183, "6.2": 186,
    ]

    /// Maps a configuration onto an encoder.
    /// - Parameters:
    ///   - configuration: the session's properties (already validated).
    ///   - encoderName: the libavcodec encoder, for example `libx264`.
    ///   - engineName: the engine's name, for errors.
    /// - Returns: the settings.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` for a property this encoder cannot honour.
    static func make(for configuration: CompressionConfiguration, encoderName: String,
                     engineName: String) throws(CodecError) -> FFmpegEncoderSettings {
        guard let family = FFmpegEncoderFamily(encoderName: encoderName) else {
            throw .unsupportedProperty(.engineName, reason: "encoder \(encoderName) is not one StreamKit drives", engine: engineName)
        }
        var settings = FFmpegEncoderSettings(encoderName: encoderName, engineName: engineName,
                                             width: Int32(clamping: configuration.width),
                                             height: Int32(clamping: configuration.height),
                                             frameRate: rational(forFrameRate: configuration.expectedFrameRate))
        try settings.applyCommon(configuration)
        // thread_count: a count as given; `automatic` leaves 0, libavcodec's own choice (the core count).
        if case let .count(count)? = configuration.threadCount { settings.threadCount = Int32(clamping: count) }
        switch family {
        case .x264: try settings.applyX264(configuration)
        case .x265: try settings.applyX265(configuration)
        case .nvenc: try settings.applyNVENC(configuration)
        case .vaapi: try settings.applyVAAPI(configuration)
        case .v4l2m2m: try settings.applyV4L2(configuration)
        }
        return settings
    }

    /// The frame rate as a fraction: whole rates as n/1, NTSC rates (n × 1000/1001) as n000/1001,
    /// anything else to three decimals.
    /// - Parameter rate: frames per second (positive, finite).
    /// - Returns: the fraction.
    static func rational(forFrameRate rate: Double) -> Rational {
        let whole = rate.rounded()
        if abs(rate - whole) < 1e-6, whole >= 1, whole <= Double(Int32.max) {
            return Rational(numerator: Int32(whole), denominator: 1)
        }
        let ntsc = (rate * 1.001).rounded()
        if ntsc >= 1, ntsc * 1000 <= Double(Int32.max), abs(rate - ntsc * 1000 / 1001) < 1e-3 {
            return Rational(numerator: Int32(ntsc) * 1000, denominator: 1001)
        }
        let scaled = (rate * 1000).rounded()
        guard scaled >= 1, scaled <= Double(Int32.max) else { return Rational(numerator: 30, denominator: 1) }
        return Rational(numerator: Int32(scaled), denominator: 1000)
    }

    // MARK: - Shared mapping

    private mutating func applyCommon(_ configuration: CompressionConfiguration) throws(CodecError) {
        if let interval = configuration.effectiveKeyFrameInterval {
            gopSize = Int32(clamping: interval)
            keyIntervalMinimum = Int32(clamping: interval)
        }
        if !configuration.usesBFrames {
            maxBFrames = 0
        } else if let frames = configuration.maxBFrames {
            maxBFrames = Int32(clamping: frames)
        }
        if let rate = configuration.averageBitRate { bitRate = Int64(rate) }
        if let tightest = configuration.dataRateLimits.min(by: { $0.bitsPerSecond < $1.bitsPerSecond }) {
            maxRate = Int64(min(tightest.bitsPerSecond, Double(Int32.max)).rounded())
            bufferSize = Int32(clamping: tightest.bytes > Int.max / 8 ? Int.max : tightest.bytes * 8)
        }
        if configuration.codec == .hevc, configuration.entropyMode != nil {
            throw .unsupportedProperty(.entropyMode, reason: "H.265 always uses CABAC", engine: engineName)
        }
    }

    private func levelName(_ configuration: CompressionConfiguration) throws(CodecError) -> String? {
        guard let level = configuration.profileLevel.level else { return nil }
        let table = configuration.codec == .hevc ? Self.hevcLevels : Self.h264Levels
        guard table[level] != nil else {
            throw .unsupportedProperty(.profileLevel, reason: "level \"\(level)\" is not a level of \(configuration.codec.rawValue)",
                                       engine: engineName)
        }
        return level
    }

    /// The `profile` AVOption of libx264 and NVENC (which spell High 4:4:4 Predictive differently).
    private static func profileOptionValue(_ profile: ProfileLevel.Profile, family: FFmpegEncoderFamily) -> String {
        switch profile {
        case .baseline, .constrainedBaseline: return "baseline"
        case .main, .hevcMain: return "main"
        case .high: return "high"
        case .high444Predictive: return family == .nvenc ? "high444p" : "high444"
        case let .other(_, name): return name  // refused by CompressionConfiguration.validate() before this
        }
    }

    /// `AVCodecContext.profile` for the encoders that take it as a number (`FF_PROFILE_…`).
    private func profileNumber(_ profileLevel: ProfileLevel) throws(CodecError) -> Int32 {
        switch profileLevel.profile {
        case .baseline, .constrainedBaseline: return 578  // FF_PROFILE_H264_CONSTRAINED_BASELINE
        case .main: return 77
        case .high: return 100
        case .high444Predictive: return 244
        case .hevcMain: return 1  // FF_PROFILE_HEVC_MAIN
        case .other: throw .unsupportedProperty(.profileLevel, reason: "\(profileLevel)", engine: engineName)
        }
    }

    private mutating func set(_ name: String, _ value: String) {
        options.append(Option(name: name, value: value))
    }

    // MARK: - libx264

    private mutating func applyX264(_ configuration: CompressionConfiguration) throws(CodecError) {
        var params: [String] = []
        if let preset = configuration.preset { set("preset", preset.rawValue) }
        if configuration.realTime { set("tune", "zerolatency") }
        let profile = configuration.profileLevel.profile
        if configuration.quantizer == 0, profile != .high444Predictive {
            // x264 codes QP 0 losslessly (transform bypass), which only High 4:4:4 Predictive allows.
            throw .unsupportedProperty(.quantizer, reason: "0 (lossless) in profile \(configuration.profileLevel.profileName): "
                + "x264 codes it only in High 4:4:4 Predictive (ProfileLevel.h264High444Predictive)", engine: engineName)
        }
        set("profile", Self.profileOptionValue(profile, family: .x264))
        if let level = try levelName(configuration) { set("level", level) }
        if let mode = configuration.entropyMode { set("coder", mode == .cabac ? "cabac" : "cavlc") }
        if let quantizer = configuration.quantizer { set("qp", String(quantizer)) }
        if configuration.realTime, let rate = bitRate, maxRate == nil {
            // x264 re-reads its average bit rate on a running encoder only through the VBV, and only when the VBV's
            // max rate is at most the average (ratecontrol.c, x264_ratecontrol_init_reconfigurable: `b_vbv_min_rate`);
            // without a VBV a new average changes nothing. A live session therefore runs x264's constant-rate mode
            // (max rate = average, one second of buffer, as live encoders such as OBS configure it), so adaptive
            // bitrate reaches the picture.
            maxRate = rate
            bufferSize = Int32(clamping: rate)
            vbvFollowsAverage = true
        }
        // Forced key frames are IDR pictures (random-access points), not just I pictures.
        set("forced-idr", "1")
        // Constant frame rate: VUI timing from the frame rate, and no extra frame of delay.
        params.append("force-cfr=1")
        if gopSize != nil { params.append("scenecut=0") }
        if let limit = configuration.maxFrameDelayCount {
            // x264 holds max(bframes, rc-lookahead) + sync-lookahead + (frame threads − 1) pictures.
            let bframes = min(Int(maxBFrames ?? (configuration.realTime ? 0 : 3)), limit)
            maxBFrames = Int32(bframes)
            if !configuration.realTime { set("rc-lookahead", String(limit)) }  // zerolatency has none
            params += ["sync-lookahead=0", "sliced-threads=1"]
        }
        if !params.isEmpty { set("x264-params", params.joined(separator: ":")) }
    }

    // MARK: - libx265

    private mutating func applyX265(_ configuration: CompressionConfiguration) throws(CodecError) {
        if let preset = configuration.preset { set("preset", preset.rawValue) }
        if configuration.realTime { set("tune", "zerolatency") }
        set("profile", "main")
        set("forced-idr", "1")
        var params = ["log-level=error", "repeat-headers=1", "annexb=1", "open-gop=0"]
        if let level = try levelName(configuration) { params.append("level-idc=\(level)") }
        if let gop = gopSize { params += ["keyint=\(gop)", "min-keyint=\(gop)", "scenecut=0"] }
        if let quantizer = configuration.quantizer { params.append("qp=\(quantizer)") }
        if let rate = bitRate { params.append("bitrate=\(max(1, rate / 1000))") }
        if let rate = maxRate, let size = bufferSize {
            params += ["vbv-maxrate=\(max(1, rate / 1000))", "vbv-bufsize=\(max(1, size / 1000))"]
        }
        if let limit = configuration.maxFrameDelayCount {
            // Measured with libx265 3.5 and one frame thread: no look-ahead holds nothing; a look-ahead of
            // L frames (L > the B-frame run b) holds b + L + 3 pictures.
            params += ["frame-threads=1", "lookahead-slices=0"]
            if limit < 4 || configuration.realTime {
                maxBFrames = 0
                params += ["rc-lookahead=0", "b-adapt=0", "cutree=0"]
            } else {
                let bframes = min(Int(maxBFrames ?? 4), (limit - 4) / 2)
                maxBFrames = Int32(bframes)
                params.append("rc-lookahead=\(limit - 3 - bframes)")
            }
        }
        if let frames = maxBFrames { params.append("bframes=\(frames)") }
        set("x265-params", params.joined(separator: ":"))
    }

    // MARK: - NVENC

    private mutating func applyNVENC(_ configuration: CompressionConfiguration) throws(CodecError) {
        // NVENC's p1 (fastest) … p7: x264's names from ultrafast (p1) to medium (p6); p4 when none is given.
        let nvencPresets: [EncoderPreset: String] = [.ultrafast: "p1", .superfast: "p2", .veryfast: "p3", .faster: "p4",
                                                     .fast: "p5", .medium: "p6"]
        set("preset", configuration.preset.flatMap { nvencPresets[$0] } ?? "p4")
        if configuration.realTime { set("tune", "ll"); set("zerolatency", "1") }
        set("profile", Self.profileOptionValue(configuration.profileLevel.profile, family: .nvenc))
        if let level = try levelName(configuration) { set("level", level) }
        if let mode = configuration.entropyMode { set("coder", mode == .cabac ? "cabac" : "cavlc") }
        if let quantizer = configuration.quantizer { set("rc", "constqp"); set("qp", String(quantizer)) }
        set("forced-idr", "1")
        if gopSize != nil { set("no-scenecut", "1") }
        if let limit = configuration.maxFrameDelayCount {
            maxBFrames = Int32(min(Int(maxBFrames ?? 0), limit))
            set("rc-lookahead", "0")
            set("delay", String(limit))
        }
    }

    // MARK: - VA-API

    private mutating func applyVAAPI(_ configuration: CompressionConfiguration) throws(CodecError) {
        profile = try profileNumber(configuration.profileLevel)
        if let name = try levelName(configuration) {
            let table = configuration.codec == .hevc ? Self.hevcLevels : Self.h264Levels
            guard name != "1b" else { throw .unsupportedProperty(.profileLevel, reason: "level 1b", engine: engineName) }
            level = table[name]
        }
        if let mode = configuration.entropyMode { set("coder", mode == .cabac ? "cabac" : "cavlc") }
        if let quantizer = configuration.quantizer { set("rc_mode", "CQP"); set("qp", String(quantizer)) }
        if configuration.realTime { set("async_depth", "1") }
        if configuration.maxFrameDelayCount != nil {
            throw .unsupportedProperty(.maxFrameDelayCount, reason: "VA-API has no bound on its pipeline delay", engine: engineName)
        }
        if configuration.preset != nil {
            throw .unsupportedProperty(.preset, reason: "VA-API drivers have no x264-style presets", engine: engineName)
        }
    }

    // MARK: - V4L2 M2M

    private mutating func applyV4L2(_ configuration: CompressionConfiguration) throws(CodecError) {
        profile = try profileNumber(configuration.profileLevel)
        let refused: [(Bool, ConfigurationProperty)] = [
            (configuration.profileLevel.level != nil, .profileLevel),
            (configuration.entropyMode != nil, .entropyMode),
            (configuration.quantizer != nil, .quantizer),
            (!configuration.dataRateLimits.isEmpty, .dataRateLimits),
            (configuration.maxFrameDelayCount != nil, .maxFrameDelayCount),
            (configuration.preset != nil, .preset),
        ]
        if let first = refused.first(where: { $0.0 }) {
            throw .unsupportedProperty(first.1, reason: "the V4L2 M2M wrapper does not expose it", engine: engineName)
        }
    }
}
#endif
