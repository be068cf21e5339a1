import MediaCore
import POSIX
import RTP
import Synchronization
import Transport

/// Publishing to a WHIP endpoint (RFC 9725) as a destination of a ``LivePipeline``: when the stream opens, a
/// ``WHIPClient`` POSTs our offer, and the ``WebRTCClientSession`` it starts (full ICE, DTLS, SRTP) carries H.264
/// (packetization-mode 1, parameter sets in-band before each IDR) and Opus. A PLI or FIR from the endpoint, and the
/// connection itself, ask the pipeline for a key frame (``SendQueueEvent/keyFrameNeeded``, at most one per
/// ``keyFrameRequestInterval``); NACKs are answered from the session's send history. ``finish()`` deletes the
/// resource.
///
/// WebRTC carries neither HEVC nor AAC: a stream with either is refused with a sentence that says so (encode the
/// audio as Opus — `LiveConfiguration`'s `.opus` with the FFmpeg engine — or publish video alone). The H.264 profile
/// offered follows the stream's SPS (``offeredProfiles(for:)``): Constrained Baseline as 42e01f (Constrained High
/// 640c1f offered too), Main as 4d001f (High too), High as 64001f — at the stream's level when above 3.1.
///
/// ```swift
/// let whip = WHIPDestination(url: "https://whip.example/ingest")
/// pipeline.add(whip)
/// ```
public final class WHIPDestination: LiveDestination {
    private struct State {
        var client: WHIPClient?
        var video: RTPMediaStream?
        var audio: RTPMediaStream?
        var lastKeyFrameRequest: ContinuousClock.Instant?
        var isFinished = false
        var watcher: Task<Void, Never>?
    }

    /// The endpoint.
    public let url: String
    /// The client's options (token, media address, timings); the codecs offered come from the stream.
    public let options: WHIPClient.Options
    /// The shortest time between two key-frame requests to the pipeline.
    public let keyFrameRequestInterval: Duration
    /// `whip URL`.
    public var name: String { "whip \(url)" }
    /// A live link: a slow one drops frames rather than stalling the encoder.
    public var isLive: Bool { true }
    /// Key-frame requests: when the session connects, and on the endpoint's PLI or FIR.
    public let events: AsyncStream<SendQueueEvent>?

    private let eventSink: AsyncStream<SendQueueEvent>.Continuation
    private let state = Mutex(State())
    private let loop: EventLoop?
    private let ownsLoop: Bool
    private let createdLoop = Mutex<EventLoop?>(nil)

    /// A destination; nothing connects before ``open(_:)``.
    /// - Parameters:
    ///   - url: the WHIP endpoint, `http://HOST[:PORT]/PATH` or `https://…` (TLS, trusting ``WHIPClient/Options/tlsTrust``).
    ///   - options: token, media address and session timings.
    ///   - loop: the event loop to run on (`nil`: one of its own, made at open and shut down at finish).
    ///   - keyFrameRequestInterval: the shortest time between key-frame requests (default 500 ms).
    public init(url: String, options: WHIPClient.Options = WHIPClient.Options(), on loop: EventLoop? = nil,
                keyFrameRequestInterval: Duration = .milliseconds(500)) {
        self.url = url
        self.options = options
        self.loop = loop
        ownsLoop = loop == nil
        self.keyFrameRequestInterval = keyFrameRequestInterval
        let (stream, sink) = AsyncStream.makeStream(of: SendQueueEvent.self, bufferingPolicy: .bufferingNewest(64))
        events = stream
        eventSink = sink
    }

    /// The client, once the stream is open.
    public var client: WHIPClient? { state.withLock { $0.client } }

    /// The H.264 `profile-level-id`s to offer for a stream, preferred first (RFC 6184 §8.2.2: the answer picks one
    /// whose profile the stream is): from its SPS — Constrained Baseline as 42e01f with Constrained High 640c1f
    /// beside it (both decode it), Main as 4d001f with High, High as High (`6400`, not the Constrained High 640c that
    /// forbids B slices, unless the SPS says Constrained High) — at the SPS's level, level 3.1 at least. `nil` for a
    /// profile WebRTC does not negotiate.
    static func offeredProfiles(for format: FormatDescription) -> [SDPH264Parameters.ProfileLevelID]? {
        let sps = SDPH264Parameters.ProfileLevelID(sequenceParameterSetOf: format)
        let level = max(sps?.levelIDC ?? 0x1F, 0x1F)
        let high = SDPH264Parameters.ProfileLevelID(profileIDC: 0x64, constraints: 0x00, levelIDC: level)
        let profile: SDPH264Parameters.ProfileLevelID.Profile
        if let sps {
            profile = sps.profile
        } else {
            switch format.profileLevel.profile {
            case .baseline, .constrainedBaseline: profile = .constrainedBaseline
            case .main: profile = .main
            case .high: profile = .high
            default: return nil
            }
        }
        switch profile {
        case .constrainedBaseline, .baseline:
            return [SDPH264Parameters.ProfileLevelID(profileIDC: 0x42, constraints: 0xE0, levelIDC: level),
                    SDPH264Parameters.ProfileLevelID(profileIDC: 0x64, constraints: 0x0C, levelIDC: level)]
        case .main: return [SDPH264Parameters.ProfileLevelID(profileIDC: 0x4D, constraints: 0x00, levelIDC: level), high]
        case .constrainedHigh: return [SDPH264Parameters.ProfileLevelID(profileIDC: 0x64, constraints: 0x0C, levelIDC: level), high]
        case .high, .progressiveHigh: return [high]
        default: return nil
        }
    }

