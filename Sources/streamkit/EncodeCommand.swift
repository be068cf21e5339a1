import Capture
import Codecs
import Containers
import Foundation
import MediaCore

/// `streamkit encode INPUT -o OUTPUT`: a file (`.y4m`, `.yuv`, `.wav`) or a generator (`testsrc`, `sine`)
/// through a compression session or the AAC encoder, as fast as the encoder goes. The output kind
/// follows its extension: `.h264`/`.264`, `.h265`/`.hevc`, `.aac`.
struct EncodeCommand {
    static let usage = """
        usage: streamkit encode INPUT -o OUTPUT [--frames N] [--codec h264|hevc] [--size WxH] [--fps N] [--bitrate 800k]
                                [--qp N] [--gop N] [--profile baseline|main|high] [--bframes N] [--engine NAME]
                                [--pix-fmt i420|yv12|nv12|nv21] [--duration SECONDS] [--sample-rate HZ] [--channels N]
          INPUT: a .y4m file, a raw .yuv file (give --size, --fps, --pix-fmt), a .wav file, testsrc or sine
          OUTPUT: .h264/.264, .h265/.hevc (video) or .aac (audio)
        """

    enum Input {
        case y4m(String), rawVideo(String), wav(String), testPattern, sine
    }

    let input: Input
    let output: String
    let options: EncodingOptions
    let frameLimit: Int?
    let pixelFormat: PixelFormat
    let seconds: Double
    let sampleRate: Int
    let channelCount: Int

    /// Parses the command's arguments.
    /// - Parameter words: the words after `encode`.
    /// - Throws: ``CommandLineError`` naming the bad argument.
    init(_ words: [String]) throws(CommandLineError) {
        let arguments = try CommandLineArguments(words, valueOptions: EncodingOptions.valueOptions)
        try arguments.rejectUnknown(allowedFlags: [], allowedOptions: [
            "output", "frames", "codec", "size", "fps", "bitrate", "gop", "profile", "bframes", "engine", "qp", "pix-fmt",
            "duration", "sample-rate", "channels", "audio-bitrate",
        ])
        guard let source = arguments.positionals.first, arguments.positionals.count == 1 else {
            throw .missingArgument("the input (\(Self.usage))")
        }
        guard let output = arguments.options["output"] else { throw .missingArgument("-o OUTPUT") }
        self.output = output
        let outputExtension = (output as NSString).pathExtension.lowercased()
        let lowerSource = source.lowercased()
        switch lowerSource {
        case "testsrc": input = .testPattern
        case "sine": input = .sine
        default:
            switch (source as NSString).pathExtension.lowercased() {
            case "y4m": input = .y4m(source)
            case "yuv", "i420", "nv12", "nv21", "yv12": input = .rawVideo(source)
            case "wav": input = .wav(source)
            default: throw .invalidValue("input \(source): expected a .y4m, .yuv or .wav file, testsrc or sine")
            }
        }
        var options = try EncodingOptions(arguments, defaultBitRate: 800_000)
        switch outputExtension {
        case "h264", "264": options.codec = arguments.options["codec"] == nil ? .h264 : options.codec
        case "h265", "265", "hevc": options.codec = arguments.options["codec"] == nil ? .hevc : options.codec
        case "aac": break
        default: throw .invalidValue("output \(output): the extension must be .h264, .264, .h265, .hevc or .aac")
        }
        let audioInput: Bool
        switch input {
        case .wav, .sine: audioInput = true
        default: audioInput = false
        }
        guard audioInput == (outputExtension == "aac") else {
            throw .invalidValue("cannot encode \(audioInput ? "audio" : "video") input into \(output)")
        }
        if outputExtension != "aac" {
            let wantsCodec: CodecType = ["h265", "265", "hevc"].contains(outputExtension) ? .hevc : .h264
            guard options.codec == wantsCodec else {
                throw .invalidValue("--codec \(options.codec.rawValue) does not match the output \(output)")
            }
        }
        self.options = options
        if let frames = arguments.options["frames"] {
            guard let count = Int(frames), count > 0 else { throw .invalidValue("--frames \(frames): expected a positive count") }
            frameLimit = count
        } else {
            frameLimit = nil
        }
        switch arguments.options["pix-fmt"]?.lowercased() ?? "i420" {
        case "i420", "yuv420p": pixelFormat = .i420
        case "yv12": pixelFormat = .yv12
        case "nv12": pixelFormat = .nv12
        case "nv21": pixelFormat = .nv21
        case let other: throw .invalidValue("--pix-fmt \(other): expected i420, yv12, nv12 or nv21")
        }
        let duration = arguments.options["duration"] ?? "5"
        guard let seconds = Double(duration), seconds > 0 else { throw .invalidValue("--duration \(duration): expected positive seconds") }
        self.seconds = seconds
        let rate = arguments.options["sample-rate"] ?? "48000"
        guard let sampleRate = Int(rate), sampleRate > 0 else { throw .invalidValue("--sample-rate \(rate): expected Hz") }
        self.sampleRate = sampleRate
        let channels = arguments.options["channels"] ?? "2"
        guard let channelCount = Int(channels), (1...8).contains(channelCount) else { throw .invalidValue("--channels \(channels): expected 1…8") }
        self.channelCount = channelCount
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
            }
        }
    }

    private func encodeVideo() async throws -> Int32 {
        var options = self.options
        var source: PictureSource
        var limit = frameLimit
        switch input {
        case let .y4m(path):
            let reader = try Y4MReader(path: path)
            options.width = reader.header.width
            options.height = reader.header.height
            if let rate = reader.header.frameRate, rate.denominator > 0, self.options.fps == 30 {
                options.fps = max(1, Int((Double(rate.numerator) / Double(rate.denominator)).rounded()))
            }
            source = .y4m(reader)
        case let .rawVideo(path):
            source = .raw(try RawVideoReader(path: path, width: options.width, height: options.height, format: pixelFormat))
        default:
            source = .camera(try SyntheticCamera(width: options.width, height: options.height, frameRate: options.fps,
                                                 format: pixelFormat, realTime: false))
            limit = limit ?? 300
        }
        guard options.width % 2 == 0, options.height % 2 == 0 else {
            throw CommandLineError.invalidValue("the input is \(options.width)x\(options.height): 4:2:0 encoding needs an even width and height")
        }
        let session = try CompressionSession(configuration: options.compressionConfiguration, registry: EngineSetup.registry())
        let writer = try AnnexBWriter(path: output)
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
        let writeFailure = await consumer.value
        progress.finish()
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
        let writer = try ADTSWriter(path: output)
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
        if let failure = failure ?? result.failure { throw failure }
        printError("\(session.engineName): \(samples) samples (\(channels) ch, \(rate) Hz) → \(written) AAC frames → \(output)")
        return 0
    }
}
