import Capture
import Codecs
import Foundation
import Live
import MediaCore

/// How `publish`, `stream` and `serve` make their ``LivePipeline`` from the command line: the input (encoded here,
/// or sent as it is), the encoder's options and the limits; then run it with Ctrl-C and `--duration` wired to
/// ``LivePipeline/stop()`` and every event printed.
struct LiveLaunch: Sendable {
    /// What is sent.
    var input: LiveInput
    /// The video encoding (inputs encoded here).
    var options: EncodingOptions
    /// The layout of a raw `.yuv` input.
    var pixelFormat: PixelFormat = .i420
    /// Whether a file input starts again at its end (`serve`).
    var loops = false
    /// The pace a file input was asked to go at (`--re`), or `nil` to leave it to the library's rule
    /// (``Pacing/forFile(requested:into:)``) when the destinations are known.
    var requestedPacing: Pacing?
    /// The most pictures.
    var frameLimit: Int?
    /// The longest run in seconds.
    var seconds: Double?
    /// The lowest bit rate adaptation steps down to (`--min-bitrate`).
    var minimumBitRate: Int?
    /// The sine and microphone sample rate.
    var sampleRate = 48_000
    /// The sine and microphone channel count.
    var channelCount = 2

    /// Makes the pipeline, printing which camera and microphone it took.
    /// - Parameter pacing: how a file input goes (real time when not given).
    /// - Returns: the pipeline.
    /// - Throws: what opening a source or file threw; ``CommandLineError`` for an audio-only input in a build
    ///   without an AAC encoder.
    func makePipeline(pacing: Pacing? = nil) throws -> LivePipeline {
        let pacing = pacing ?? requestedPacing ?? .realTime
        let delivery = Delivery(for: pacing)
        let registry = EngineSetup.registry()
        switch input {
        case let .flv(path):
            return LivePipeline(source: FLVFileSource(path: path, pacing: pacing), frameLimit: frameLimit, delivery: delivery)
        case let .mp4(path):
            return LivePipeline(source: MP4FileSource(path: path, pacing: pacing), frameLimit: frameLimit, delivery: delivery)
        case let .ts(path):
            return LivePipeline(source: TSFileSource(path: path, pacing: pacing), frameLimit: frameLimit, delivery: delivery)
        case let .annexB(path, codec):
            return LivePipeline(source: AnnexBFileSource(path: path, codec: codec, pacing: pacing), frameLimit: frameLimit,
                                delivery: delivery)
        default:
            break
        }
        var options = self.options
        var video: (any VideoSource)?
        var audio: (any AudioSource)?
        switch input {
        case let .y4m(path):
            let file = try VideoFileSource(y4mPath: path, pacing: pacing, loops: loops)
            options.width = file.width
            options.height = file.height
            options.adoptSourceFrameRate(max(1, Int(file.frameRate.rounded())))
            video = file
        case let .rawVideo(path):
            video = try VideoFileSource(rawPath: path, width: options.width, height: options.height, format: pixelFormat,
                                        frameRate: options.fps, pacing: pacing, loops: loops)
        case .testPattern:
            video = try SyntheticCamera(width: options.width, height: options.height, frameRate: options.fps, format: pixelFormat,
                                        realTime: true)
        case let .wav(path):
            audio = try WAVFileSource(path: path, pacing: pacing, loops: loops)
        case .sine:
            audio = try SyntheticMicrophone(sampleRate: sampleRate, channelCount: channelCount, realTime: true)
        case .camera:
            let camera = try defaultVideoSource(width: options.width, height: options.height, fps: options.fps)
            printError("camera: \(camera.reason)")
            video = camera.source
            if registry.canEncode(.aac) {
                let microphone = try defaultAudioSource(sampleRate: sampleRate, channels: channelCount)
                printError("microphone: \(microphone.reason)")
                audio = microphone.source
            } else {
                printError(AudioNotice.videoAlone)
            }
        case .flv, .mp4, .ts, .annexB:
            break
        }
        if video == nil, !registry.canEncode(.aac) {
            throw CommandLineError.conflict("\(input) is audio, and this build has no AAC encoder (build with --traits FFmpeg)")
        }
        var configuration = LiveConfiguration(video: options.compressionConfiguration, audioBitRate: options.audioBitRate, registry: registry)
        configuration.frameLimit = frameLimit
        configuration.delivery = delivery
        configuration.audioCodec = options.audioCodec
        if let minimumBitRate { configuration.minimumBitRate = minimumBitRate }
        if options.bitRate == nil { configuration.adaptation = nil }
        return LivePipeline(video: video, audio: audio, configuration: configuration)
    }

