import Bitstream
import Containers
import MediaCore
import POSIX
import Synchronization
import Transport

/// A stream received over RTMP as a source a ``LivePipeline`` records or serves again without decoding: played from a
/// server (``init(playing:trust:)``: `connect`, `createStream`, `play`), or taken from a publisher — OBS, ffmpeg — by an
/// ingest that accepts one stream key and refuses every other (``init(listeningAt:)``). The FLV tag bodies (Adobe FLV
/// 10.1 §E.4.2–E.4.3, Enhanced RTMP v1 for HEVC) become ``EncodedFrame``s as they are — AVCC, the sequence start's
/// parameter sets in the format, pts = dts + composition time — and AAC ``EncodedAudioFrame``s.
///
/// ```swift
/// let ingest = try RTMPSource(listeningAt: "rtmp://0.0.0.0:1935/live/secret")
/// let pipeline = LivePipeline(source: ingest)
/// pipeline.add(MP4FileDestination(path: "ingest.mp4"), options: .recording())
/// pipeline.add(try RTSPServerDestination(configuration: RTSPServerConfiguration(address: address)))
/// _ = try await pipeline.run()                // until the publisher leaves
/// ```
public final class RTMPSource: EncodedMediaSource {
    private struct State {
        var loop: EventLoop?
        var server: RTMPServer?
        var client: RTMPClient?
        var messages: AsyncStream<RTMPMessage>?
        var statistics = ReceivedStreamStatistics()
        var description: LiveStreamDescription?
        var stopped = false
    }

    /// The most frames read ahead in ``open()`` while waiting for the sequence headers.
    private static let maximumReadAhead = 4096
    /// Frames of one track read in ``open()`` before the stream is taken to have no other.
    private static let singleTrackEvidence = 16

    /// The URL played, or the ingest's `rtmp://ADDRESS:PORT/APP/KEY`.
    public let url: RTMPURL
    /// Whether this is an ingest waiting for a publisher.
    public let isListening: Bool
    /// The certificates trusted for `rtmps://` (playing only).
    public let trust: TLSTrust
    /// The URL.
    public var name: String { url.description }
    /// The ingest's bound address (its port when 0 was asked for); `nil` when playing.
    public let localAddress: SocketAddress?
    /// The ingest server's events (a publisher connected, a key refused); `nil` when playing.
    public let serverEvents: AsyncStream<RTMPServerEvent>?

    private let state = Mutex(State())
    /// Touched only by the one task that calls ``open()`` and ``next()``.
    nonisolated(unsafe) private var iterator: AsyncStream<RTMPMessage>.Iterator?
    nonisolated(unsafe) private var reader = RTMPTagReader()
    nonisolated(unsafe) private var readAhead: [EncodedMedia] = []

    /// Plays a stream from a server; it connects in ``open()``.
    /// - Parameters:
    ///   - url: `rtmp[s]://HOST[:PORT]/APP/KEY`.
    ///   - trust: the certificates trusted for `rtmps://`.
    /// - Throws: ``LiveSourceError`` (`.unavailable`) for a URL that does not parse or names no stream key.
    public init(playing url: String, trust: TLSTrust = .systemRoots) throws(LiveSourceError) {
        self.url = try Self.parse(url)
        isListening = false
        self.trust = trust
        localAddress = nil
        serverEvents = nil
    }

    /// An ingest: binds `ADDRESS:PORT` now and accepts one publisher of `APP/KEY`; every other key is refused.
    /// - Parameter url: `rtmp://ADDRESS:PORT/APP/KEY`.
    /// - Throws: ``LiveSourceError`` (`.unavailable`) for a URL that does not parse, `rtmps://`, or a port in use.
    public init(listeningAt url: String) throws(LiveSourceError) {
        let parsed = try Self.parse(url)
        guard !parsed.isSecure else {
            throw LiveSourceError(source: url, kind: .unavailable, reason: "an ingest takes rtmp:// (put a TLS terminator in front for rtmps://)")
        }
        self.url = parsed
        isListening = true
        trust = .systemRoots
        let path = "\(parsed.app)/\(parsed.streamName)"
        do {
            let loop = try EventLoop()
            let server = try RTMPServer(configuration: .allowing([path], address: try parsed.socketAddress()), on: loop)
            let messages = server.subscribe(to: path)
            server.start()
            localAddress = server.localAddress
            serverEvents = server.events
            state.withLock { $0.loop = loop; $0.server = server; $0.messages = messages }
        } catch {
            throw LiveSourceError(source: url, kind: .unavailable, reason: "\(error)")
        }
    }

