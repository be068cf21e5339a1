import Capture
import Codecs
import MediaCore
import Synchronization
import Transport

/// A live stream in a few lines: a camera and a microphone, one encoder per rendition, and any number of
/// destinations — HaishinKit's mixer and stream, GStreamer's `tee`, for many outputs at once.
///
/// ```swift
/// let camera = try SyntheticCamera(width: 640, height: 480, frameRate: 30)
/// var video = CompressionConfiguration(codec: .h264, width: 640, height: 480)
/// video.averageBitRate = 1_500_000
/// let pipeline = LivePipeline(video: camera, audio: try SyntheticMicrophone(),
///                             configuration: LiveConfiguration(video: video))
/// pipeline.add(RTMPDestination(url: "rtmp://127.0.0.1/live/key"))
/// pipeline.add(MP4FileDestination(path: "recording.mp4"), options: .recording())
/// Task { for await event in pipeline.events { print(event) } }
/// let report = try await pipeline.run()   // until the camera ends or `pipeline.stop()`
/// ```
///
/// - **Fan-out.** Each destination sits behind its own bounded queue (``DestinationOptions/queue``): when it falls
///   behind, frames nothing depends on go first, then the rest of a group of pictures, each drop reported as
///   ``LiveEvent/dropped(_:_:reason:)``; a reference picture is never dropped in the middle of a group. A slow or
///   dead destination never stalls the encoder or the others; one that fails is reported
///   (``LiveEvent/destinationFailed(_:error:)``) and the rest go on to the end.
/// - **Renditions.** Live destinations share the main rendition; a recording may take an encoder of its own at a
///   fixed rate (``DestinationOptions/Rendition/dedicated(averageBitRate:)``), so adaptation never lowers what is
///   kept on disk.
/// - **Adaptation.** Live destinations that measure their link (RTMP) suggest bit rates; the
///   ``LiveConfiguration/adaptation`` policy (by default ``FollowSlowestDestination``) sets the main rendition's
///   encoder to its choice with ``CompressionSession/setRateControl(averageBitRate:dataRateLimits:)``. A destination
///   that skipped to a key frame gets one forced, at most every
///   ``LiveConfiguration/minimumForcedKeyFrameSpacing`` seconds.
/// - **Formats up front.** Destinations are opened with the stream's formats
///   (``LiveStreamDescription``) when the first key frame is encoded; audio encoded before it waits.
/// - **Nothing lost.** At the end the encoders are drained, every queue is sent, every destination finished; the
///   ``LiveReport`` says what each one got.
public final class LivePipeline: Sendable {
    /// Every event, in order (the newest 4096 are kept for a consumer that falls behind). Finishes when
    /// ``run()`` returns.
    public let events: AsyncStream<LiveEvent>

    /// What is captured and encoded, or sent as it is (``init(source:frameLimit:delivery:)``).
    private let input: LivePipelineInput
    private let eventContinuation: AsyncStream<LiveEvent>.Continuation
    private let adaptationRequests: AsyncStream<AdaptationRequest>
    private let adaptationContinuation: AsyncStream<AdaptationRequest>.Continuation

    /// A change one destination's link asks for, applied in order by one task.
    private enum AdaptationRequest: Sendable {
        case suggest(bitRate: Int?, from: String)
        case keyFrame(for: String)
    }

    private struct State {
        var channels: [DestinationChannel] = []
        var followers: [Task<Void, Never>] = []
        /// Dedicated renditions' bit rates, in order: rendition 1 is the first.
        var dedicatedRates: [Int] = []
        var hasRun = false
        var isStopRequested = false
        var main: CompressionSession?
        var sessions: [CompressionSession] = []
        /// The audio encoder, whose rate ``AudioAdaptation`` moves with the main rendition's.
        var audio: AudioEncoderSession?
        /// How long the captured pictures last (seconds), once the video has ended: the audio stops there.
        var videoSeconds: Double?
        /// The formats of a stream without video, once known: a destination added then starts at once.
        var audioOnlyStream: LiveStreamDescription?
        var report = LiveReport()
        var failure: LiveError?
    }

    private let state = Mutex(State())

