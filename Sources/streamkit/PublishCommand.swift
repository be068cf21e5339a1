import Codecs
import Containers
import Foundation
import MediaCore
import Synchronization
import Transport

/// `streamkit publish INPUT rtmp://HOST[:PORT]/APP/KEY`: encodes a file, a generator or the camera with the
/// microphone in real time and publishes it to an RTMP server (H.264 as FLV AVC, H.265 over Enhanced RTMP),
/// adapting the encoder's bitrate to the link; or sends an `.flv` or Annex B file as it is (`--re`: in real time).
struct PublishCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "camera, a .y4m/.yuv/.wav file, testsrc, sine, or an .flv or Annex B .h264/.h265 file (sent as it is)")
    /// `URL`.
    static let destination = PositionalSpec("URL", help: "rtmp://HOST[:PORT]/APP/KEY, or rtmps:// over TLS")
    /// `--re`.
    static let realTime = OptionSpec(flag: "--re", help: "an .flv or Annex B file: send it at its own pace (else as fast as the link takes it)")
    /// `--save FILE`.
    static let save = OptionSpec("--save", value: "FILE", help: "also write the video encoded to this Annex B file (.h264/.h265)",
                                 parse: OptionValueParsers.text)
    /// `--min-bitrate RATE`.
    static let minimumBitRate = OptionSpec("--min-bitrate", value: "RATE", help: "the lowest bit rate a slow link steps the encoder down to",
                                           shown: "an eighth of --bitrate", parse: OptionValueParsers.bitRate)

    /// `--max-delay SECONDS`.
    static let maximumDelay = OptionSpec("--max-delay", value: "SECONDS",
                                         help: "the most media queued for a slow link before frames are dropped", default: 2.0, shown: "2",
                                         parse: OptionValueParsers.seconds)

    /// The options that only mean something for an input encoded here.
    static let encodingOnly: [any OptionDeclaring] = [EncodingOptions.size, EncodingOptions.bitRate, EncodingOptions.gop,
                                                      EncodingOptions.bFrames, minimumBitRate, save]

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "publish", summary: "camera, a file or a generator → an RTMP server (H.264, H.265 over Enhanced RTMP, AAC), adapting to the link",
        positionals: [input, destination],
        options: [
            realTime, save, minimumBitRate, maximumDelay, ReceiveCommand.caFile,
            CommonOptions.frames.documentingDefault("all; endless for camera, testsrc and sine"), NetworkOptions.duration,
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate,
        ],
        notes: ["A slow link steps the bit rate down (and back up), drops whole frames nothing depends on, and reports each;",
                "a lost connection is retried with backoff. Ctrl-C sends what is queued, then FCUnpublish and deleteStream.",
                "An .flv input keeps its H.264/H.265 and AAC and their timestamps (B-frame composition times too).",
                "An Annex B input carries no time: frames go out at the SPS's frame rate (else 25 fps); H.264 pictures get",
                "their pts from the slices' picture order counts, H.265 pictures pts = dts (give an .flv for H.265 B-frames)."])

    /// What is published.
    enum Input {
        /// Encoded here, in real time.
        case live(MediaFeed)
        /// An Annex B file, sent as it is.
        case annexB(path: String, codec: CodecType, realTime: Bool)
        /// An FLV file, its video and audio sent as they are.
        case flv(path: String, realTime: Bool)
    }

    let source: Input
    let url: String
    let savePath: String?
    let minimumBitRate: Int?
    let maximumDelay: Double
    /// The certificates an `rtmps://` server may present (`--ca-file`, else the system's).
    let tlsTrust: TLSTrust

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `publish`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let word = try parsed.argument(Self.input)
        url = try parsed.argument(Self.destination)
        guard url.lowercased().hasPrefix("rtmp://") || url.lowercased().hasPrefix("rtmps://") else {
            throw .invalidValue(option: "URL", value: url, reason: "is not rtmp://HOST[:PORT]/APP/KEY")
        }
        savePath = parsed.given(Self.save)
        minimumBitRate = parsed.given(Self.minimumBitRate)
        maximumDelay = parsed.value(Self.maximumDelay) ?? 2
        tlsTrust = parsed.given(ReceiveCommand.caFile).map { .certificateFile($0) } ?? .systemRoots
        let fileExtension = (word as NSString).pathExtension.lowercased()
        if fileExtension == "flv" {
            if let name = parsed.firstGiven(among: Self.encodingOnly + [EncodingOptions.codec]) {
                throw .conflict("\(name) is for inputs encoded here; \(word) is sent as it is")
            }
            source = .flv(path: word, realTime: parsed.isGiven(Self.realTime))
            return
        }
        if let codec = ["h264": CodecType.h264, "264": .h264, "avc": .h264, "h265": .hevc, "265": .hevc, "hevc": .hevc][fileExtension] {
            if let name = parsed.firstGiven(among: Self.encodingOnly) {
                throw .conflict("\(name) is for inputs encoded here; \(word) is sent as it is")
            }
            if let given = parsed.given(EncodingOptions.codec), given != codec { throw .conflict("--codec \(given) does not match \(word)") }
            source = .annexB(path: word, codec: codec, realTime: parsed.isGiven(Self.realTime))
            return
        }
        if parsed.isGiven(Self.realTime) { throw .conflict("--re is for .flv and Annex B files; \(word) is encoded in real time anyway") }
        let input = try LiveInput(parsing: word)
        if case .y4m = input, parsed.isGiven(EncodingOptions.size) { throw .conflict("--size applies to raw .yuv input, testsrc and camera") }
        if savePath != nil, !input.hasVideo { throw .conflict("--save writes the video, and \(input) has none") }
        var feed = MediaFeed(input: input, options: try EncodingOptions(parsed))
        feed.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        feed.frameLimit = parsed.given(CommonOptions.frames)
        feed.seconds = parsed.given(NetworkOptions.duration)
        source = .live(feed)
    }

    /// Publishes until the input ends, the limit, or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        Interruption.install()
        do {
            switch source {
            case let .live(feed): try await publishLive(feed)
            case let .annexB(path, codec, realTime): try await publishFile(path, codec: codec, realTime: realTime)
            case let .flv(path, realTime): try await publishFLV(path, realTime: realTime)
            }
            return 0
        } catch {
            printError("streamkit publish: \(error)")
            return 1
        }
    }

    // MARK: - Encoded here

    private func publishLive(_ plan: MediaFeed) async throws {
        var feed = plan
        let audioSession = try feed.audioSession()
        let videoSession = Mutex<CompressionSession?>(nil)
        feed.onVideoSession = { session in videoSession.withLock { $0 = session } }
        var configuration = RTMPPublisherConfiguration(hasVideo: feed.input.hasVideo, hasAudio: audioSession != nil,
                                                       videoCodec: feed.options.codec, frameRate: Double(feed.options.fps),
                                                       queueLimits: SendQueueLimits(maximumSeconds: maximumDelay, policy: .drop),
                                                       reconnectPolicy: ReconnectPolicy(initialDelay: 0.5, maximumDelay: 2, maximumAttempts: 30))
        configuration.tlsTrust = tlsTrust
        if let bitRate = feed.options.bitRate {
            configuration.adaptation = BitRateAdaptation(initialBitRate: bitRate, minimumBitRate: minimumBitRate)
        }
        configuration.audioBitRate = audioSession == nil ? nil : feed.options.audioBitRate
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let publisher = try await RTMPPublisher.connect(to: url, configuration: configuration, on: loop)
        printError("publishing to \(publisher.url)")
        let events = Task { await Self.follow(publisher.events) { videoSession.withLock { $0 } } }

        let (items, continuation) = AsyncStream.makeStream(of: FeedItem.self, bufferingPolicy: .bufferingOldest(512))
        let producer = Task { [feed] () -> Result<MediaFeed.Totals, any Error> in
            defer { continuation.finish() }
            do { return .success(try await feed.run(audio: audioSession) { continuation.yield($0) }) } catch { return .failure(error) }
        }
        var saved = try savePath.map { try AnnexBWriter(path: $0) }
        var failure: (any Error)?
        for await item in items {
            do {
                switch item {
                case let .video(frame):
                    try saved?.write(frame)
                    try await publisher.send(frame)
                case let .audio(frame):
                    try await publisher.send(frame)
                }
            } catch {
                failure = failure ?? error
                producer.cancel()
            }
        }
        do { try saved?.finish() } catch { failure = failure ?? error }
        if case let .failure(error) = await producer.value, failure == nil, !(error is CancellationError) { failure = error }
        try await finish(publisher, events: events, failure: failure)
    }

    // MARK: - An Annex B file

    private func publishFile(_ path: String, codec: CodecType, realTime: Bool) async throws {
        try await publishEncoded(path, hasVideo: true, hasAudio: false, videoCodec: codec, realTime: realTime) { publisher in
            let file = try FileByteSource(path: path)
            defer { try? file.close() }
            var assembler = AnnexBFrameAssembler(codec: codec)
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let start = ContinuousClock.now
            var frameCount = 0
            var ended = false
            while !ended, !Interruption.isRequested {
                let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
                let frames = count == 0 ? assembler.finish() : assembler.append(chunk[..<count])
                ended = count == 0
                for frame in frames where !Interruption.isRequested {
                    if let limit = frameLimit, frameCount >= limit { ended = true; break }
                    if realTime { try await Task.sleep(until: start.advanced(by: .seconds(frame.dts.seconds)), clock: .continuous) }
                    try await publisher.send(frame)
                    frameCount += 1
                }
            }
        }
    }

    /// Publishes frames that are already encoded (a file's): connects, lets `send` send them, then closes and reports.
    /// - Parameters:
    ///   - path: the file, for the log line.
    ///   - hasVideo: whether the stream has video.
    ///   - hasAudio: whether the stream has audio.
    ///   - videoCodec: the video's codec.
    ///   - realTime: whether the frames are paced: a full queue then drops, else the sender waits.
    ///   - send: sends the frames through the publisher.
    /// - Throws: what connecting, sending or closing threw.
    func publishEncoded(_ path: String, hasVideo: Bool, hasAudio: Bool, videoCodec: CodecType, realTime: Bool,
                        send: (RTMPPublisher) async throws -> Void) async throws {
        var configuration = RTMPPublisherConfiguration(
            hasVideo: hasVideo, hasAudio: hasAudio, videoCodec: videoCodec,
            queueLimits: SendQueueLimits(maximumSeconds: maximumDelay, policy: realTime ? .drop : .wait))
        configuration.tlsTrust = tlsTrust
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let publisher = try await RTMPPublisher.connect(to: url, configuration: configuration, on: loop)
        printError("publishing \(path) to \(publisher.url)\(realTime ? " in real time" : "")")
        let events = Task { await Self.follow(publisher.events) { nil } }
        var failure: (any Error)?
        do {
            try await send(publisher)
        } catch {
            failure = error
        }
        try await finish(publisher, events: events, failure: failure)
    }

    private var frameLimit: Int? {
        if case let .live(feed) = source { return feed.frameLimit }
        return nil
    }

    // MARK: - Both

    func finish(_ publisher: RTMPPublisher, events: Task<Void, Never>, failure: (any Error)?) async throws {
        var failure = failure
        var report = MediaSendReport()
        do { report = try await publisher.close() } catch { failure = failure ?? error }
        await events.value
        if let failure { throw failure }
        var line = "published \(report.videoFramesSent) video frames and \(report.audioFramesSent) audio frames "
            + "(\(report.bytesSent) bytes)"
        if report.videoFramesDropped + report.audioFramesDropped > 0 {
            line += "; dropped \(report.videoFramesDropped) video and \(report.audioFramesDropped) audio frames"
        }
        if report.bitRateChanges > 0, let rate = report.finalBitRate { line += "; \(report.bitRateChanges) bitrate changes, ending at \(rate / 1000) kbit/s" }
        if report.reconnections > 0 { line += "; \(report.reconnections) reconnections" }
        printError(line)
    }

    /// Logs every event and applies it to the encoder: a new target bitrate, a forced key frame.
    static func follow(_ events: AsyncStream<SendQueueEvent>, session: @Sendable () -> CompressionSession?) async {
        for await event in events {
            printError("publish: \(event)")
            switch event {
            case let .bitRateChanged(_, to, _):
                guard let session = session() else { continue }
                do {
                    try await session.setRateControl(averageBitRate: to, dataRateLimits: session.currentRateControl.dataRateLimits)
                } catch {
                    printError("publish: the encoder kept its bitrate: \(error)")
                }
            case .keyFrameNeeded:
                session()?.requestKeyFrame()
            default:
                break
            }
        }
    }
}