    /// Publishes: offer, answer, ICE and DTLS; returns once the session is connected.
    /// - Parameter stream: the formats.
    /// - Throws: ``LiveDestinationError/refused(destination:reason:)`` for video other than H.264 (or an H.264 profile
    ///   WebRTC does not negotiate) or audio other than Opus; ``WHIPClientError`` when the endpoint refuses or the
    ///   session does not connect.
    public func open(_ stream: LiveStreamDescription) async throws {
        var options = options
        if let video = stream.video {
            guard video.codec == .h264 else {
                throw LiveDestinationError.refused(destination: name, reason: "WebRTC publishing carries H.264 video, not \(video.codec)")
            }
            guard let profiles = Self.offeredProfiles(for: video) else {
                throw LiveDestinationError.refused(destination: name, reason: "WebRTC negotiates H.264 Constrained Baseline, Main or High, not \(video.profileLevel)")
            }
            options.h264Profiles = profiles
        } else {
            options.h264Profiles = []
        }
        if let audio = stream.audio, audio.codec != .opus {
            throw LiveDestinationError.refused(destination: name,
                                               reason: "WebRTC publishing carries Opus audio, not \(audio.codec): encode the audio as Opus or publish video alone")
        }
        options.offersAudio = stream.audio != nil
        let loop: EventLoop
        if let given = self.loop {
            loop = given
        } else {
            loop = try EventLoop()
            createdLoop.withLock { $0 = loop }
        }
        let client = try await WHIPClient.publish(to: url, on: loop, options: options)
        do {
            try await client.session.waitUntilConnected()
        } catch {
            await client.stop()
            throw error
        }
        if stream.video != nil, client.session.track(.video) == nil {
            await client.stop()
            throw LiveDestinationError.refused(destination: name, reason: "the endpoint's answer accepts no H.264 video")
        }
        let milliseconds = RealTimeClock.millisecondsSinceEpoch()
        let reference = NTPTimestamp(unixSeconds: UInt64(max(0, milliseconds / 1000)), nanoseconds: UInt32(milliseconds % 1000) * 1_000_000)
        let size = options.session.maximumPacketSize
        let videoSSRC = client.offer.videoSSRC, audioSSRC = client.offer.audioSSRC
        let video = try stream.video.map { (format) throws(RTPPacketizerError) in
            try RTPMediaStream(video: format, maximumPacketSize: size, state: RTPSenderState(payloadType: 96, ssrc: videoSSRC),
                               referenceTime: reference)
        }
        let audio = try stream.audio.map { (format) throws(RTPPacketizerError) in
            try RTPMediaStream(audio: format, maximumPacketSize: size,
                               state: RTPSenderState(payloadType: WebRTCPublishOffer.opusPayloadType, ssrc: audioSSRC), referenceTime: reference)
        }
        let events = client.session.events
        let watcher = Task { [weak self] in
            for await event in events {
                switch event {
                case .keyFrameRequested(.video, _): self?.requestKeyFrame()
                default: continue
                }
            }
        }
        state.withLock { state in
            state.client = client
            state.video = video
            state.audio = audio
            state.watcher = watcher
        }
        requestKeyFrame()
    }

    /// Packetizes a frame and sends it on the session.
    /// - Parameter media: the frame.
    /// - Throws: an ``RTPPacketizerError`` for a frame that cannot be packetized; ``WHIPClientError/closed(_:)``
    ///   once the session has ended (consent expired, the endpoint left).
    public func send(_ media: OutgoingMedia) async throws {
        var packets: [[UInt8]] = []
        let kind: WebRTCMediaKind
        let isKeyFrame: Bool
        let client = try state.withLock { state throws(RTPPacketizerError) -> WHIPClient? in
            switch media {
            case let .video(frame, _):
                guard var stream = state.video.take() else { return state.client }
                defer { state.video = stream }
                try stream.send(frame) { packet in packets.append(Array(packet)) }
            case let .audio(frame, _):
                guard var stream = state.audio.take() else { return state.client }
                defer { state.audio = stream }
                try stream.send(frame) { packet in packets.append(Array(packet)) }
            }
            return state.client
        }
        switch media {
        case let .video(frame, _):
            kind = .video
            isKeyFrame = frame.isKeyFrame
        case .audio:
            kind = .audio
            isKeyFrame = true
        }
        guard let client, !packets.isEmpty else { return }
        if client.session.isClosed { throw WHIPClientError.closed(.peerLeft) }
        client.session.send(packets, kind: kind, isKeyFrame: isKeyFrame)
    }

    /// Ends the publish: the session closes and the resource is deleted.
    public func finish() async throws {
        let (client, watcher) = state.withLock { state -> (WHIPClient?, Task<Void, Never>?) in
            state.isFinished = true
            defer {
                state.client = nil
                state.watcher = nil
            }
            return (state.client, state.watcher)
        }
        await client?.stop()
        watcher?.cancel()
        eventSink.finish()
        if ownsLoop, let loop = createdLoop.withLock({ $0 }) { loop.shutdown() }
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