    /// Creates a pipeline.
    /// - Parameters:
    ///   - video: the pictures (a camera, a file source), or `nil` for audio alone.
    ///   - audio: the sound (a microphone, a file source), or `nil` for video alone.
    ///   - configuration: how to encode.
    public init(video: (any VideoSource)?, audio: (any AudioSource)?, configuration: LiveConfiguration) {
        input = .capture(LivePipelineInput.Capture(video: video, audio: audio, configuration: configuration))
        (events, eventContinuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(4096))
        (adaptationRequests, adaptationContinuation) = AsyncStream.makeStream(of: AdaptationRequest.self)
    }

    /// Creates a pipeline that sends media already encoded — a file as it is, a received stream — to its
    /// destinations without encoding it again. Nothing adapts the bit rate (there is no encoder): a slow live
    /// destination drops frames instead, as its queue's policy says.
    ///
    /// ```swift
    /// let pipeline = LivePipeline(source: FLVFileSource(path: "show.flv", pacing: .realTime))
    /// pipeline.add(RTMPDestination(url: "rtmp://127.0.0.1/live/key"))
    /// let report = try await pipeline.run()
    /// ```
    /// - Parameters:
    ///   - source: the encoded media.
    ///   - frameLimit: stop after this many pictures — audio frames for a stream without video (`nil`: at the source's
    ///     end or ``stop()``).
    ///   - delivery: drop when a destination falls behind (a paced source), or wait for the slowest (a file read as
    ///     fast as possible).
    public init(source: any EncodedMediaSource, frameLimit: Int? = nil, delivery: Delivery = .dropWhenBehind) {
        input = .encoded(source, frameLimit: frameLimit, delivery: delivery)
        (events, eventContinuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(4096))
        (adaptationRequests, adaptationContinuation) = AsyncStream.makeStream(of: AdaptationRequest.self)
    }

    /// Adds a destination. Before ``run()`` it gets the stream from the start; while running it joins the main
    /// rendition at the next key frame. A destination that asks for a dedicated rendition once the pipeline runs
    /// is refused (its encoder would start mid-stream): it is reported as failed with
    /// ``LiveError/renditionAfterStart``.
    /// - Parameters:
    ///   - destination: where to send.
    ///   - options: its queue and rendition (default: live, main rendition).
    public func add(_ destination: any LiveDestination, options: DestinationOptions = DestinationOptions()) {
        let events = eventContinuation
        let emit: @Sendable (LiveEvent) -> Void = { [weak self] event in
            events.yield(event)
            if case .destinationFailed = event { self?.stopIfEveryDestinationFailed() }
        }
        let refused = state.withLock { state -> DestinationChannel? in
            var rendition = 0
            if case let .dedicated(rate) = options.rendition, !input.isPassThrough {
                guard !state.hasRun else {
                    let refused = DestinationChannel(destination: destination, rendition: 0, limits: options.queue, emit: emit)
                    state.channels.append(refused)
                    return refused
                }
                if let index = state.dedicatedRates.firstIndex(of: rate) {
                    rendition = index + 1
                } else {
                    state.dedicatedRates.append(rate)
                    rendition = state.dedicatedRates.count
                }
            }
            let channel = DestinationChannel(destination: destination, rendition: rendition, limits: options.queue,
                                             delivery: input.delivery, emit: emit)
            if let stream = state.audioOnlyStream {
                channel.start(with: stream)
            }
            state.channels.append(channel)
            state.followers.append(Task { await self.follow(channel) })
            return nil
        }
        refused?.refuse(because: LiveError.renditionAfterStart(destination.name))
    }

    /// Stops the stream once every destination has failed: nobody is left to send to (as `ffmpeg` ends when its
    /// last output fails).
    private func stopIfEveryDestinationFailed() {
        let channels = state.withLock { $0.channels }
        guard !channels.isEmpty, channels.allSatisfy(\.hasFailed) else { return }
        stop()
    }

    /// Each destination's numbers now.
    public var statistics: [DestinationStatistics] {
        state.withLock { $0.channels }.map(\.statistics)
    }

    /// The main rendition's bit rate now (bits per second), while running.
    public var currentBitRate: Int? {
        state.withLock { $0.main }?.currentRateControl.averageBitRate
    }

    /// Ends the stream: the sources stop, the encoders drain, every destination gets what is queued and is finished;
    /// ``run()`` then returns.
    public func stop() {
        state.withLock { $0.isStopRequested = true }
        let input = self.input
        Task { await input.stop() }
    }