    /// Runs a pipeline until its input ends, the frame limit, ``seconds``, or Ctrl-C, printing each event as
    /// `label: event`.
    /// - Parameters:
    ///   - pipeline: the pipeline, its destinations added.
    ///   - label: the command's name, for the log lines.
    /// - Returns: what it did.
    /// - Throws: ``LiveError`` when it could not run.
    func run(_ pipeline: LivePipeline, label: String) async throws(LiveError) -> LiveReport {
        try await Self.run(pipeline, label: label, seconds: seconds)
    }

    /// Runs any pipeline a command made (`record`, `encode` too) until it ends, `seconds`, or Ctrl-C, printing each
    /// event as `label: event`.
    /// - Parameters:
    ///   - pipeline: the pipeline, its destinations added.
    ///   - label: the command's name, for the log lines.
    ///   - seconds: the longest run, if any.
    /// - Returns: what it did.
    /// - Throws: ``LiveError`` when it could not run.
    static func run(_ pipeline: LivePipeline, label: String, seconds: Double? = nil) async throws(LiveError) -> LiveReport {
        Interruption.install()
        Interruption.onRequest { pipeline.stop() }
        let timer = seconds.map { seconds in
            Task {
                try await Task.sleep(for: .seconds(seconds))
                pipeline.stop()
            }
        }
        defer { timer?.cancel() }
        let log = Task {
            for await event in pipeline.events {
                if case .ended = event { continue }
                printError("\(label): \(event)")
            }
        }
        defer { log.cancel() }
        let report = try await pipeline.run()
        await log.value
        return report
    }

    /// Runs the input into destinations typed on the command line and prints what each got.
    /// - Parameters:
    ///   - words: the destinations as typed (see ``LiveDestinations``).
    ///   - options: each kind's settings.
    ///   - savePath: an Annex B file that also gets the video (`--save`), if any.
    ///   - label: the command's name, for the log lines.
    /// - Returns: the exit status: 0 when at least one destination got the stream to the end.
    func send(to words: [String], options: LiveDestinations.Options, savePath: String?, label: String) async -> Int32 {
        do {
            let destinations = try words.map { word throws -> any LiveDestination in
                try LiveDestinations.destination(for: word, options: options)
            }
            let saved: [any LiveDestination] = savePath.map { [AnnexBFileDestination(path: $0)] } ?? []
            let pipeline = try makePipeline(pacing: input.isFile ? .forFile(requested: requestedPacing, into: destinations + saved) : nil)
            for destination in destinations + saved {
                pipeline.add(destination, options: destination.isLive ? DestinationOptions() : .recording())
            }
            for destination in destinations { printError("\(label): to \(destination.name)") }
            let report = try await run(pipeline, label: label)
            return Self.summarize(report)
        } catch {
            printError("streamkit \(label): \(error)")
            return 1
        }
    }

    /// Checks destination words when the command line is read, so a typo fails before anything starts.
    /// - Parameters:
    ///   - words: the destinations as typed.
    ///   - option: the placeholder to name in the error.
    /// - Throws: ``CommandLineError`` naming the word and what is wrong with it.
    static func check(_ words: [String], option: String) throws(CommandLineError) {
        for word in words {
            do { _ = try LiveDestinations.destination(for: word) } catch {
                throw .invalidValue(option: option, value: word, reason: "\(error)")
            }
        }
    }

    /// Prints what each destination got, in the library's words (``DestinationStatistics/description``).
    /// - Parameter report: the pipeline's report.
    /// - Returns: the exit status: 0 when at least one destination got the stream to the end.
    static func summarize(_ report: LiveReport) -> Int32 {
        if report.bitRateChanges > 0, let rate = report.finalBitRate {
            printError("\(report.bitRateChanges) bitrate changes, ending at \(rate / 1000) kbit/s")
        }
        for destination in report.destinations { printError(destination.description) }
        return report.destinations.contains { $0.failure == nil } ? 0 : 1
    }
}
