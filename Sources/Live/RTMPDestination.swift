import MediaCore
import Synchronization
import Transport

/// Publishing to an RTMP server (nginx-rtmp, SRS, MediaMTX, YouTube, Twitch …) as a destination of a
/// ``LivePipeline``: an ``RTMPPublisher`` whose send queue measures the link. When the link is slower than the
/// stream it drops what nothing depends on and suggests a lower bit rate (the pipeline's adaptation policy decides);
/// a lost connection is restored with backoff and resumes at a key frame with fresh sequence headers. All of it is
/// reported in ``events``.
public final class RTMPDestination: LiveDestination {
    /// How the destination publishes.
    public struct Options: Sendable {
        /// The most media time waiting to be sent before drops begin (seconds).
        public var maximumDelay: Double
        /// The lowest bit rate the link's measurements may suggest (bits per second); `nil`: an eighth of the
        /// stream's.
        public var minimumBitRate: Int?
        /// Whether the link's measurements suggest bit rates at all.
        public var adapts: Bool
        /// Reconnection after a lost connection.
        public var reconnectPolicy: ReconnectPolicy
        /// Which certificates an `rtmps://` server may present.
        public var tlsTrust: TLSTrust

        /// Creates options.
        /// - Parameters:
        ///   - maximumDelay: seconds of media queued before drops begin (default 2).
        ///   - minimumBitRate: the lowest suggested bit rate.
        ///   - adapts: whether to suggest bit rates (default `true`).
        ///   - reconnectPolicy: reconnection (default: 30 attempts, 0.5 s to 2 s apart).
        ///   - tlsTrust: TLS trust for `rtmps://` (default: the system's authorities).
        public init(maximumDelay: Double = 2, minimumBitRate: Int? = nil, adapts: Bool = true,
                    reconnectPolicy: ReconnectPolicy = ReconnectPolicy(initialDelay: 0.5, maximumDelay: 2, maximumAttempts: 30),
                    tlsTrust: TLSTrust = .systemRoots) {
            self.maximumDelay = maximumDelay
            self.minimumBitRate = minimumBitRate
            self.adapts = adapts
            self.reconnectPolicy = reconnectPolicy
            self.tlsTrust = tlsTrust
        }
    }

    private struct Connection {
        var loop: EventLoop
        var publisher: RTMPPublisher
        var forwarding: Task<Void, Never>
    }

    /// The server's URL: `rtmp[s]://HOST[:PORT]/APP/KEY`.
    public let url: String
    /// How it publishes.
    public let options: Options
    /// The URL.
    public var name: String { url }
    /// A live link.
    public var isLive: Bool { true }
    /// The publisher's drops, bit-rate suggestions, key-frame requests and connection changes.
    public let events: AsyncStream<SendQueueEvent>?

    private let eventContinuation: AsyncStream<SendQueueEvent>.Continuation
    private let connection = Mutex<Connection?>(nil)

    /// Creates the destination; it connects when the stream starts.
    /// - Parameters:
    ///   - url: `rtmp[s]://HOST[:PORT]/APP/KEY`.
    ///   - options: queue, adaptation, reconnection and TLS.
    public init(url: String, options: Options = Options()) {
        self.url = url
        self.options = options
        let (stream, continuation) = AsyncStream.makeStream(of: SendQueueEvent.self, bufferingPolicy: .bufferingNewest(1024))
        events = stream
        eventContinuation = continuation
    }

    /// Connects and publishes: handshake, `connect`, `createStream`, `publish`, then `onMetaData` and the sequence
    /// headers.
    /// - Parameter stream: the stream's formats.
    /// - Throws: ``RTMPPublisherError`` when the server cannot be reached or refuses; `TransportError` for the loop.
    public func open(_ stream: LiveStreamDescription) async throws {
        var configuration = RTMPPublisherConfiguration(
            hasVideo: stream.video != nil, hasAudio: stream.audio != nil, videoCodec: stream.video?.codec ?? .h264,
            frameRate: stream.frameRate > 0 ? stream.frameRate : nil,
            queueLimits: SendQueueLimits(maximumSeconds: options.maximumDelay, policy: .drop),
            adaptation: nil, reconnectPolicy: options.reconnectPolicy)
        if options.adapts, let rate = stream.videoBitRate {
            configuration.adaptation = BitRateAdaptation(initialBitRate: rate, minimumBitRate: options.minimumBitRate ?? max(1, rate / 8))
        }
        configuration.videoBitRate = stream.videoBitRate
        configuration.audioBitRate = stream.audioBitRate
        configuration.tlsTrust = options.tlsTrust
        let loop = try EventLoop()
        let publisher: RTMPPublisher
        do {
            publisher = try await RTMPPublisher.connect(to: url, configuration: configuration, on: loop)
        } catch {
            loop.shutdown()
            throw error
        }
        let continuation = eventContinuation
        let forwarding = Task {
            for await event in publisher.events { continuation.yield(event) }
        }
        connection.withLock { $0 = Connection(loop: loop, publisher: publisher, forwarding: forwarding) }
    }

    /// Queues a frame for the server (the publisher interleaves audio and video by decode time).
    /// - Parameter media: the frame.
    /// - Throws: ``RTMPPublisherError`` once the connection is lost for good.
    public func send(_ media: OutgoingMedia) async throws {
        guard let publisher = connection.withLock({ $0?.publisher }) else { throw LiveDestinationError.notOpen(destination: url) }
        switch media {
        case let .video(frame, _): try await publisher.send(frame)
        case let .audio(frame, _): try await publisher.send(frame)
        }
    }

    /// Sends what is queued, unpublishes and closes the connection.
    /// - Throws: ``RTMPPublisherError`` when the connection was lost for good.
    public func finish() async throws {
        defer { eventContinuation.finish() }
        guard let current = connection.withLock({ state -> Connection? in
            defer { state = nil }
            return state
        }) else { return }
        defer { current.loop.shutdown() }
        do {
            _ = try await current.publisher.close()
        } catch {
            await current.forwarding.value
            throw error
        }
        await current.forwarding.value
    }
}
