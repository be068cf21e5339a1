import Codecs
import Containers
import MediaCore

/// The options `record` and `encode` share, as the seeds' apps set them on VideoToolbox: declared
/// once here, read into the values a compression session and an AAC encoder are configured with.
/// Each value keeps whether it was given, so a default never overrides what the user wrote.
struct EncodingOptions {
    // MARK: Declarations

    /// `--codec h264|hevc`.
    static let codec = OptionSpec<CodecType>(
        "--codec", value: "h264|hevc", help: "the video codec", default: .h264, shown: "h264",
        parse: OptionValueParsers.choice(of: "codec", [(["h264", "avc", "h.264"], .h264), (["hevc", "h265", "h.265"], .hevc)]))
    /// `--size WxH`.
    static let size = OptionSpec("--size", value: "WxH", help: "the picture size (even width and height)",
                                 default: PictureSize(width: 640, height: 480), parse: OptionValueParsers.evenSize)
    /// `--fps N`.
    static let fps = OptionSpec("--fps", value: "N", help: "frames per second", default: 30,
                                parse: OptionValueParsers.wholeNumber(in: 1...240))
    /// `--bitrate RATE`.
    static let bitRate = OptionSpec("--bitrate", value: "RATE", help: "the average video bit rate, for example 800k or 2M",
                                    default: 800_000, shown: "800k", parse: OptionValueParsers.bitRate)
    /// `--qp N`.
    static let quantizer = OptionSpec("--qp", value: "N",
                                      help: "a constant quantiser instead of --bitrate; 0 is lossless (H.264 High 4:4:4 Predictive)",
                                      parse: OptionValueParsers.wholeNumber(in: 0...51))
    /// `--preset NAME`.
    static let preset = OptionSpec<EncoderPreset>(
        "--preset", value: "ultrafast|superfast|veryfast|faster|fast|medium",
        help: "the speed/compression trade, x264's names (also given to the x264 and x265 engines)",
        shown: "the engine's (veryfast for the native engine, medium for x264 and x265)",
        parse: OptionValueParsers.choice(of: "preset", EncoderPreset.allCases.map { ([$0.rawValue], $0) }))
    /// `--threads N|auto`.
    static let threads = OptionSpec<EncoderThreadCount>(
        "--threads", value: "N|auto",
        help: "the encoder's threads (auto: one per core); the native engine cuts each picture into N slices and codes them at once",
        shown: "the engine's (one slice, one thread for the native engine; libavcodec's choice for the others)",
        parse: OptionValueParsers.threadCount)
    /// `--gop N`.
    static let gop = OptionSpec("--gop", value: "N", help: "the most frames from one key frame to the next",
                                shown: "--fps, one key frame per second", parse: OptionValueParsers.wholeNumber(in: 1...Int.max))
    /// `--profile`.
    static let profile = OptionSpec<ProfileChoice>(
        "--profile", value: "baseline|main|high|high444", help: "the profile (high444: H.264 High 4:4:4 Predictive)",
        shown: "high for H.264 (high444 with --qp 0; baseline with the native engine), main for H.265",
        parse: OptionValueParsers.choice(of: "profile", [
            (["baseline"], .baseline), (["main"], .main), (["high"], .high), (["high444", "high444p"], .high444),
        ]))
    /// `--bframes N`.
    static let bFrames = OptionSpec("--bframes", value: "N", help: "the most B-frames in a row", default: 0,
                                    parse: OptionValueParsers.wholeNumber(in: 0...16))
    /// `--audio-bitrate RATE`.
    static let audioBitRate = OptionSpec("--audio-bitrate", value: "RATE", help: "the AAC bit rate", default: 96_000, shown: "96k",
                                         parse: OptionValueParsers.bitRate)

    /// `--audio-codec aac|opus`.
    static let audioCodec = OptionSpec<CodecType>(
        "--audio-codec", value: "aac|opus", help: "the audio codec (opus: libopus, 48 kHz mono or stereo: into MP4 (.m4a), and to WHIP endpoints)",
        default: .aac, shown: "aac",
        parse: OptionValueParsers.choice(of: "audio codec", [(["aac"], .aac), (["opus"], .opus)]))

    /// The H.264 profile for a constant quantiser of 0: the only one that codes it losslessly.
    static let losslessProfile = ProfileLevel.Profile.high444Predictive

    // MARK: Values

    /// The video codec: `--codec`, else the output's, else H.264.
    var codec: CodecType
    /// The picture width: `--size`, else 640 (an input with its own size replaces it).
    var width: Int
    /// The picture height: `--size`, else 480.
    var height: Int
    /// The frame rate in use: `--fps`, else 30, else (see ``adoptSourceFrameRate(_:)``) the input's.
    private(set) var fps: Int
    /// Whether `--fps` was given.
    let isFrameRateGiven: Bool
    /// The average video bit rate: `--bitrate`, else 800k; `nil` with `--qp`.
    var bitRate: Int?
    /// `--gop` as given; `nil` means one key frame per second.
    var gop: Int?
    /// The profile `--profile` names for ``codec`` (High, or High 4:4:4 Predictive for `--qp 0`, when not given).
    var profile: ProfileLevel.Profile
    /// `--bframes` as given; `nil` means none.
    var bFrames: Int?
    /// The engine `--engine NAME` names, if any.
    var engineName: String?
    /// Which kind of engine `--engine` allows.
    var enginePreference: EnginePreference = .hardwarePreferred
    /// `--qp` as given.
    var quantizer: Int?
    /// `--preset` as given; `nil` means the engine's default.
    var preset: EncoderPreset?
    /// `--threads` as given (on the commands that take it); `nil` means the engine's default.
    var threadCount: EncoderThreadCount?
    /// The AAC bit rate: `--audio-bitrate`, else 96k.
    var audioBitRate: Int
    /// The audio codec: `--audio-codec`, else AAC.
    var audioCodec: CodecType