    /// Runs the stream until the video source ends (or ``LiveConfiguration/frameLimit``, or ``stop()``); without video,
    /// until the audio source ends. Every destination is finished before it returns.
    /// - Returns: what was encoded and what each destination got.
    /// - Throws: ``LiveError`` when an encoder cannot be made, the video's size does not match, or a source fails;
    ///   destinations that fail do not make it throw (they are in the report and the events).
    public func run() async throws(LiveError) -> LiveReport {
        let (alreadyRun, dedicatedRates) = state.withLock { state -> (Bool, [Int]) in
            defer { state.hasRun = true }
            return (state.hasRun, state.dedicatedRates)
        }
        guard !alreadyRun else { throw .alreadyRun }
        guard input.hasSource else { throw .noSource }
        defer {
            adaptationContinuation.finish()
            eventContinuation.finish()
        }
        switch input {
        case let .encoded(source, frameLimit, _):
            let stream: LiveStreamDescription
            do {
                stream = try await source.open()
            } catch {
                throw .input(error)
            }
            startWithoutVideo(stream.video == nil ? stream : nil)
            state.withLock { $0.report.isPassThrough = true }
            adaptationContinuation.finish()
            await forwardEncoded(from: source, stream: stream, frameLimit: frameLimit)
        case let .capture(capture):
            try await encodeAndForward(capture, dedicatedRates: dedicatedRates)
        }

        let channels = state.withLock { $0.channels }
        var finished: [Int: DestinationStatistics] = [:]
        await withTaskGroup(of: (Int, DestinationStatistics).self) { group in
            for (index, channel) in channels.enumerated() {
                group.addTask { (index, await channel.finish()) }
            }
            for await (index, statistics) in group { finished[index] = statistics }
        }
        // The followers end with their event streams; one whose destination never finishes its stream is cut off.
        let followers = state.withLock { $0.followers }
        let cutOff = Task {
            try? await Task.sleep(for: .seconds(2))
            for follower in followers { follower.cancel() }
        }
        for follower in followers { await follower.value }
        cutOff.cancel()
        let (report, failure) = state.withLock { state -> (LiveReport, LiveError?) in
            state.report.destinations = channels.indices.compactMap { finished[$0] }
            return (state.report, state.failure)
        }
        eventContinuation.yield(.ended(report))
        if let failure { throw failure }
        return report
    }

    /// Starts every destination at once on a stream without video; `nil` (a stream with video) does nothing:
    /// destinations then start at the first key frame.
    private func startWithoutVideo(_ stream: LiveStreamDescription?) {
        guard let stream else { return }
        let channels = state.withLock { state -> [DestinationChannel] in
            state.audioOnlyStream = stream
            return state.channels
        }
        for channel in channels { channel.start(with: stream) }
    }

    /// Captures, encodes and fans out until the sources end; the encoders are drained.
    private func encodeAndForward(_ capture: LivePipelineInput.Capture, dedicatedRates: [Int]) async throws(LiveError) {
        let (sessions, audioSession) = try makeEncoders(capture, dedicatedRates: dedicatedRates)
        let audioFormat = audioSession?.format
        state.withLock { state in
            state.sessions = sessions
            state.main = sessions.first
            state.report.finalBitRate = sessions.first?.configuration.averageBitRate
            state.report.videoEngine = sessions.first?.engineName
            state.report.audioEngine = audioSession?.engineName
            state.audio = audioSession
            state.report.finalAudioBitRate = audioSession?.currentBitRate
        }
        let configuration = capture.configuration
        startWithoutVideo(capture.video == nil
            ? LiveStreamDescription(video: nil, audio: audioFormat, frameRate: 0, audioBitRate: configuration.audioBitRate) : nil)

        let adapting = Task { await self.applyAdaptation(configuration) }
        await withTaskGroup(of: Void.self) { group in
            for (rendition, session) in sessions.enumerated() {
                group.addTask {
                    await self.forwardPictures(of: session, rendition: rendition, audioFormat: audioFormat,
                                               audioBitRate: configuration.audioBitRate)
                }
            }
            if let audioSession {
                group.addTask { await self.forwardAudio(of: audioSession) }
                group.addTask { await self.captureAudio(capture, into: audioSession) }
            } else if let audio = capture.audio {
                await audio.stop()
            }
            if let video = capture.video {
                group.addTask { await self.captureVideo(from: video, of: capture, into: sessions) }
            }
        }
        adaptationContinuation.finish()
        await adapting.value
    }

