import Containers
import MediaCore
import Synchronization
import Transport

/// The live stream as HLS served from memory over HTTP (RFC 8216): a destination of a ``LivePipeline`` that cuts the
/// frames into segments (``HLSSegmentStream``: fragmented MP4 by default, or MPEG-TS), keeps a sliding window of them
/// (``HLSLiveWindow``) and serves, under `/PATH/` of an ``HTTPServer`` it shares with other endpoints:
///
/// - `index.m3u8`, the live media playlist (`application/vnd.apple.mpegurl`, `Cache-Control: no-cache`: it changes
///   with every segment, §6.2.1) — 503 with `Retry-After` until the first segment is complete;
/// - `init.mp4`, the `EXT-X-MAP` initialization section (fMP4 only), and `segment_N.m4s` / `segment_N.ts`, the media
///   segments by media sequence number (`video/mp4`, `video/mp2t`; they never change, so they may be cached);
///   a segment that left the window (and §6.2.2's grace after it) is a 404.
///
/// Cross-origin reads and the preflight are the server's (``LiveHTTPService/corsPolicy``). Nothing here waits for a
/// client: the routes copy the bytes out of the window under a lock, and the server writes each response on the
/// client's own connection, so a slow reader never holds the pipeline or the other players. Memory is the window
/// (``Options/windowSize`` listed segments, as many kept for §6.2.2 at most) and one segment in progress.
///
/// Segments start at key frames once ``Options/targetSegmentDuration`` has passed; when a segment reaches that length
/// with no key frame in sight, the destination asks the encoder for one (``SendQueueEvent/keyFrameNeeded``), so the
/// segments keep their length even with a long GOP.
///
/// ```swift
/// let service = try LiveHTTPService(address: SocketAddress(host: "0.0.0.0", port: 8080))
/// let hls = try HLSHTTPDestination(server: service.server, path: "live")
/// pipeline.add(hls)       // players read http://HOST:8080/live/index.m3u8
/// ```
public final class HLSHTTPDestination: LiveDestination {
    /// How the segments are cut and how many are kept.
    public struct Options: Sendable, Hashable {
        /// Fragmented MP4 (default) or MPEG-TS segments.
        public var segmentFormat: HLSSegmentFormat
        /// The shortest segment, in seconds: a segment ends at the first key frame at least this long after its start.
        public var targetSegmentDuration: Double
        /// The segments the playlist lists.
        public var windowSize: Int
        /// The most bytes one segment in progress may hold (one without a key frame to end it is thrown away).
        public var maximumSegmentByteCount: Int

        /// Creates options.
        /// - Parameters:
        ///   - segmentFormat: fragmented MP4 (default) or MPEG-TS.
        ///   - targetSegmentDuration: the shortest segment in seconds (2).
        ///   - windowSize: the segments listed (6).
        ///   - maximumSegmentByteCount: the cap on a segment in progress (32 MiB).
        public init(segmentFormat: HLSSegmentFormat = .fragmentedMP4, targetSegmentDuration: Double = 2, windowSize: Int = 6,
                    maximumSegmentByteCount: Int = 32 << 20) {
            self.segmentFormat = segmentFormat
            self.targetSegmentDuration = targetSegmentDuration
            self.windowSize = windowSize
            self.maximumSegmentByteCount = maximumSegmentByteCount
        }
    }

    /// The segmenter and the frames' tracks while the stream runs.
    private struct State {
        var stream: HLSSegmentStream?
        var videoTrack: Int?
        var audioTrack: Int?
        /// TS segments hold both tracks in one stream: they go in merged by decode time.
        var interleaver: DecodeOrderInterleaver?
        /// Whether a key frame was asked for in the segment in progress.
        var askedForKeyFrame = false
        var isFinished = false
    }

    /// The server the routes are on.
    public let server: HTTPServer
    /// The stream's path, without slashes at either end (`live`).
    public let path: String
    /// The options.
    public let options: Options
    /// Key-frame requests when a segment reaches its target length without one.
    public let events: AsyncStream<SendQueueEvent>?
    /// `http://HOST:PORT/PATH/index.m3u8` with the address the server listens on.
    public var url: String {
        let address = server.localAddress
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        return "http://\(host):\(address.port)/\(path)/\(HLSLiveResource.playlistName)"
    }
    /// The playlist's URL.
    public var name: String { url }
    /// Players pull at their own pace from memory: the stream's rate never follows them.
    public var isLive: Bool { false }