    private static func parse(_ text: String) throws(LiveSourceError) -> RTMPURL {
        let url: RTMPURL
        do { url = try RTMPURL(parsing: text) } catch { throw LiveSourceError(source: text, kind: .unavailable, reason: error.description) }
        guard !url.streamName.isEmpty else {
            throw LiveSourceError(source: text, kind: .unavailable, reason: "names no stream key (rtmp://HOST/APP/KEY)")
        }
        return url
    }

    deinit {
        state.withLock { state in
            state.server?.stop()
            state.loop?.shutdown()
        }
    }

    /// Frames received so far (RTMP runs over TCP: nothing is lost on the way).
    public var statistics: ReceivedStreamStatistics { state.withLock { $0.statistics } }

    /// The formats learned by ``open()``, once it returned.
    public var streamDescription: LiveStreamDescription? { state.withLock { $0.description } }

    /// Connects and plays (or waits for the publisher), then reads until the sequence headers have come: the
    /// formats are known at the first coded frame.
    /// - Returns: the formats; the frame rate from `onMetaData` (30 when it says none).
    /// - Throws: ``LiveSourceError``: `.unavailable` when the server cannot be reached or refuses, `.unsupported`
    ///   when the stream ends before any H.264/H.265/AAC sequence header.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        if !isListening {
            do {
                let loop = try EventLoop()
                state.withLock { $0.loop = loop }
                var options = RTMPClientOptions(fourCCs: ["hvc1", "avc1"])
                options.tlsTrust = trust
                let client = try await RTMPClient.connect(to: url.description, options: options, on: loop)
                state.withLock { $0.client = client }
                try await client.play()
                state.withLock { $0.messages = client.messages }
            } catch {
                await stop()
                throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error)")
            }
        }
        iterator = state.withLock { $0.messages }?.makeAsyncIterator()
        while readAhead.count < Self.maximumReadAhead {
            guard let media = try await read() else { break }
            readAhead.append(media)
            // Both sequence headers come before the first frames from every publisher seen; a stream of one track
            // is known as such after a few frames of it.
            if reader.videoFormat != nil, reader.audioFormat != nil { break }
            if reader.videoFormat != nil || reader.audioFormat != nil, readAhead.count >= Self.singleTrackEvidence { break }
        }
        guard reader.videoFormat != nil || reader.audioFormat != nil else {
            throw LiveSourceError(source: name, kind: .unsupported, reason: "no H.264/H.265 or AAC sequence header before the stream ended")
        }
        let description = LiveStreamDescription(video: reader.videoFormat, audio: reader.audioFormat, frameRate: reader.frameRate)
        state.withLock { $0.description = description }
        return description
    }

    /// The next picture or audio frame, in the order the server sent them.
    /// - Returns: the frame, or `nil` once the stream ended (the publisher left) or ``stop()`` was called.
    /// - Throws: ``LiveSourceError`` (`.malformed`) for a tag body that does not parse.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        if !readAhead.isEmpty { return readAhead.removeFirst() }
        return try await read()
    }

    /// Reads messages until one carries a frame.
    private func read() async throws(LiveSourceError) -> EncodedMedia? {
        while let message = await iterator?.next() {
            let media: EncodedMedia?
            do { media = try reader.take(message) } catch {
                throw LiveSourceError(source: name, kind: .malformed, reason: error.description)
            }
            guard let media else { continue }
            state.withLock { state in
                switch media {
                case .video: state.statistics.videoFramesGood += 1
                case .audio: state.statistics.audioFramesGood += 1
                }
            }
            return media
        }
        return nil
    }

    /// Ends the stream: closes the client, or stops the ingest; a pending ``next()`` returns `nil`.
    public func stop() async {
        let (client, server) = state.withLock { state in
            state.stopped = true
            return (state.client, state.server)
        }
        server?.stop()
        await client?.close()
    }
}
