import Containers
import MediaCore
import Synchronization

/// Publishes a live stream to an RTMP server (nginx-rtmp, SRS, MediaMTX, YouTube, Twitch …): H.264 as legacy
/// FLV AVC, H.265 over Enhanced RTMP (`hvc1`), AAC audio — the seeds' live-streaming apps' RTMP push.
///
/// ```swift
/// let loop = try EventLoop()
/// let publisher = try await RTMPPublisher.connect(to: "rtmp://127.0.0.1/live/key", configuration: RTMPPublisherConfiguration(), on: loop)
/// for frame in pictures { try await publisher.send(frame) }
/// try await publisher.close()
/// ```
///
/// What it sends, in order: `@setDataFrame`/`onMetaData`, the sequence headers (AVC/HEVC decoder configuration
/// record, AudioSpecificConfig), then pictures and audio frames interleaved by decode time
/// (``DecodeOrderInterleaver``), timestamps in milliseconds from the first message's decode time, never going
/// back; each picture carries its composition time offset pts − dts (FLV E.4.3.1, signed 24 bits), so B-frames
/// play in the right order. New parameter sets in a picture's format send a new sequence header first.
///
/// Between the encoder and the socket sits an ``AdaptiveMediaSender``: a bounded queue which, when the link is
/// slower than the stream, drops whole pictures nothing depends on and group-of-pictures tails, and steps the
/// target bitrate down (and back up) — each change and drop is an event in ``events``, for the caller to apply
/// to its encoder (`CompressionSession.setRateControl`) and log. A lost connection is restored with backoff;
/// the new one gets fresh metadata and sequence headers and starts at a key frame. ``close()`` sends what is
/// queued, then FCUnpublish and deleteStream.
public final class RTMPPublisher: Sendable {
    private struct State {
        var interleaver: DecodeOrderInterleaver
        var videoIndex = 0
        var audioIndex = 0
        var latestVideoFormat: FormatDescription?
        var latestAudioFormat: AudioFormatDescription?
        var closed = false
    }

    /// What the writer task keeps about the current connection.
    private struct Link {
        var session: any RTMPPublishSession
        var metadataSent = false
        var videoFormatSent: FormatDescription?
        var audioFormatSent: AudioFormatDescription?
    }

    /// The server's URL.
    public let url: RTMPURL
    /// What is sent and how the network is handled.
    public let configuration: RTMPPublisherConfiguration
    private let state: Mutex<State>
    private let link: Mutex<Link>
    private let clock = Mutex<RTMPTimestampClock>(RTMPTimestampClock())
    private let sender: Mutex<AdaptiveMediaSender?> = Mutex(nil)

    /// Every drop, bitrate change, key-frame request, lost and restored connection, in order. Apply
    /// ``SendQueueEvent/bitRateChanged(from:to:queuedSeconds:)`` to the encoder and
    /// ``SendQueueEvent/keyFrameNeeded`` as a forced key frame.
    public var events: AsyncStream<SendQueueEvent> { sender.withLock { $0 }?.events ?? AsyncStream { $0.finish() } }

    /// The target bitrate the publisher asks of the encoder now (bits per second), when it adapts one.
    public var bitRate: Int? { sender.withLock { $0 }?.bitRate }

    private init(url: RTMPURL, configuration: RTMPPublisherConfiguration, session: any RTMPPublishSession) {
        self.url = url
        self.configuration = configuration
        state = Mutex(State(interleaver: DecodeOrderInterleaver(hasVideo: configuration.hasVideo, hasAudio: configuration.hasAudio)))
        link = Mutex(Link(session: session))
    }

    /// Connects and starts publishing: TCP, the RTMP handshake, `connect` (with `fourCcList` [`hvc1`] for
    /// H.265, Enhanced RTMP v1), `releaseStream`, `FCPublish`, `createStream`, `publish` (live).
    /// - Parameters:
    ///   - url: `rtmp://HOST[:PORT]/APP/KEY`, or `rtmps://` over TLS (``RTMPPublisherConfiguration/tlsTrust``;
    ///     a build without the `OpenSSL` trait fails to connect with ``TLSError/unavailable``).
    ///   - configuration: what is sent and how the network is handled.
    ///   - loop: the event loop that runs the sockets.
    /// - Returns: the publisher, ready for ``send(_:)-(EncodedFrame)``.
    /// - Throws: ``RTMPPublisherError``.
    public static func connect(to url: String, configuration: RTMPPublisherConfiguration,
                               on loop: EventLoop) async throws(RTMPPublisherError) -> RTMPPublisher {
        let parsed: RTMPURL
        do {
            parsed = try RTMPURL(parsing: url)
        } catch {
            throw .invalidURL(url, reason: error.description)
        }
        guard !parsed.streamName.isEmpty else { throw .invalidURL(url, reason: "names no stream key (rtmp://HOST/APP/KEY)") }
        guard configuration.videoCodec == .h264 || configuration.videoCodec == .hevc else {
            throw .unsupportedCodec(configuration.videoCodec)
        }
        let factory = RTMPClientPublishSession.factory(url: parsed, videoCodec: configuration.hasVideo ? configuration.videoCodec : nil,
                                                       tlsTrust: configuration.tlsTrust,
                                                       bitRate: Self.streamBitRate(configuration), on: loop)
        return try await connect(url: parsed, configuration: configuration, factory: factory)
    }

    /// The stream's bit rate, video and audio, when the configuration knows the video's.
    private static func streamBitRate(_ configuration: RTMPPublisherConfiguration) -> Int? {
        guard let video = configuration.videoBitRate, configuration.hasVideo else { return nil }
        return video + (configuration.hasAudio ? configuration.audioBitRate ?? 0 : 0)
    }