    // MARK: - Encoders

    private func makeEncoders(_ capture: LivePipelineInput.Capture,
                              dedicatedRates: [Int]) throws(LiveError) -> ([CompressionSession], AudioEncoderSession?) {
        let configuration = capture.configuration
        var sessions: [CompressionSession] = []
        if let videoSource = capture.video {
            let video = configuration.video
            guard videoSource.width == video.width, videoSource.height == video.height else {
                throw .sizeMismatch(source: videoSource.name, width: videoSource.width, height: videoSource.height,
                                    configured: (video.width, video.height))
            }
            var main = video
            // Live: no look-ahead and no frame delay. A transcode (every frame waited for) takes the configuration
            // as it is: B-frames and look-ahead where it asks for them.
            if configuration.delivery == .dropWhenBehind { main.realTime = true }
            var renditions = [main]
            for rate in dedicatedRates {
                var dedicated = main
                dedicated.averageBitRate = rate
                dedicated.quantizer = nil
                renditions.append(dedicated)
            }
            do {
                for rendition in renditions {
                    sessions.append(try CompressionSession(configuration: rendition, registry: configuration.registry))
                }
            } catch {
                for session in sessions { Task { _ = try? await session.close() } }
                throw .encoder(error)
            }
        }
        var audioSession: AudioEncoderSession?
        if let audioSource = capture.audio {
            if configuration.registry.canEncode(configuration.audioCodec) || configuration.audioCodec != .aac {
                var audio = AudioEncoderConfiguration(sampleRate: audioSource.sampleRate, channelCount: audioSource.channelCount,
                                                      bitRate: configuration.audioBitRate)
                audio.codec = configuration.audioCodec
                audio.engineName = configuration.resolvedAudioEngineName
                do {
                    audioSession = try AudioEncoderSession(configuration: audio, registry: configuration.registry)
                } catch {
                    for session in sessions { Task { _ = try? await session.close() } }
                    throw .encoder(error)
                }
            } else {
                eventContinuation.yield(.audioSkipped(reason: "no engine of this build encodes AAC"))
            }
        }
        return (sessions, audioSession)
    }

    // MARK: - Capture

    private var isStopRequested: Bool { state.withLock { $0.isStopRequested } }

    private func record(_ failure: LiveError) {
        state.withLock { $0.failure = $0.failure ?? failure }
    }

    /// Keeps the first failure of a capture loop: a source's or an encoder's.
    private func record(failureOf error: any Error) {
        switch error {
        case let error as CaptureError: record(.source(error))
        case let error as CodecError: record(.encoder(error))
        default: record(.encoder(.engineFailure("\(error)")))
        }
    }

    private func captureVideo(from source: any VideoSource, of capture: LivePipelineInput.Capture,
                              into sessions: [CompressionSession]) async {
        let configuration = capture.configuration
        var count = 0
        var span: (first: MediaTime, end: MediaTime)?
        do {
            while !isStopRequested, configuration.frameLimit.map({ count < $0 }) ?? true {
                guard let frame = try await source.nextFrame() else { break }
                if let limit = configuration.durationLimit, let first = span?.first, (frame.pts - first).seconds >= limit - 1e-9 { break }
                for session in sessions {
                    try await session.encode(frame.pixelBuffer, pts: frame.pts, duration: frame.duration)
                }
                span = (span?.first ?? frame.pts, frame.pts + frame.duration)
                count += 1
                state.withLock { $0.report.picturesCaptured = count }
            }
        } catch {
            record(failureOf: error)
        }
        await source.stop()
        // The audio that goes with the pictures ends with them: at the same length, once it has caught up (or after a
        // second, or at once when stopped).
        let videoSeconds = span.map { ($0.end - $0.first).seconds } ?? 0
        state.withLock { $0.videoSeconds = videoSeconds }
        if let audioSource = capture.audio {
            let stopped = isStopRequested
            Task {
                if !stopped { try? await Task.sleep(for: .seconds(1)) }
                await audioSource.stop()
            }
        }
        for session in sessions {
            do { _ = try await session.close() } catch { record(.encoder(error)) }
        }
    }

