import Bitstream
import MediaCore
import Opus
import POSIX
import RTP
import Synchronization
import Transport

/// A WHIP ingest (RFC 9725) as the source of a ``LivePipeline``: one publisher — FFmpeg's `-f whip`, OBS, a browser —
/// POSTs its offer to the ``WHIPEndpoint`` at `http://HOST:PORT/PATH` and sends H.264 and Opus over SRTP; the
/// pictures and Opus packets come out as ``EncodedMedia`` with the stream's own times, to be recorded (MP4 with
/// `avc1` and `Opus`) or sent on.
///
/// The receiving ``WebRTCPeerSession`` keeps a jitter buffer per track, asks for lost packets with NACKs and for a
/// key frame with PLI; pictures after a loss are withheld until the next IDR, so nothing damaged comes out, and each
/// frame that could not be rebuilt is counted in ``receiverStatistics``. Times: each track's RTP clock, unwrapped,
/// from its first frame, which is placed at its arrival after the first frame of either track (lip sync to a few
/// milliseconds on a link without queues; the sender reports are kept in the statistics).
///
/// With ``Lifetime/onePublisher`` (a recording: `streamkit receive --listen`) the source ends when the publisher DELETEs
/// its resource, leaves (DTLS close, RTCP BYE, ICE consent), or at ``stop()``. With ``Lifetime/untilStopped`` (a
/// server's ingest, as MediaMTX's path: `streamkit serve whip`) it outlives its publishers: when one leaves, ``next()``
/// waits for the next to POST at the same path, whose frames continue the timeline where the last one's ended (from
/// its first key frame), so the destinations behind the pipeline — an RTSP server, HLS, WHEP — keep serving. Either
/// way the endpoint takes one publisher at a time (``WHIPEndpoint/maximumSessions``): a second one while the first is
/// live gets `503`, and the first goes on. Each publisher's arrival and departure comes out of ``publisherEvents``.
///
/// ```swift
/// let ingest = try WHIPSource(listeningAt: "http://127.0.0.1:8080/live/whip")
/// let pipeline = LivePipeline(source: ingest)
/// pipeline.add(MP4FileDestination(path: "ingest.mp4"), options: .recording())
/// ```
public actor WHIPSource: EncodedMediaSource {
    /// The most frames read ahead while the formats are learnt.
    public static let readAheadLimit = 1024

    /// How long the source lasts: the first publisher's stream, or its publishers' streams one after the other.
    public enum Lifetime: Sendable, Hashable {
        /// The source ends when its first publisher leaves (a recording of one ingest).
        case onePublisher
        /// The source lasts until ``WHIPSource/stop()``: after a publisher leaves, the next one to POST continues the
        /// stream (a server's ingest path).
        case untilStopped
    }

    /// `whip http://HOST:PORT/PATH`.
    public nonisolated let name: String
    /// The endpoint publishers POST to.
    public nonisolated let endpoint: WHIPEndpoint
    /// The server the endpoint is mounted on.
    public nonisolated let server: HTTPServer
    /// How long ``open()`` waits for the formats once the publisher's media flows.
    public nonisolated let formatTimeout: Duration
    /// Whether the source ends with its first publisher or lasts until stopped.
    public nonisolated let lifetime: Lifetime

    /// Each publisher's arrival (its POST answered) and departure (its session ended), in order; the stream ends at
    /// ``stop()``. One reader.
    public nonisolated let publisherEvents: AsyncStream<WHIPPublisherEvent>

    private nonisolated let ownsServer: Bool
    private nonisolated let ledger: PublisherLedger
    private nonisolated let sessions: AsyncStream<WebRTCPeerSession>
    private nonisolated let sessionSink: AsyncStream<WebRTCPeerSession>.Continuation
    private nonisolated let current = Mutex<WebRTCPeerSession?>(nil)
    private nonisolated let sessionCount = Mutex(0)
    private nonisolated let arrivals = Atomic<Int>(0)
    private var waitingSessions: AsyncStream<WebRTCPeerSession>.Iterator?
    /// Where the current publisher's timeline starts: the end of the previous publisher's frames (seconds).
    private var timelineBase = 0.0
    /// The end of the latest frame given out (seconds), where a next publisher's timeline starts.
    private var timelineEnd = 0.0
    private var media: AsyncStream<WebRTCMediaReceiver.Output>.Iterator?
    private var ready: [EncodedMedia] = []
    private var framing = ReceivedVideoFraming(codec: .h264, format: nil, frameRate: 30)
    private var audioFormat: AudioFormatDescription?
    private var clocks: [String: TrackClock] = [:]
    private var firstArrival: Duration?
    private var isStopped = false

    /// A track's RTP clock, unwrapped from its first frame (RFC 3550 §5.1: each timestamp at its signed 32-bit
    /// distance from the previous one) and placed at that frame's arrival.
    private struct TrackClock {
        var last: UInt32
        var ticks: Int64 = 0
        var offsetTicks: Int64
    }

    /// An ingest on a server the caller runs (its CORS policy applies; other endpoints may share it).
    /// - Parameters:
    ///   - server: the HTTP server.
    ///   - path: the endpoint's path (for example `/live/whip`).
    ///   - token: the bearer token the publisher must present, if any.
    ///   - mediaAddress: where the session's UDP port is bound (default: the server's address, any port).
    ///   - configuration: the session's timings and the receiver's bounds.
    ///   - formatTimeout: how long ``open()`` waits for a key frame and the first audio frame once media flows.
    ///   - lifetime: whether the source ends with its first publisher (default) or takes the next one after each
    ///     leaves (``Lifetime/untilStopped``, a server's ingest path).
    /// - Throws: ``DTLSError/unavailable`` in a build without the `OpenSSL` trait, or why the certificate could not be made.
    public init(server: HTTPServer, path: String, token: String? = nil, mediaAddress: SocketAddress? = nil,
                configuration: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration(),
                formatTimeout: Duration = .seconds(10), lifetime: Lifetime = .onePublisher) throws(DTLSError) {
        try self.init(server: server, ownsServer: false, path: path, token: token, mediaAddress: mediaAddress, configuration: configuration,
                      formatTimeout: formatTimeout, lifetime: lifetime)
    }

    /// An ingest on a server of its own, listening at a URL (`streamkit receive --listen http://HOST:PORT/PATH`).
    /// - Parameters:
    ///   - url: `http://HOST:PORT/PATH` (HOST a numeric address; port 0 for any).
    ///   - token: the bearer token the publisher must present, if any.
    ///   - configuration: the session's timings and the receiver's bounds.
    ///   - formatTimeout: how long ``open()`` waits for the formats once media flows.
    /// - Throws: ``LiveSourceError`` (`unavailable`) for a bad URL, a port that cannot be bound, or a build without OpenSSL.
    public init(listeningAt url: String, token: String? = nil, configuration: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration(),
                formatTimeout: Duration = .seconds(10)) throws(LiveSourceError) {
        let parsed: HTTPURL
        let address: SocketAddress
        do {
            parsed = try HTTPURL(parsing: url)
            let host = parsed.host.hasPrefix("[") ? String(parsed.host.dropFirst().dropLast()) : parsed.host
            address = try SocketAddress(host: host, port: parsed.port)
        } catch {
            throw LiveSourceError(source: url, kind: .unavailable, reason: "\(error)")
        }
        guard !parsed.isSecure else {
            throw LiveSourceError(source: url, kind: .unavailable, reason: "a WHIP ingest listens on http:// (put a TLS-terminating proxy in front for https)")
        }
        let server: HTTPServer
        do {
            let loop = try EventLoop()
            server = try HTTPServer(configuration: HTTPServerConfiguration(address: address), on: loop)
        } catch {
            throw LiveSourceError(source: url, kind: .unavailable, reason: "\(error)")
        }
        let path = String(parsed.target.split(separator: "?", maxSplits: 1).first ?? "/")
        do {
            try self.init(server: server, ownsServer: true, path: path, token: token, mediaAddress: nil, configuration: configuration,
                          formatTimeout: formatTimeout, lifetime: .onePublisher)
        } catch {
            server.stop()
            server.loop.shutdown()
            throw LiveSourceError(source: url, kind: .unavailable, reason: "\(error)")
        }
        server.start()
    }

    private init(server: HTTPServer, ownsServer: Bool, path: String, token: String?, mediaAddress: SocketAddress?,
                 configuration: WebRTCPeerSession.Configuration, formatTimeout: Duration, lifetime: Lifetime) throws(DTLSError) {
        let certificate = try DTLSCertificate()
        var media = mediaAddress ?? server.localAddress
        if mediaAddress == nil { media.port = 0 }
        let (stream, sink) = AsyncStream.makeStream(of: WebRTCPeerSession.self, bufferingPolicy: .bufferingNewest(1))
        sessions = stream
        sessionSink = sink
        let (events, eventSink) = AsyncStream.makeStream(of: WHIPPublisherEvent.self, bufferingPolicy: .bufferingNewest(64))
        publisherEvents = events
        let ledger = PublisherLedger(sink: eventSink)
        let endpoint = WHIPEndpoint(path: path, mediaAddress: media, on: server.loop, certificate: certificate, token: token,
                                    configuration: configuration) { session in
            let number = ledger.arrive()
            Task { await Self.announceDeparture(of: session, number: number, in: ledger) }
            sink.yield(session)
        }
        endpoint.mount(on: server)
        self.endpoint = endpoint
        self.ledger = ledger
        self.server = server
        self.ownsServer = ownsServer
        self.formatTimeout = formatTimeout
        self.lifetime = lifetime
        let address = server.localAddress
        let host = address.family == .ipv6 ? "[\(address.host)]" : address.host
        name = "whip http://\(host):\(address.port)\(endpoint.path)"
    }

    /// The URL publishers POST to.
    public nonisolated var url: String {
        let address = server.localAddress
        let host = address.family == .ipv6 ? "[\(address.host)]" : address.host
        return "http://\(host):\(address.port)\(endpoint.path)"
    }

    /// The publisher's session, once it has posted its offer (with ``Lifetime/untilStopped``, the latest publisher's).
    public nonisolated var session: WebRTCPeerSession? { current.withLock { $0 } }

    /// How many publishers' sessions the source has taken so far (1 after the first POST; more with
    /// ``Lifetime/untilStopped``).
    public nonisolated var publishersTaken: Int { sessionCount.withLock { $0 } }

    /// How many frames (pictures and Opus packets) have arrived from publishers so far, all of them together: a running
    /// count that a watchdog reads to tell silence from a stream that flows (it grows as each frame is rebuilt from
    /// its packets, before the pipeline takes it).
    public nonisolated var framesArrived: Int { arrivals.load(ordering: .relaxed) }

    /// The receiver's counters (packets, NACKs, recoveries, PLIs, frames good, lost and withheld per track).
    public nonisolated var receiverStatistics: WebRTCMediaReceiver.Statistics? { session?.receiverStatistics }

    /// Waits for a publisher, for its media, and reads until the formats of the tracks it sends are known (the first
    /// key frame's SPS and PPS; Opus 48 kHz stereo), or ``formatTimeout`` after the first frame.
    /// - Returns: the formats and the frame rate (from the first pictures' times; 0 when unknown).
    /// - Throws: ``LiveSourceError``: `disconnected` when stopped or the publisher left before any frame, `unsupported`
    ///   when no format could be learnt.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        waitingSessions = sessions.makeAsyncIterator()
        guard !isStopped, let session = await nextSession(), !isStopped else {
            throw LiveSourceError(source: name, kind: .disconnected, reason: "stopped before a publisher came")
        }
        take(session)
        let kinds = Set(session.receiverStatistics?.tracks.keys.map { $0 } ?? [])
        var deadline: ContinuousClock.Instant?
        var videoTimes: [Int64] = []
        var index = 0
        while index < Self.readAheadLimit, (kinds.contains("video") && framing.format == nil) || (kinds.contains("audio") && audioFormat == nil) {
            if let deadline, ContinuousClock.now > deadline { break }
            while ready.count <= index, await fill() {
                if deadline == nil, !ready.isEmpty { deadline = .now + formatTimeout }
                if let deadline, ContinuousClock.now > deadline { break }
            }
            guard ready.count > index else { break }
            if case let .video(frame) = ready[index], videoTimes.count < 2 { videoTimes.append(frame.pts.converted(to: 90_000).value) }
            index += 1
        }
        guard framing.format != nil || audioFormat != nil else {
            if media == nil { throw LiveSourceError(source: name, kind: .disconnected, reason: "the publisher left before any frame") }
            throw LiveSourceError(source: name, kind: .unsupported, reason: "no H.264 key frame with its parameter sets and no Opus arrived")
        }
        var frameRate = 0.0
        if videoTimes.count == 2, videoTimes[1] > videoTimes[0] { frameRate = 90_000 / Double(videoTimes[1] - videoTimes[0]) }
        // Frames before the format was known (audio ahead of the first picture) carry it now.
        return LiveStreamDescription(video: framing.format, audio: audioFormat, frameRate: frameRate)
    }

    /// The next picture or Opus packet, as it arrived.
    /// - Returns: the frame, or `nil` once the publisher left or the source was stopped.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        while !isStopped, ready.isEmpty, await fill() {}
        guard !isStopped, !ready.isEmpty else { return nil }
        return ready.removeFirst()
    }

    /// Ends the source: the publisher's session closes, and the server too if the source made it.
    public func stop() {
        isStopped = true
        ready = []
        sessionSink.finish()
        endpoint.closeAll()
        ledger.stop()
        endpoint.unmount(from: server)
        if ownsServer {
            // The publisher's DELETE may be what ended the stream: its 200 goes out before the server closes.
            let server = self.server
            Task {
                await server.stop(draining: .seconds(1))
                server.loop.shutdown()
            }
        }
    }

    /// Waits for a publisher's session to end and says so (the session's events have no other reader: the endpoint's
    /// sessions are the source's alone).
    private static func announceDeparture(of session: WebRTCPeerSession, number: Int, in ledger: PublisherLedger) async {
        var reason = WebRTCPeerSessionCloseReason.closedByOwner
        for await event in session.events {
            if case let .closed(why) = event { reason = why }
        }
        ledger.leave(number, reason: reason)
    }

    /// The next publisher's session, or `nil` once the source is stopped.
    private func nextSession() async -> WebRTCPeerSession? {
        guard var iterator = waitingSessions else { return nil }
        let session = await iterator.next(isolation: self)
        waitingSessions = iterator
        return session
    }

    /// Reads a publisher's session from now on: its frames continue the timeline where the last frame given out
    /// ended, from its first key frame (its parameter sets may differ from the previous publisher's).
    private func take(_ session: WebRTCPeerSession) {
        current.withLock { $0 = session }
        sessionCount.withLock { $0 += 1 }
        media = session.receivedMedia.makeAsyncIterator()
        framing = ReceivedVideoFraming(codec: .h264, format: nil, frameRate: 30)
        clocks = [:]
        firstArrival = nil
        timelineBase = timelineEnd
    }

    /// Takes the next output of the session; `false` once it has ended (with ``Lifetime/untilStopped``, once the
    /// source is stopped: a publisher that leaves is followed by the next one).
    private func fill() async -> Bool {
        guard var iterator = media else { return false }
        let output = await iterator.next(isolation: self)
        media = iterator
        guard let output else {
            media = nil
            guard lifetime == .untilStopped, !isStopped, let session = await nextSession(), !isStopped else { return false }
            take(session)
            return true
        }
        switch output {
        case let .video(unit, arrival):
            let pts = time(of: unit.timestamp, kind: "video", rate: 90_000, arrival: arrival)
            let frame = framing.frame(of: unit, pts: pts)
            if frame != nil { arrivals.add(1, ordering: .relaxed) }
            if let frame, ready.count < Self.readAheadLimit {
                ready.append(.video(frame))
                timelineEnd = max(timelineEnd, (pts + frame.duration).seconds)
            }
        case let .audio(frame, arrival):
            guard let packet = try? OpusPacket(frame.data.prefix(2)) else { return true }
            let format = audioFormat ?? AudioFormatDescription(codec: .opus, sampleRate: 48000, channelCount: 2, profile: "Opus",
                                                               audioSpecificConfig: OpusIdentificationHeader(channelCount: 2, preSkip: 0).opusHeadBytes(),
                                                               samplesPerFrame: 960)
            audioFormat = format
            let pts = time(of: frame.timestamp, kind: "audio", rate: 48000, arrival: arrival)
            let encoded = EncodedAudioFrame(data: Array(frame.data), pts: pts,
                                            duration: MediaTime(value: Int64(packet.sampleCount), timescale: 48000), format: format)
            arrivals.add(1, ordering: .relaxed)
            if ready.count < Self.readAheadLimit {
                ready.append(.audio(encoded))
                timelineEnd = max(timelineEnd, (pts + encoded.duration).seconds)
            }
        case .lost:
            break
        }
        return true
    }

    /// A frame's time: its track's unwrapped RTP time since the track's first frame, plus that frame's arrival after
    /// the first frame of any track, after the previous publishers' frames.
    private func time(of timestamp: UInt32, kind: String, rate: Int64, arrival: Duration) -> MediaTime {
        let first = firstArrival ?? arrival
        firstArrival = first
        let offset = arrival - first
        let seconds = Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18
        var clock = clocks[kind] ?? TrackClock(last: timestamp, offsetTicks: Int64(((timelineBase + seconds) * Double(rate)).rounded(.up)))
        clock.ticks += Int64(Int32(bitPattern: timestamp &- clock.last))
        clock.last = timestamp
        clocks[kind] = clock
        return MediaTime(value: max(0, clock.ticks + clock.offsetTicks), timescale: Int32(rate))
    }
}