    private let eventContinuation: AsyncStream<SendQueueEvent>.Continuation
    private let state = Mutex(State())
    private let window: Mutex<HLSLiveWindow>
    private let targetDuration: MediaTime

    /// Mounts the routes under `/PATH/` on the server; the playlist answers 503 until the first segment is complete.
    /// - Parameters:
    ///   - server: the server (shared with other endpoints; see ``LiveHTTPService``).
    ///   - path: the stream's path (`live`, or `cams/one`): segments of letters, digits, `-`, `_`, `.`.
    ///   - options: the segment format, target duration and window.
    /// - Throws: ``LiveDestinationError/invalidAddress(part:destination:reason:)`` for an empty or unusable path, a
    ///   target duration that is not positive, a window below 1.
    public init(server: HTTPServer, path: String = "live", options: Options = Options()) throws(LiveDestinationError) {
        let trimmed = String(path.drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./")
        guard !trimmed.isEmpty, trimmed.allSatisfy(allowed.contains),
              !trimmed.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw .invalidAddress(part: path, destination: "http://\(server.localAddress)/\(path)",
                                  reason: "is not a path of letters, digits, -, _ and . segments")
        }
        let milliseconds = options.targetSegmentDuration.isFinite ? Int64((options.targetSegmentDuration * 1000).rounded()) : 0
        guard milliseconds > 0, milliseconds <= 3_600_000 else {
            throw .invalidAddress(part: "\(options.targetSegmentDuration)", destination: trimmed, reason: "is not a segment duration (0 to 3600 s)")
        }
        guard options.windowSize >= 1, options.windowSize <= 10_000 else {
            throw .invalidAddress(part: "\(options.windowSize)", destination: trimmed, reason: "is not a window of 1 to 10000 segments")
        }
        self.server = server
        self.path = trimmed
        self.options = options
        targetDuration = MediaTime(value: milliseconds, timescale: 1000)
        window = Mutex(HLSLiveWindow(windowSize: options.windowSize, segmentFormat: options.segmentFormat,
                                     targetDuration: Int((milliseconds + 999) / 1000)))
        let (stream, continuation) = AsyncStream.makeStream(of: SendQueueEvent.self, bufferingPolicy: .bufferingNewest(16))
        events = stream
        eventContinuation = continuation
        server.addRoute(HTTPRoute(.get, "/" + trimmed) { [weak self] request in
            guard let self else { return HTTPResponse(status: .notFound) }
            return self.respond(to: request.remainingPath)
        })
    }

    /// Removes the routes from the server (other endpoints stay).
    public func unmount() {
        server.removeRoutes(.get, "/" + path)
    }

    /// The answer to `GET /PATH/NAME`.
    /// - Parameter name: what follows the stream's path.
    /// - Returns: the resource with its type and cache rule, 503 for the playlist before the first segment, 404 for
    ///   anything not held.
    func respond(to name: String) -> HTTPResponse {
        let format = options.segmentFormat
        guard let resource = HLSLiveResource(name: name, segmentFormat: format) else { return HTTPResponse(status: .notFound) }
        let (body, isReady) = window.withLock { ($0.body(of: resource), $0.isReady) }
        guard let body else {
            if resource == .playlist, !isReady {
                return HTTPResponse(status: .serviceUnavailable, headers: ["Retry-After": "1", "Cache-Control": "no-cache"])
            }
            return HTTPResponse(status: .notFound, headers: ["Cache-Control": "no-cache"])
        }
        var response: HTTPResponse
        switch resource {
        case .playlist:
            response = .bytes(body, contentType: "application/vnd.apple.mpegurl")
            response.headers.set("Cache-Control", "no-cache")
        case .initializationSegment:
            response = .bytes(body, contentType: "video/mp4")
            response.headers.set("Cache-Control", "max-age=\(cacheSeconds)")
        case .segment:
            response = .bytes(body, contentType: format == .mpegTS ? "video/mp2t" : "video/mp4")
            response.headers.set("Cache-Control", "max-age=\(cacheSeconds)")
        }
        return response
    }

    /// How long a segment may be cached: its names repeat only when the stream restarts, so about twice as long as
    /// the window lasts.
    private var cacheSeconds: Int { max(10, 2 * options.windowSize * Int(options.targetSegmentDuration.rounded(.up))) }

    /// The window as it stands (what a player would be told).
    public var snapshot: HLSLiveWindow { window.withLock { $0 } }