    private func captureAudio(_ capture: LivePipelineInput.Capture, into session: AudioEncoderSession) async {
        guard let audioSource = capture.audio else { return }
        var first: MediaTime?
        do {
            while !isStopRequested, let captured = try await audioSource.nextBuffer() {
                let start = first ?? captured.pts
                first = start
                var buffer = captured.buffer
                let videoEnd = capture.video == nil ? nil : state.withLock { $0.videoSeconds }
                if let end = [videoEnd, capture.configuration.durationLimit].compactMap({ $0 }).min() {
                    let offset = (captured.pts - start).seconds
                    guard offset < end else { break }
                    let room = Int(((end - offset) * Double(buffer.sampleRate)).rounded())
                    if room < buffer.frameCount { buffer = try buffer.prefix(frameCount: max(1, room)) }
                }
                try await session.encode(buffer)
                state.withLock { $0.report.audioSamplesCaptured += buffer.frameCount }
            }
        } catch {
            record(failureOf: error)
        }
        await audioSource.stop()
        do { _ = try await session.close() } catch { record(.encoder(error)) }
    }

    // MARK: - Fan-out

    /// Sends what an encoded source gives, as it is, until it ends, the frame limit, or ``stop()``.
    private func forwardEncoded(from source: any EncodedMediaSource, stream: LiveStreamDescription, frameLimit: Int?) async {
        var pictures = 0
        do {
            while !isStopRequested, frameLimit.map({ pictures < $0 }) ?? true {
                guard let media = try await source.next() else { break }
                let channels = state.withLock { state -> [DestinationChannel] in
                    switch media {
                    case .video:
                        state.report.picturesCaptured += 1
                        state.report.picturesEncoded += 1
                    case .audio:
                        state.report.audioFramesEncoded += 1
                    }
                    return state.channels
                }
                switch media {
                case let .video(frame):
                    pictures += 1
                    // A source whose parameter sets change midway (a new SPS at a key frame) describes them itself.
                    var current = stream
                    current.video = frame.format
                    for channel in channels { channel.offer(video: frame, stream: current) }
                case let .audio(frame):
                    // Without video, the limit counts audio frames.
                    if stream.video == nil { pictures += 1 }
                    for channel in channels { channel.offer(audio: frame) }
                }
                await waitForSlowest(of: channels)
            }
        } catch {
            record(.input(error))
        }
        await source.stop()
    }

    private func forwardPictures(of session: CompressionSession, rendition: Int, audioFormat: AudioFormatDescription?,
                                 audioBitRate: Int) async {
        let frameRate = session.configuration.expectedFrameRate
        for await output in session.outputs {
            switch output {
            case let .frame(frame):
                let (channels, bitRate) = state.withLock { state -> ([DestinationChannel], Int?) in
                    if rendition == 0 { state.report.picturesEncoded += 1 }
                    return (state.channels, state.report.finalBitRate)
                }
                let stream = LiveStreamDescription(video: frame.format, audio: audioFormat, frameRate: frameRate,
                                                   videoBitRate: rendition == 0 ? bitRate : session.configuration.averageBitRate,
                                                   audioBitRate: audioFormat == nil ? nil : audioBitRate)
                for channel in channels where channel.rendition == rendition {
                    channel.offer(video: frame, stream: stream)
                }
                await waitForSlowest(of: channels.filter { $0.rendition == rendition })
            case let .dropped(position, reason):
                eventContinuation.yield(.encoderDropped(position, reason: reason))
            }
        }
    }

    private func forwardAudio(of session: AudioEncoderSession) async {
        for await frame in session.outputs {
            let channels = state.withLock { state -> [DestinationChannel] in
                state.report.audioFramesEncoded += 1
                return state.channels
            }
            for channel in channels { channel.offer(audio: frame) }
            await waitForSlowest(of: channels)
        }
    }

    /// With ``Delivery/waitForSlowest``, waits until every channel's queue is within its bounds.
    private func waitForSlowest(of channels: [DestinationChannel]) async {
        guard input.delivery == .waitForSlowest else { return }
        for channel in channels { await channel.waitForRoom() }
    }

