import MediaCore
import POSIX
import RTP
import Synchronization
import Transport

/// WHEP playback (draft-ietf-wish-whep) as a destination of a ``LivePipeline``: browsers and other WebRTC players
/// POST their offer to `http://HOST:PORT/PATH/whep` on an ``HTTPServer`` the caller runs (the one that serves HLS,
/// for example) and each gets the live stream — H.264 (packetization-mode 1) and Opus, SRTP-protected — from a
/// ``WebRTCPeerSession`` of its own.
///
/// Each frame is packetized once (``RTPMediaStream``: parameter sets in-band before each IDR) and the packets go to
/// every connected viewer, each rewriting the payload type to what its offer named. A viewer that joins, or sends a
/// PLI or FIR, makes the destination ask the pipeline for a key frame (``SendQueueEvent/keyFrameNeeded`` in
/// ``events``, at most one per ``keyFrameRequestInterval``); until one arrives, its session withholds video. A viewer
/// that stops answering (ICE consent), misbehaves or is deleted loses its own session only: the encoder never waits.
///
/// ```swift
/// let server = try HTTPServer(configuration: HTTPServerConfiguration(address: address), on: loop)
/// let whep = try WHEPDestination(server: server, path: "live")
/// server.start()
/// let pipeline = LivePipeline(input: input, destinations: [whep])
/// ```
public final class WHEPDestination: LiveDestination {
    private struct State {
        var video: RTPMediaStream?
        var audio: RTPMediaStream?
        var lastKeyFrameRequest: ContinuousClock.Instant?
        var isFinished = false
        var omittedAudio: CodecType?
    }

    /// The endpoint on the server.
    public let endpoint: WHEPEndpoint
    /// The server the endpoint is mounted on.
    public let server: HTTPServer
    /// The shortest time between two key-frame requests to the pipeline.
    public let keyFrameRequestInterval: Duration
    /// `whep http://HOST:PORT/PATH/whep`.
    public var name: String {
        let address = server.localAddress
        let host = address.family == .ipv6 ? "[\(address.host)]" : address.host
        return "whep http://\(host):\(address.port)\(endpoint.path)"
    }
    /// Each viewer has its own session; the destination never slows the encoder.
    public var isLive: Bool { false }
    /// Key-frame requests: when a viewer connects, and on its PLI or FIR.
    public let events: AsyncStream<SendQueueEvent>?

    private let eventSink: AsyncStream<SendQueueEvent>.Continuation
    private let state = Mutex(State())
    private let videoSSRC: UInt32
    private let audioSSRC: UInt32
    private let maximumPacketSize: Int

    /// Mounts a WHEP endpoint at `/PATH/whep` on a server.
    /// - Parameters:
    ///   - server: the HTTP server (its CORS policy and bearer check apply).
    ///   - path: the stream's path (default `live`: the endpoint is `/live/whep`).
    ///   - mediaAddress: where each viewer's UDP port is bound (default: the server's address, any port).
    ///   - requiresAuthorization: whether POST and DELETE need the server's bearer token.
    ///   - maximumViewers: the most viewers at once.
    ///   - configuration: the sessions' timings.
    ///   - keyFrameRequestInterval: the shortest time between key-frame requests (default 500 ms).
    /// - Throws: ``DTLSError/unavailable`` in a build without the `OpenSSL` trait, or why the certificate could not be made.
    public init(server: HTTPServer, path: String = "live", mediaAddress: SocketAddress? = nil, requiresAuthorization: Bool = false,
                maximumViewers: Int = 64, configuration: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration(),
                keyFrameRequestInterval: Duration = .milliseconds(500)) throws(DTLSError) {
        let certificate = try DTLSCertificate()
        self.server = server
        self.keyFrameRequestInterval = keyFrameRequestInterval
        maximumPacketSize = configuration.maximumPacketSize
        var media = mediaAddress ?? server.localAddress
        if mediaAddress == nil { media.port = 0 }
        let ssrcs = (video: UInt32.random(in: 1...UInt32.max), audio: UInt32.random(in: 1...UInt32.max),
                     rtx: UInt32.random(in: 1...UInt32.max))
        videoSSRC = ssrcs.video
        audioSSRC = ssrcs.audio
        let (stream, sink) = AsyncStream.makeStream(of: SendQueueEvent.self, bufferingPolicy: .bufferingNewest(64))
        events = stream
        eventSink = sink
        let trimmed = path.split(separator: "/").joined(separator: "/")
        let watcher = SessionWatcher()
        endpoint = WHEPEndpoint(path: "/" + (trimmed.isEmpty ? "" : trimmed + "/") + "whep", mediaAddress: media, on: server.loop,
                                certificate: certificate, sendingSSRCs: [.video: ssrcs.video, .audio: ssrcs.audio],
                                retransmissionSSRCs: [.video: ssrcs.rtx], maximumSessions: maximumViewers,
                                requiresAuthorization: requiresAuthorization, configuration: configuration) { session in
            watcher.destination?.watch(session)
        }
        watcher.destination = self
        endpoint.mount(on: server)
    }