/// The publishers' arrivals and departures, said in ``WHIPSource/publisherEvents``: each publisher is numbered as its
/// session is made; the stream ends once the source is stopped and every publisher's leaving has been said (the
/// sessions ``WHIPSource/stop()`` closes included), so no departure is lost to the end of the stream.
private final class PublisherLedger: Sendable {
    private struct State {
        var arrived = 0
        var present = 0
        var isStopped = false
    }

    private let state = Mutex(State())
    private let sink: AsyncStream<WHIPPublisherEvent>.Continuation

    /// A ledger that says its events to `sink`.
    init(sink: AsyncStream<WHIPPublisherEvent>.Continuation) {
        self.sink = sink
    }

    /// A publisher's session was made: its number, from 1 (said as ``WHIPPublisherEvent/arrived(_:)``).
    func arrive() -> Int {
        let number = state.withLock { state -> Int in
            state.arrived += 1
            state.present += 1
            return state.arrived
        }
        sink.yield(.arrived(number))
        return number
    }

    /// A publisher's session ended (said as ``WHIPPublisherEvent/left(_:_:)``).
    func leave(_ number: Int, reason: WebRTCPeerSessionCloseReason) {
        sink.yield(.left(number, reason))
        let finished = state.withLock { state -> Bool in
            state.present -= 1
            return state.isStopped && state.present == 0
        }
        if finished { sink.finish() }
    }

    /// The source stopped: the stream ends once the publishers still there have left.
    func stop() {
        let finished = state.withLock { state -> Bool in
            state.isStopped = true
            return state.present == 0
        }
        if finished { sink.finish() }
    }
}