    /// Prepares the segmenter for the stream's tracks (video first, then audio).
    /// - Parameter stream: the formats.
    /// - Throws: ``HLSError`` for a format without usable parameter sets or that the muxer refuses.
    public func open(_ stream: LiveStreamDescription) async throws {
        var tracks: [MP4TrackDescription] = []
        if let video = stream.video { tracks.append(.video(video)) }
        if let audio = stream.audio { tracks.append(.audio(audio)) }
        let configuration = HLSSegmentStream.Configuration(targetSegmentDuration: targetDuration, segmentFormat: options.segmentFormat,
                                                           maximumSegmentByteCount: options.maximumSegmentByteCount)
        try state.withLock { state throws(HLSError) in
            var opened = State()
            opened.stream = try HLSSegmentStream(tracks: tracks, configuration: configuration)
            opened.videoTrack = stream.video == nil ? nil : 0
            opened.audioTrack = stream.audio == nil ? nil : (stream.video == nil ? 0 : 1)
            if options.segmentFormat == .mpegTS {
                opened.interleaver = DecodeOrderInterleaver(hasVideo: stream.video != nil, hasAudio: stream.audio != nil)
            }
            state = opened
        }
    }

    /// Adds a frame to the segment in progress; a key frame past the target duration completes it and lists it.
    /// - Parameter media: a picture (decode order) or an audio frame.
    /// - Throws: ``LiveDestinationError/notOpen(destination:)`` before ``open(_:)``; ``HLSError`` when the muxer
    ///   refuses the frame.
    public func send(_ media: OutgoingMedia) async throws {
        let (segments, initialization, asksForKeyFrame) = try state.withLock { state throws -> ([HLSSegmentStream.Segment], [UInt8]?, Bool) in
            guard state.stream != nil, !state.isFinished else { throw LiveDestinationError.notOpen(destination: url) }
            var ready = [media]
            if var interleaver = state.interleaver {
                ready = interleaver.push(media)
                state.interleaver = interleaver
            }
            var segments: [HLSSegmentStream.Segment] = []
            var asks = false
            for media in ready {
                if let segment = try Self.write(media, in: &state) {
                    segments.append(segment)
                    state.askedForKeyFrame = false
                }
                if case let .video(frame, _) = media, !frame.isKeyFrame, !state.askedForKeyFrame,
                   let start = state.stream?.segmentStart, !(frame.dts - start < targetDuration) {
                    state.askedForKeyFrame = true
                    asks = true
                }
            }
            return (segments, state.stream?.initializationSegment, asks)
        }
        if asksForKeyFrame { eventContinuation.yield(.keyFrameNeeded) }
        publish(segments, initialization: initialization)
    }

    /// Completes the last segment and ends the playlist (`EXT-X-ENDLIST`); the routes keep serving the window until
    /// ``unmount()`` or the server stops.
    /// - Throws: ``HLSError`` from the muxer.
    public func finish() async throws {
        defer { eventContinuation.finish() }
        let (segments, initialization) = try state.withLock { state throws -> ([HLSSegmentStream.Segment], [UInt8]?) in
            guard !state.isFinished, state.stream != nil else { return ([], nil) }
            state.isFinished = true
            var segments: [HLSSegmentStream.Segment] = []
            for media in state.interleaver?.drain() ?? [] {
                if let segment = try Self.write(media, in: &state) { segments.append(segment) }
            }
            if let last = try state.stream?.finish() { segments.append(last) }
            return (segments, state.stream?.initializationSegment)
        }
        publish(segments, initialization: initialization)
        window.withLock { $0.end() }
    }

    /// Lists finished segments in the window.
    private func publish(_ segments: [HLSSegmentStream.Segment], initialization: [UInt8]?) {
        guard !segments.isEmpty else { return }
        window.withLock { window in
            if window.initializationSegment == nil { window.initializationSegment = initialization }
            for segment in segments { window.add(segment) }
        }
    }

    /// Hands one frame to the segmenter.
    private static func write(_ media: OutgoingMedia, in state: inout State) throws(HLSError) -> HLSSegmentStream.Segment? {
        guard var stream = state.stream else { return nil }
        state.stream = nil
        defer { state.stream = stream }
        switch media {
        case let .video(frame, _):
            guard let track = state.videoTrack else { return nil }
            return try stream.append(frame, toTrack: track)
        case let .audio(frame, _):
            guard let track = state.audioTrack else { return nil }
            return try stream.append(frame, toTrack: track)
        }
    }
}