    /// The viewers' sessions open now.
    public var viewers: [WebRTCPeerSession] { endpoint.sessions }

    /// The audio codec the stream has and WebRTC does not carry (AAC), which the viewers do not get: as MediaMTX
    /// does, they get the video alone. `nil` when the audio is Opus, or there is none.
    public var omittedAudioCodec: CodecType? { state.withLock { $0.omittedAudio } }

    /// Makes the packetizers: H.264 at payload type 96 (each session rewrites it), Opus at 111. Audio other than
    /// Opus is left out (``omittedAudioCodec``): viewers then get the video alone.
    /// - Parameter stream: the formats.
    /// - Throws: ``LiveDestinationError/refused(destination:reason:)`` for video other than H.264 (WebRTC carries no
    ///   HEVC here); ``RTPPacketizerError`` for a packet size too small.
    public func open(_ stream: LiveStreamDescription) async throws {
        if let video = stream.video, video.codec != .h264 {
            throw LiveDestinationError.refused(destination: name, reason: "WebRTC playback carries H.264 video, not \(video.codec)")
        }
        let audioFormat = stream.audio?.codec == .opus ? stream.audio : nil
        let milliseconds = RealTimeClock.millisecondsSinceEpoch()
        let reference = NTPTimestamp(unixSeconds: UInt64(max(0, milliseconds / 1000)), nanoseconds: UInt32(milliseconds % 1000) * 1_000_000)
        let size = maximumPacketSize
        let videoSSRC = videoSSRC, audioSSRC = audioSSRC
        let video = try stream.video.map { (format) throws(RTPPacketizerError) in
            try RTPMediaStream(video: format, maximumPacketSize: size, state: RTPSenderState(payloadType: 96, ssrc: videoSSRC),
                               referenceTime: reference)
        }
        let audio = try audioFormat.map { (format) throws(RTPPacketizerError) in
            try RTPMediaStream(audio: format, maximumPacketSize: size, state: RTPSenderState(payloadType: 111, ssrc: audioSSRC),
                               referenceTime: reference)
        }
        state.withLock { state in
            state.video = video
            state.audio = audio
            state.omittedAudio = audioFormat == nil ? stream.audio?.codec : nil
        }
        endpoint.sentH264 = stream.video.flatMap(SDPH264Parameters.ProfileLevelID.init(sequenceParameterSetOf:))
    }

    /// Packetizes a frame once and hands its packets to every connected viewer.
    /// - Parameter media: the frame.
    /// - Throws: an ``RTPPacketizerError`` for a frame that cannot be packetized.
    public func send(_ media: OutgoingMedia) async throws {
        var packets: [[UInt8]] = []
        let kind: WebRTCMediaKind
        let isKeyFrame: Bool
        switch media {
        case let .video(frame, _):
            kind = .video
            isKeyFrame = frame.isKeyFrame
            // The stream's parameters may change at a key frame (the next publisher of `serve whip`): viewers who
            // come from now on are answered with the payload type of the new profile.
            if frame.isKeyFrame, let id = SDPH264Parameters.ProfileLevelID(sequenceParameterSetOf: frame.format), id != endpoint.sentH264 { endpoint.sentH264 = id }
            try state.withLock { state throws(RTPPacketizerError) in
                guard var stream = state.video.take() else { return }
                defer { state.video = stream }
                try stream.send(frame) { packet in packets.append(Array(packet)) }
            }
        case let .audio(frame, _):
            kind = .audio
            isKeyFrame = true
            try state.withLock { state throws(RTPPacketizerError) in
                guard var stream = state.audio.take() else { return }
                defer { state.audio = stream }
                try stream.send(frame) { packet in packets.append(Array(packet)) }
            }
        }
        guard !packets.isEmpty else { return }
        for session in endpoint.sessions where session.isConnected {
            session.send(packets, kind: kind, isKeyFrame: isKeyFrame)
        }
    }

    /// Closes every viewer's session and unmounts the endpoint (the server keeps running: it is the caller's).
    public func finish() async throws {
        state.withLock { $0.isFinished = true }
        endpoint.unmount(from: server)
        endpoint.closeAll()
        eventSink.finish()
    }

    /// Follows one session's events: a connection or a key-frame request asks the pipeline for a key frame.
    private func watch(_ session: WebRTCPeerSession) {
        Task { [weak self] in
            for await event in session.events {
                switch event {
                case .connected, .keyFrameRequested(.video, _):
                    self?.requestKeyFrame()
                default:
                    continue
                }
            }
        }
    }

    private func requestKeyFrame() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            if let last = state.lastKeyFrameRequest, now - last < keyFrameRequestInterval { return false }
            state.lastKeyFrameRequest = now
            return true
        }
        if due { eventSink.yield(.keyFrameNeeded) }
    }
}

/// The destination the endpoint's session handler reaches, set once after it is made.
private final class SessionWatcher: @unchecked Sendable {
    weak var destination: WHEPDestination?
}
