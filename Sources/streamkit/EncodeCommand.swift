import Capture
import Containers
import Foundation
import Live
import MediaCore

/// `streamkit encode INPUT -o OUTPUT`: a file (`.y4m`, `.yuv`, `.wav`, or an MP4's video track or an FLV's
/// video, decoded: a transcode) or a generator (`testsrc`, `sine`)
/// through a compression session or the AAC encoder, as fast as the encoder goes. The output kind
/// follows its extension: `.h264`/`.264`, `.h265`/`.hevc`, `.aac`, or a classic MP4 (`.mp4`, `.m4v`,
/// `.mov` for video, `.m4a` for audio).
struct EncodeCommand {
    // MARK: - Declaration

    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "a .y4m file, a raw .yuv file (give --size, --fps, --pix-fmt), a .wav file, an .mp4/.mov/.m4v, .flv or .ts file (its video, decoded), testsrc or sine")
    /// `--duration SECONDS` (sine).
    static let duration = OptionSpec("--duration", value: "SECONDS", help: "how long the sine lasts", default: 5.0, shown: "5",
                                     parse: OptionValueParsers.seconds)
    /// `--sample-rate HZ` (sine).
    static let sampleRate = OptionSpec("--sample-rate", value: "HZ", help: "the sine's sample rate", default: 48_000,
                                       parse: OptionValueParsers.wholeNumber(in: 1...384_000))
    /// `--channels N` (sine).
    static let channels = OptionSpec("--channels", value: "N", help: "the sine's channel count", default: 2,
                                     parse: OptionValueParsers.wholeNumber(in: 1...8))

    /// The options that only mean something for video, and those only for audio.
    private static let videoOptions: [any OptionDeclaring] = [
        EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.gop,
        EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.pixelFormat, CommonOptions.frames,
        NativeEngineOptions.reconstruction, EncodingOptions.threads,
    ]
    private static let audioOptions: [any OptionDeclaring] = [EncodingOptions.audioBitRate, EncodingOptions.audioCodec, duration, sampleRate,
                                                              channels]

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "encode", summary: "a .y4m/.yuv/.wav/.mp4/.flv/.ts file, testsrc or sine → .h264/.h265/.aac/.mp4/.m4a/.flv/.ts/.m3u8, as fast as the encoder goes",
        positionals: [input],
        options: [
            CommonOptions.output.required(),
            CommonOptions.frames.documentingDefault("all; 300 for testsrc"),
            EncodingOptions.codec.documentingDefault("the output's"),
            EncodingOptions.size.documentingDefault("640x480; a .y4m, .mp4, .flv or .ts has its own"),
            EncodingOptions.fps.documentingDefault("a .y4m's, .mp4's, .flv's or .ts's own rate, else 30"),
            EncodingOptions.bitRate.defaulting(to: 800_000, shown: "800k; for an .aac output it is the AAC rate"),
            EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames,
            CommonOptions.engine, NativeEngineOptions.reconstruction, EncodingOptions.threads,
            CommonOptions.pixelFormat, EncodingOptions.audioBitRate, EncodingOptions.audioCodec, duration, sampleRate, channels,
            HLSOutputOptions.segmentDuration, HLSOutputOptions.playlistSize, HLSOutputOptions.segmentFormat,
        ],
        notes: ["OUTPUT: .h264/.264, .h265/.hevc (video) or .aac (audio); the extension chooses the codec.",
                "OUTPUT .mp4/.m4v/.mov (video, --codec chooses) or .m4a (audio, --audio-codec chooses: AAC or Opus): an MP4 file.",
                "OUTPUT .flv: an FLV file (video, --codec chooses: H.264, or H.265 with the Enhanced RTMP header; audio: AAC).",
                "OUTPUT .ts: an MPEG-TS file (video, --codec chooses: H.264 or H.265; audio: AAC in ADTS).",
                "OUTPUT .m3u8: HLS (init.mp4, segment_NNNNN.m4s and the playlist, in the playlist's folder)."])

    enum Input: Equatable {
        case y4m(String), rawVideo(String), wav(String), mp4(String), flv(String), ts(String), testPattern, sine
    }

    let input: Input
    let output: String
    /// Whether the output is a (classic) MP4 file.
    let isMP4: Bool
    /// The HLS writer's configuration when the output is a playlist (`.m3u8`).
    let hlsConfiguration: HLSWriter.Configuration?
    let options: EncodingOptions
    let frameLimit: Int?
    let pixelFormat: PixelFormat
    let seconds: Double
    let sampleRate: Int
    let channelCount: Int
    /// `--recon`: where the native encoder's reconstruction goes.
    let reconstructionPath: String?

    /// Reads the command's arguments and checks that they fit the input and the output.
    /// - Parameter parsed: the words after `encode`, parsed with ``table``.
    /// - Throws: ``CommandLineError`` naming the bad argument.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let source = try parsed.argument(Self.input)
        let output = try parsed.required(CommonOptions.output)
        self.output = output
        let outputExtension = (output as NSString).pathExtension.lowercased()
        switch source.lowercased() {
        case "testsrc": input = .testPattern
        case "sine": input = .sine
        case _ where MP4Input.isMP4(source): input = .mp4(source)
        default:
            switch (source as NSString).pathExtension.lowercased() {
            case "y4m": input = .y4m(source)
            case "yuv", "i420", "nv12", "nv21", "yv12": input = .rawVideo(source)
            case "wav": input = .wav(source)
            case "flv": input = .flv(source)
            case "ts", "mts", "m2t": input = .ts(source)
            default: throw .invalidValue(option: "INPUT", value: source, reason: "is not a .y4m, .yuv or .wav file, testsrc or sine")
            }
        }
        let impliedCodec: CodecType
        let isMP4 = MP4OutputOptions.isMP4(output)
        switch outputExtension {
        case "m3u8": impliedCodec = HLSOutputOptions.impliedCodec(input: source, parsed)
        case "mp4", "m4v", "mov": impliedCodec = parsed.given(EncodingOptions.codec) ?? .h264
        case "m4a": impliedCodec = .aac
        case "flv", "ts": impliedCodec = HLSOutputOptions.impliedCodec(input: source, parsed)
        case "h264", "264": impliedCodec = .h264
        case "h265", "265", "hevc": impliedCodec = .hevc
        case "aac": impliedCodec = .aac
        default:
            throw .invalidValue(option: "--output", value: output,
                                reason: "does not end in .h264, .264, .h265, .hevc, .aac, .mp4, .m4v, .mov, .m4a, .flv, .ts or .m3u8")
        }
        let audioInput: Bool
        switch input {
        case .wav, .sine: audioInput = true
        default: audioInput = false
        }
        guard audioInput == (impliedCodec == .aac) else {
            throw .conflict("cannot encode \(audioInput ? "audio" : "video") input into \(output)")
        }
        if audioInput, let name = parsed.firstGiven(among: Self.videoOptions) {
            throw .conflict("\(name) applies to video; \(output) is audio")
        }
        if !audioInput, let name = parsed.firstGiven(among: Self.audioOptions) {
            throw .conflict("\(name) applies to audio; \(output) is video")
        }
        if case .wav = input, let name = parsed.firstGiven(among: [Self.duration, Self.sampleRate, Self.channels]) {
            throw .conflict("\(name) applies to sine; \(source) has its own")
        }
        if case .ts = input, parsed.isGiven(EncodingOptions.size) {
            throw .conflict("--size applies to raw .yuv input and testsrc; \(source) has its own size")
        }
        if case .flv = input, parsed.isGiven(EncodingOptions.size) {
            throw .conflict("--size applies to raw .yuv input and testsrc; \(source) has its own size")
        }
        if case .mp4 = input, parsed.isGiven(EncodingOptions.size) {
            throw .conflict("--size applies to raw .yuv input and testsrc; \(source) has its own size")
        }
        if case .y4m = input, parsed.isGiven(EncodingOptions.size) {
            throw .conflict("--size applies to raw .yuv input and testsrc; \(source) has its own size")
        }
        var options = try EncodingOptions(parsed, impliedCodec: audioInput ? nil : impliedCodec)
        if !audioInput, options.codec != impliedCodec {
            throw .conflict("--codec \(options.codec.rawValue) does not match the output \(output)")
        }
        if audioInput {
            // An audio-only encode has one bit rate: --bitrate and --audio-bitrate both name it.
            if parsed.isGiven(EncodingOptions.bitRate), parsed.isGiven(EncodingOptions.audioBitRate) {
                throw .conflict("--bitrate and --audio-bitrate both set the AAC rate of \(output): give one")
            }
            options.audioBitRate = parsed.given(EncodingOptions.bitRate) ?? options.audioBitRate
            if options.audioCodec == .opus, outputExtension != "m4a" {
                throw .conflict("--audio-codec opus is written into MP4 (.m4a) only; \(output) carries AAC")
            }
        }
        reconstructionPath = parsed.given(NativeEngineOptions.reconstruction)
        if reconstructionPath != nil, !NativeEngineOptions.choosesNative(engineName: options.engineName, preference: options.enginePreference) {
            throw .conflict("--recon writes the native encoder's reconstruction: give --engine native")
        }
        self.options = options
        self.isMP4 = isMP4
        try HLSOutputOptions.rejectUnlessPlaylist(parsed, output: output)
        hlsConfiguration = HLSOutputOptions.isPlaylist(output) ? HLSOutputOptions.configuration(for: output, parsed, growing: false) : nil
        frameLimit = parsed.given(CommonOptions.frames)
        pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        seconds = parsed.value(Self.duration) ?? 5
        sampleRate = parsed.value(Self.sampleRate) ?? 48_000
        channelCount = parsed.value(Self.channels) ?? 2
    }

    /// Runs the encode: the input through a pipeline with no pacing, into one recording.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        do throws(any Error) {
            var options = self.options
            var video: (any VideoSource)?
            var audio: (any AudioSource)?
            var limit = frameLimit
            switch input {
            case let .y4m(path): video = try VideoFileSource(y4mPath: path, pacing: .asFastAsPossible)
            case let .rawVideo(path):
                video = try VideoFileSource(rawPath: path, width: options.width, height: options.height, format: pixelFormat,
                                            frameRate: options.fps, pacing: .asFastAsPossible)
            case let .mp4(path): video = try await DecodedVideoSource.open(MP4FileSource(path: path, pacing: .asFastAsPossible))
            case let .flv(path): video = try await DecodedVideoSource.open(FLVFileSource(path: path, pacing: .asFastAsPossible))
            case let .ts(path): video = try await DecodedVideoSource.open(TSFileSource(path: path, pacing: .asFastAsPossible))
            case .testPattern:
                video = try SyntheticCamera(width: options.width, height: options.height, frameRate: options.fps, format: pixelFormat,
                                            realTime: false)
                limit = limit ?? 300
            case let .wav(path): audio = try WAVFileSource(path: path, pacing: .asFastAsPossible)
            case .sine: audio = try SyntheticMicrophone(sampleRate: sampleRate, channelCount: channelCount, realTime: false)
            }
            if let video {
                options.width = video.width
                options.height = video.height
                options.adoptSourceFrameRate(max(1, Int(video.frameRate.rounded())))
                guard options.width % 2 == 0, options.height % 2 == 0 else {
                    throw CommandLineError.conflict("the input is \(options.width)x\(options.height): 4:2:0 encoding needs an even width and height")
                }
            }
            let reconstruction = try reconstructionPath.map {
                try ReconstructionFile(path: $0, width: options.width, height: options.height, framesPerSecond: options.fps)
            }
            var configuration = LiveConfiguration(video: options.compressionConfiguration, audioBitRate: options.audioBitRate, adaptation: nil,
                                                  registry: NativeEngineOptions.registry(reconstruction: reconstruction))
            configuration.audioCodec = options.audioCodec
            configuration.frameLimit = limit
            configuration.durationLimit = input == .sine ? seconds : nil
            configuration.delivery = .waitForSlowest
            let pipeline = LivePipeline(video: video, audio: audio, configuration: configuration)
            pipeline.add(destination, options: .recording())
            let report = try await LiveLaunch.run(pipeline, label: "encode")
            try reconstruction?.finish()
            if video != nil {
                guard report.picturesEncoded > 0 else { try Self.discard(output, reason: EncodeFailure.noFrames(input: inputName, output: output)) }
            } else {
                guard report.audioSamplesCaptured > 0 else { try Self.discard(output, reason: EncodeFailure.noSamples(input: inputName, output: output)) }
            }
            if let failure = report.destinations.first?.failure { throw CommandLineError.conflict("\(output): \(failure)") }
            if video != nil {
                printError("\(report.videoEngine ?? "encoder"): \(report.picturesEncoded) frames → \(output)")
            } else {
                printError("\(report.audioEngine ?? "encoder"): \(report.audioSamplesCaptured) samples (\(audio?.channelCount ?? 0) ch, "
                    + "\(audio?.sampleRate ?? 0) Hz) → \(report.audioFramesEncoded) \(options.audioCodec == .opus ? "Opus" : "AAC") frames → \(output)")
            }
            return 0
        } catch {
            printError("streamkit encode: \(error)")
            return 1
        }
    }

    /// The recording the output names: a classic MP4, FLV, HLS, Annex B or ADTS.
    private var destination: any LiveDestination {
        if isMP4 { return MP4FileDestination(path: output, layout: .classic(MP4WriterOptions())) }
        if FLVOutputOptions.isFLV(output) { return FLVFileDestination(path: output) }
        if (output as NSString).pathExtension.lowercased() == "ts" { return TSFileDestination(path: output) }
        if let hlsConfiguration { return HLSDestination(configuration: hlsConfiguration) }
        switch input {
        case .wav, .sine: return ADTSFileDestination(path: output)
        default: return AnnexBFileDestination(path: output)
        }
    }

    // MARK: - Nothing to encode

    /// The input as the user named it.
    private var inputName: String {
        switch input {
        case let .y4m(path), let .rawVideo(path), let .wav(path), let .mp4(path), let .flv(path), let .ts(path): return path
        case .testPattern: return "testsrc"
        case .sine: return "sine"
        }
    }

    /// Removes an output that holds nothing, then throws why.
    private static func discard(_ output: String, reason: any Error) throws -> Never {
        try? FileManager.default.removeItem(atPath: output)
        throw reason
    }
}

/// An encode that produced nothing; the empty output is removed.
enum EncodeFailure: Error, CustomStringConvertible {
    /// The video input holds no frame.
    case noFrames(input: String, output: String)
    /// The audio input holds no sample.
    case noSamples(input: String, output: String)

    var description: String {
        switch self {
        case let .noFrames(input, output): return "\(input) has no frames: nothing to encode (\(output) not written)"
        case let .noSamples(input, output): return "\(input) has no samples: nothing to encode (\(output) not written)"
        }
    }
}