    // MARK: - Events and adaptation

    /// Reports a channel's queue events and its destination's own events, and passes on what adaptation needs.
    private func follow(_ channel: DestinationChannel) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.handle(channel.queueEvents, of: channel) }
            if let events = channel.destination.events {
                group.addTask { await self.handle(events, of: channel) }
            }
        }
        if channel.hasFailed { adaptationContinuation.yield(.suggest(bitRate: nil, from: channel.destination.name)) }
    }

    private func handle(_ events: AsyncStream<SendQueueEvent>, of channel: DestinationChannel) async {
        let name = channel.destination.name
        for await event in events {
            switch event {
            case let .dropped(position, reason):
                channel.countDrop()
                eventContinuation.yield(.dropped(name, position, reason: reason))
            case let .bitRateChanged(_, to, _):
                if channel.destination.isLive, channel.rendition == 0 {
                    adaptationContinuation.yield(.suggest(bitRate: to, from: name))
                }
            case .keyFrameNeeded:
                adaptationContinuation.yield(.keyFrame(for: name))
            case let .disconnected(reason, retryAfter):
                eventContinuation.yield(.reconnecting(name, reason: reason, retryAfter: retryAfter))
            case let .reconnected(attempt):
                channel.countReconnection()
                eventContinuation.yield(.reconnected(name, attempt: attempt))
            }
        }
    }

    /// Moves the audio encoder's rate with the main rendition's, as ``LiveConfiguration/audioAdaptation`` says.
    /// - Parameters:
    ///   - video: the video rate just set.
    ///   - videoConfigured: the main rendition's configured rate.
    ///   - configuration: the rule and the audio's configured rate.
    private func adaptAudio(toVideo video: Int, videoConfigured: Int, configuration: LiveConfiguration) async {
        guard let rule = configuration.audioAdaptation, let audio = state.withLock({ $0.audio }) else { return }
        let current = audio.currentBitRate
        let target = rule.bitRate(video: video, videoConfigured: videoConfigured, audioConfigured: configuration.audioBitRate,
                                  audioCurrent: current, channelCount: audio.configuration.channelCount)
        guard target != current else { return }
        do {
            try await audio.setBitRate(target)
        } catch {
            // An engine that cannot change its rate live keeps it.
            return
        }
        state.withLock { state in
            state.report.audioBitRateChanges += 1
            state.report.finalAudioBitRate = target
        }
        eventContinuation.yield(.audioBitRateChanged(from: current, to: target))
    }

    /// Applies the adaptation policy's choices to the main rendition, one at a time and in order.
    /// - Parameter configuration: the policy and its bounds.
    private func applyAdaptation(_ configuration: LiveConfiguration) async {
        var suggestions: [String: Int] = [:]
        var lastForcedKeyFrame: ContinuousClock.Instant?
        for await request in adaptationRequests {
            guard let main = state.withLock({ $0.main }) else { continue }
            switch request {
            case let .suggest(bitRate, name):
                suggestions[name] = bitRate
                guard let policy = configuration.adaptation, let configured = main.configuration.averageBitRate,
                      let current = main.currentRateControl.averageBitRate else { continue }
                let target = policy.bitRate(suggestions: suggestions, configured: configured, minimum: configuration.minimumBitRate)
                guard target != current else { continue }
                do {
                    try await main.setRateControl(averageBitRate: target, dataRateLimits: main.currentRateControl.dataRateLimits)
                    state.withLock { state in
                        state.report.bitRateChanges += 1
                        state.report.finalBitRate = target
                    }
                    eventContinuation.yield(.bitRateChanged(from: current, to: target, cause: name))
                } catch {
                    // An engine that cannot change its rate live keeps it; adaptation then works by drops alone.
                    continue
                }
                await adaptAudio(toVideo: target, videoConfigured: configured, configuration: configuration)
            case let .keyFrame(name):
                let now = ContinuousClock.now
                if let last = lastForcedKeyFrame, now - last < .seconds(configuration.minimumForcedKeyFrameSpacing) { continue }
                lastForcedKeyFrame = now
                main.requestKeyFrame()
                eventContinuation.yield(.keyFrameForced(name))
            }
        }
    }
}