    /// Reads the shared options and checks how they combine.
    /// - Parameters:
    ///   - parsed: the command line.
    ///   - impliedCodec: the codec when `--codec` is not given (the output's, for `encode`).
    /// - Throws: ``CommandLineError`` naming the options that do not fit together.
    init(_ parsed: ParsedOptions, impliedCodec: CodecType? = nil) throws(CommandLineError) {
        codec = parsed.given(Self.codec) ?? impliedCodec ?? .h264
        let size = parsed.value(Self.size) ?? PictureSize(width: 640, height: 480)
        width = size.width
        height = size.height
        isFrameRateGiven = parsed.isGiven(Self.fps)
        fps = parsed.value(Self.fps) ?? 30
        quantizer = parsed.given(Self.quantizer)
        preset = parsed.given(Self.preset)
        threadCount = parsed.declares(Self.threads) ? parsed.given(Self.threads) : nil
        // The default bit rate gives way to --qp; a bit rate given with it is left for the library's rule to refuse.
        bitRate = parsed.isGiven(Self.bitRate) || quantizer == nil ? parsed.value(Self.bitRate) : nil
        audioBitRate = parsed.value(Self.audioBitRate) ?? 96_000
        // `encode` and `publish` take --audio-codec (Opus for MP4 and WHIP); the other live commands' destinations carry AAC.
        audioCodec = parsed.declares(Self.audioCodec) ? parsed.value(Self.audioCodec) ?? .aac : .aac
        gop = parsed.given(Self.gop)
        bFrames = parsed.given(Self.bFrames)
        switch parsed.value(CommonOptions.engine) ?? .automatic {
        case .automatic: break
        case .hardware: enginePreference = .hardwareRequired
        case .software: enginePreference = .software
        case let .named(name): engineName = name
        }
        let chosen = parsed.given(Self.profile)
        switch (codec, chosen) {
        case (.hevc, nil), (.hevc, .main?): profile = .hevcMain
        case (.hevc, let other?): throw .conflict("--profile \(other) is an H.264 profile; H.265 is encoded in main")
        case (_, nil):
            // High, unless the native engine encodes: it codes Constrained Baseline only.
            let native = NativeEngineOptions.choosesNative(engineName: engineName, preference: enginePreference)
            profile = quantizer == 0 ? Self.losslessProfile : native ? .constrainedBaseline : .high
        case (_, .baseline?): profile = .baseline
        case (_, .main?): profile = .main
        case (_, .high?): profile = .high
        case (_, .high444?): profile = .high444Predictive
        }
        // The rate-control rules are the library's (CompressionConfiguration.validate()); named here by option.
        do {
            try compressionConfiguration.validate()
        } catch let .invalidConfiguration(property: .quantizer, reason: reason) {
            throw .conflict("--qp " + reason.replacing("averageBitRate", with: "--bitrate"))
        } catch {
            // The other rules name a property; the session reports them when it is made.
        }
        if codec == .h264, quantizer == 0, profile != Self.losslessProfile {
            throw .conflict("--qp 0 is lossless, which H.264 codes only in the High 4:4:4 Predictive profile: "
                + "give --profile high444 or leave --profile out")
        }
    }

    /// Takes the input's own frame rate (a Y4M header's) unless `--fps` was given.
    /// - Parameter rate: the input's frames per second.
    mutating func adoptSourceFrameRate(_ rate: Int) {
        if !isFrameRateGiven { fps = rate }
    }

    /// Takes a Y4M input's picture size, and its frame rate where `--fps` was not given.
    /// - Parameter header: the file's stream header.
    mutating func adopt(_ header: Y4MHeader) {
        width = header.width
        height = header.height
        if let rate = header.frameRate, rate.denominator > 0 {
            adoptSourceFrameRate(max(1, Int((Double(rate.numerator) / Double(rate.denominator)).rounded())))
        }
    }

    /// The compression session's properties.
    var compressionConfiguration: CompressionConfiguration {
        var configuration = CompressionConfiguration(codec: codec, width: width, height: height, profileLevel: ProfileLevel(profile: profile))
        configuration.expectedFrameRate = Double(fps)
        configuration.averageBitRate = bitRate
        configuration.maxKeyFrameInterval = gop ?? fps
        configuration.quantizer = quantizer
        configuration.preset = preset
        configuration.threadCount = threadCount
        configuration.enginePreference = enginePreference
        configuration.engineName = engineName
        if let bFrames {
            configuration.maxBFrames = bFrames
            configuration.allowFrameReordering = bFrames > 0
        } else {
            configuration.allowFrameReordering = false  // like the seeds' live apps: no B-frames unless asked
        }
        return configuration
    }
}

/// The value of `--profile`, before the codec decides what it means (`main` is H.264 Main or H.265 Main).
enum ProfileChoice: String, Sendable, Hashable, CustomStringConvertible {
    /// H.264 Baseline.
    case baseline
    /// H.264 Main or H.265 Main.
    case main
    /// H.264 High.
    case high
    /// H.264 High 4:4:4 Predictive (lossless with `--qp 0`).
    case high444

    /// The word as written on the command line.
    var description: String { rawValue }
}
