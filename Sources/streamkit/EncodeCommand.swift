import Capture
import Codecs
import Containers
import Foundation
import MediaCore

/// `streamkit encode INPUT -o OUTPUT`: a file (`.y4m`, `.yuv`, `.wav`, or an MP4's video track or an FLV's
/// video, decoded: a transcode) or a generator (`testsrc`, `sine`)
/// through a compression session or the AAC encoder, as fast as the encoder goes. The output kind
/// follows its extension: `.h264`/`.264`, `.h265`/`.hevc`, `.aac`, or a classic MP4 (`.mp4`, `.m4v`,
/// `.mov` for video, `.m4a` for audio).
struct EncodeCommand {
    // MARK: - Declaration

    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "a .y4m file, a raw .yuv file (give --size, --fps, --pix-fmt), a .wav file, an .mp4/.mov/.m4v or .flv file (its video, decoded), testsrc or sine")
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
        EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.quantizer, EncodingOptions.gop,
        EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.pixelFormat, CommonOptions.frames,
        NativeEngineOptions.reconstruction, NativeEngineOptions.threads,
    ]
    private static let audioOptions: [any OptionDeclaring] = [EncodingOptions.audioBitRate, duration, sampleRate, channels]

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "encode", summary: "a .y4m/.yuv/.wav/.mp4/.flv file, testsrc or sine → .h264/.h265/.aac/.mp4/.m4a/.flv/.m3u8, as fast as the encoder goes",
        positionals: [input],
        options: [
            CommonOptions.output.required(),
            CommonOptions.frames.documentingDefault("all; 300 for testsrc"),
            EncodingOptions.codec.documentingDefault("the output's"),
            EncodingOptions.size.documentingDefault("640x480; a .y4m, .mp4 or .flv has its own"),
            EncodingOptions.fps.documentingDefault("a .y4m's, .mp4's or .flv's own rate, else 30"),
            EncodingOptions.bitRate.defaulting(to: 800_000, shown: "800k; for an .aac output it is the AAC rate"),
            EncodingOptions.quantizer, EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames,
            CommonOptions.engine, NativeEngineOptions.reconstruction, NativeEngineOptions.threads,
            CommonOptions.pixelFormat, EncodingOptions.audioBitRate, duration, sampleRate, channels,
            HLSOutputOptions.segmentDuration, HLSOutputOptions.playlistSize,
        ],
        notes: ["OUTPUT: .h264/.264, .h265/.hevc (video) or .aac (audio); the extension chooses the codec.",
                "OUTPUT .mp4/.m4v/.mov (video, --codec chooses) or .m4a (audio): an MP4 file.",
                "OUTPUT .flv: an FLV file (video, --codec chooses: H.264, or H.265 with the Enhanced RTMP header; audio: AAC).",
                "OUTPUT .m3u8: HLS (init.mp4, segment_NNNNN.m4s and the playlist, in the playlist's folder)."])

    enum Input {
        case y4m(String), rawVideo(String), wav(String), mp4(String), flv(String), testPattern, sine
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
    /// `--threads`: the native encoder's thread cap.
    let threadLimit: Int?

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
            default: throw .invalidValue(option: "INPUT", value: source, reason: "is not a .y4m, .yuv or .wav file, testsrc or sine")
            }
        }
        let impliedCodec: CodecType
        let isMP4 = MP4OutputOptions.isMP4(output)
        switch outputExtension {
        case "m3u8": impliedCodec = HLSOutputOptions.impliedCodec(input: source, parsed)
        case "mp4", "m4v", "mov": impliedCodec = parsed.given(EncodingOptions.codec) ?? .h264
        case "m4a": impliedCodec = .aac
        case "flv": impliedCodec = HLSOutputOptions.impliedCodec(input: source, parsed)
        case "h264", "264": impliedCodec = .h264
        case "h265", "265", "hevc": impliedCodec = .hevc
        case "aac": impliedCodec = .aac
        default:
            throw .invalidValue(option: "--output", value: output,
                                reason: "does not end in .h264, .264, .h265, .hevc, .aac, .mp4, .m4v, .mov, .m4a, .flv or .m3u8")
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
        }
        reconstructionPath = parsed.given(NativeEngineOptions.reconstruction)
        threadLimit = parsed.given(NativeEngineOptions.threads)
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

    /// Runs the encode.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        Interruption.install()
        do {
            switch input {
            case .wav, .sine: return try await encodeAudio()
            default: return try await encodeVideo()
            }
        } catch {
            printError("streamkit encode: \(error)")
            return 1
        }
    }

    // MARK: - Video

    /// Where pictures come from.
    private enum PictureSource {
        case y4m(Y4MReader<FileByteSource>)
        case raw(RawVideoReader<FileByteSource>)
        case camera(SyntheticCamera)
        case decoded(DecodedPictureSource)

        mutating func next() async throws -> PixelBuffer? {
            switch self {
            case var .y4m(reader):
                let picture = try reader.nextFrame()
                self = .y4m(reader)
                return picture
            case var .raw(reader):
                let picture = try reader.nextFrame()
                self = .raw(reader)
                return picture
            case let .camera(camera):
                return try await camera.nextFrame()?.pixelBuffer
            case let .decoded(pictures):
                return try await pictures.next()
            }
        }
    }

    private func encodeVideo() async throws -> Int32 {
        var options = self.options
        var source: PictureSource
        var limit = frameLimit
        switch input {
        case let .mp4(path):
            let pictures = try MP4PictureReader(path: path)
            options.width = pictures.track.codedWidth
            options.height = pictures.track.codedHeight
            options.adoptSourceFrameRate(pictures.frameRate)
            source = .decoded(try DecodedPictureSource(format: pictures.format, outputFormat: .i420, pictures: pictures))
        case let .flv(path):
            let pictures = try FLVPictureReader(path: path)
            options.width = pictures.format.width
            options.height = pictures.format.height
            options.adoptSourceFrameRate(pictures.frameRate)
            source = .decoded(try DecodedPictureSource(format: pictures.format, outputFormat: .i420, pictures: pictures))
        case let .y4m(path):
            let reader = try Y4MReader(path: path)
            options.adopt(reader.header)
            source = .y4m(reader)
        case let .rawVideo(path):
            source = .raw(try RawVideoReader(path: path, width: options.width, height: options.height, format: pixelFormat))
        default:
            source = .camera(try SyntheticCamera(width: options.width, height: options.height, frameRate: options.fps,
                                                 format: pixelFormat, realTime: false))
            limit = limit ?? 300
        }
        guard options.width % 2 == 0, options.height % 2 == 0 else {
            throw CommandLineError.conflict("the input is \(options.width)x\(options.height): 4:2:0 encoding needs an even width and height")
        }
        let reconstruction = try reconstructionPath.map {
            try ReconstructionFile(path: $0, width: options.width, height: options.height, framesPerSecond: options.fps)
        }
        let registry = NativeEngineOptions.registry(threads: threadLimit, reconstruction: reconstruction)
        let session = try CompressionSession(configuration: options.compressionConfiguration, registry: registry)
        let writer: any EncodedFrameOutput
        if isMP4 {
            writer = MP4Output(path: output, layout: .classic(MP4WriterOptions()), hasVideo: true, audioFormat: nil).videoTrack
        } else if FLVOutputOptions.isFLV(output) {
            writer = FLVOutput(path: output, hasVideo: true, audioFormat: nil, frameRate: Double(options.fps)).videoTrack
        } else if let hlsConfiguration {
            writer = HLSOutput(path: output, configuration: hlsConfiguration, hasVideo: true, audioFormat: nil).videoTrack
        } else {
            writer = try AnnexBWriter(path: output)
        }
        let progress = ProgressLine(label: "encoding", totalFrames: limit, frameRate: Double(options.fps))
        let frameDuration = MediaTime(value: 1, timescale: Int32(options.fps))
        // The session's outputs are written on a task of their own while this one feeds the session.
        let consumer = Task { () -> (any Error)? in
            var writer = writer
            var failure: (any Error)?
            for await item in session.outputs {
                guard case let .frame(frame) = item, failure == nil else { continue }
                do {
                    try writer.write(frame)
                    progress.videoFrame(bytes: frame.data.count)
                } catch {
                    failure = error
                }
            }
            do { try writer.finish() } catch { failure = failure ?? error }
            return failure
        }
        var failure: (any Error)?
        var index: Int64 = 0
        do {
            while limit.map({ index < $0 }) ?? true, !Interruption.isRequested {
                guard let picture = try await source.next() else { break }
                let pts = MediaTime(value: index, timescale: Int32(options.fps))
                try await session.encode(picture, pts: pts, duration: frameDuration)
                index += 1
            }
        } catch {
            failure = error
        }
        do { _ = try await session.close() } catch { failure = failure ?? error }
        do { try reconstruction?.finish() } catch { failure = failure ?? error }
        let writeFailure = await consumer.value
        progress.finish()
        if index == 0 { try Self.discard(output, reason: failure ?? EncodeFailure.noFrames(input: inputName, output: output)) }
        if let failure = failure ?? writeFailure { throw failure }
        let counts = progress.counts
        printError("\(session.engineName): \(counts.frames) frames → \(output)")
        return 0
    }

    // MARK: - Audio

    private func encodeAudio() async throws -> Int32 {
        var wav: WAVReader<FileByteSource>?
        var microphone: SyntheticMicrophone?
        var rate = sampleRate, channels = channelCount
        switch input {
        case let .wav(path):
            let reader = try WAVReader(path: path)
            rate = reader.format.sampleRate
            channels = reader.format.channelCount
            wav = reader
        default:
            microphone = try SyntheticMicrophone(sampleRate: rate, channelCount: channels, realTime: false)
        }
        let configuration = AudioEncoderConfiguration(sampleRate: rate, channelCount: channels, bitRate: options.audioBitRate)
        let session = try AudioEncoderSession(configuration: configuration, registry: EngineSetup.registry())
        let writer: any EncodedAudioFrameOutput
        if isMP4 {
            writer = MP4Output(path: output, layout: .classic(MP4WriterOptions()), hasVideo: false, audioFormat: session.format).audioTrack
        } else if FLVOutputOptions.isFLV(output) {
            writer = FLVOutput(path: output, hasVideo: false, audioFormat: session.format, frameRate: nil).audioTrack
        } else if let hlsConfiguration {
            writer = HLSOutput(path: output, configuration: hlsConfiguration, hasVideo: false, audioFormat: session.format).audioTrack
        } else {
            writer = try ADTSWriter(path: output)
        }
        let consumer = Task { () -> (written: Int, failure: (any Error)?) in
            var writer = writer
            var written = 0
            var failure: (any Error)?
            for await frame in session.outputs where failure == nil {
                do { try writer.write(frame); written += 1 } catch { failure = error }
            }
            do { try writer.finish() } catch { failure = failure ?? error }
            return (written, failure)
        }
        var failure: (any Error)?
        let target = Int((seconds * Double(rate)).rounded())
        var samples = 0
        do {
            while !Interruption.isRequested {
                let buffer: AudioBuffer?
                if var reader = wav {
                    buffer = try reader.read(maxFrameCount: 4096)
                    wav = reader
                } else if let microphone, samples < target {
                    buffer = try await microphone.nextBuffer().map { try $0.buffer.prefix(frameCount: target - samples) }
                } else {
                    buffer = nil
                }
                guard let buffer else { break }
                samples += buffer.frameCount
                try await session.encode(buffer)
            }
        } catch {
            failure = error
        }
        do { _ = try await session.close() } catch { failure = failure ?? error }
        let result = await consumer.value
        let written = result.written
        if samples == 0 { try Self.discard(output, reason: failure ?? EncodeFailure.noSamples(input: inputName, output: output)) }
        if let failure = failure ?? result.failure { throw failure }
        printError("\(session.engineName): \(samples) samples (\(channels) ch, \(rate) Hz) → \(written) AAC frames → \(output)")
        return 0
    }

    // MARK: - Nothing to encode

    /// The input as the user named it.
    private var inputName: String {
        switch input {
        case let .y4m(path), let .rawVideo(path), let .wav(path), let .mp4(path), let .flv(path): return path
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