    /// Connects through a given session factory (the seam the tests and other transports use).
    static func connect(url: RTMPURL, configuration: RTMPPublisherConfiguration,
                        factory: @escaping RTMPPublishSessionFactory) async throws(RTMPPublisherError) -> RTMPPublisher {
        let session: any RTMPPublishSession
        do {
            session = try await factory()
        } catch let error as RTMPPublisherError {
            throw error
        } catch {
            throw .connectFailed("\(error)")
        }
        let publisher = RTMPPublisher(url: url, configuration: configuration, session: session)
        let sender = AdaptiveMediaSender(
            limits: configuration.queueLimits, adaptation: configuration.adaptation, reconnectPolicy: configuration.reconnectPolicy,
            send: { [weak publisher] media in try await publisher?.write(media) },
            reconnect: { [weak publisher] _ in try await publisher?.reopen(with: factory) })
        publisher.sender.withLock { $0 = sender }
        return publisher
    }

    /// Sends a picture (in decode order, AVCC, as a compression session hands it out).
    /// - Parameter frame: the picture.
    /// - Throws: ``RTMPPublisherError/codecMismatch(expected:got:)``; ``RTMPPublisherError/sender(_:)`` once the
    ///   connection is lost for good or the publisher is closed.
    public func send(_ frame: EncodedFrame) async throws(RTMPPublisherError) {
        guard frame.codec == configuration.videoCodec else { throw .codecMismatch(expected: configuration.videoCodec, got: frame.codec) }
        let released = try state.withLock { state throws(RTMPPublisherError) -> [OutgoingMedia] in
            guard !state.closed else { throw .sender(.closed) }
            state.latestVideoFormat = frame.format
            defer { state.videoIndex += 1 }
            return state.interleaver.push(.video(frame, index: state.videoIndex))
        }
        try await submit(released)
    }

    /// Sends an audio frame (raw AAC).
    /// - Parameter frame: the frame.
    /// - Throws: ``RTMPPublisherError/sender(_:)`` once the connection is lost for good or the publisher is closed.
    public func send(_ frame: EncodedAudioFrame) async throws(RTMPPublisherError) {
        let released = try state.withLock { state throws(RTMPPublisherError) -> [OutgoingMedia] in
            guard !state.closed else { throw .sender(.closed) }
            state.latestAudioFormat = frame.format
            defer { state.audioIndex += 1 }
            return state.interleaver.push(.audio(frame, index: state.audioIndex))
        }
        try await submit(released)
    }

    /// Sends everything still held and queued, then ends the publish (FCUnpublish, deleteStream) and closes
    /// the connection.
    /// - Returns: what was sent and dropped.
    /// - Throws: ``RTMPPublisherError/sender(_:)`` when the connection was lost for good.
    @discardableResult
    public func close() async throws(RTMPPublisherError) -> MediaSendReport {
        let held = state.withLock { state -> [OutgoingMedia] in
            guard !state.closed else { return [] }
            state.closed = true
            return state.interleaver.drain()
        }
        var failure: RTMPPublisherError?
        do { try await submit(held) } catch { failure = error }
        guard let sender = sender.withLock({ $0 }) else { return MediaSendReport() }
        let report: MediaSendReport
        do {
            report = try await sender.close()
        } catch {
            link.withLock { $0.session }.abandon()
            throw .sender(error)
        }
        await link.withLock { $0.session }.unpublish()
        if let failure { throw failure }
        return report
    }

    /// Stops at once without sending what is queued (the connection is closed, not unpublished).
    public func cancel() {
        state.withLock { $0.closed = true }
        sender.withLock { $0 }?.cancel()
        link.withLock { $0.session }.abandon()
    }

    // MARK: - The writer's side

    private func submit(_ media: [OutgoingMedia]) async throws(RTMPPublisherError) {
        guard let sender = sender.withLock({ $0 }) else { return }
        for item in media {
            do { try await sender.submit(item) } catch { throw .sender(error) }
        }
    }

    /// Writes one message on the current connection, with what a fresh connection needs first. Runs on the
    /// sender's writer task only.
    private func write(_ media: OutgoingMedia) async throws {
        let current = link.withLock { $0 }
        let session = current.session
        let timestamp = clock.withLock { $0.timestamp(for: media.decodeTime) }
        if !current.metadataSent {
            let (video, audio) = state.withLock { ($0.latestVideoFormat, $0.latestAudioFormat) }
            try await session.sendMetadata(RTMPPublishTags.metadata(configuration: configuration, video: video, audio: audio))
            link.withLock { $0.metadataSent = true }
        }
        switch media {
        case let .video(frame, _):
            if current.videoFormatSent != frame.format {
                try await session.sendVideo(try RTMPPublishTags.videoSequenceStart(frame.format), timestamp: timestamp)
                link.withLock { $0.videoFormatSent = frame.format }
            }
            try await session.sendVideo(try RTMPPublishTags.video(frame), timestamp: timestamp)
        case let .audio(frame, _):
            if current.audioFormatSent != frame.format {
                try await session.sendAudio(try RTMPPublishTags.audioSequenceStart(frame.format), timestamp: timestamp)
                link.withLock { $0.audioFormatSent = frame.format }
            }
            try await session.sendAudio(RTMPPublishTags.audio(frame), timestamp: timestamp)
        }
    }

    /// Replaces a failed connection with a new one; the next message goes with fresh metadata and headers.
    private func reopen(with factory: RTMPPublishSessionFactory) async throws {
        link.withLock { $0.session }.abandon()
        let session = try await factory()
        link.withLock { $0 = Link(session: session) }
    }
}
