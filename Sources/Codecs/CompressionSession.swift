import MediaCore
import Synchronization

/// A video compression session — StreamKit's `VTCompressionSession`.
///
/// Create it with a ``CompressionConfiguration``; give it pictures with
/// ``encode(_:pts:duration:forceKeyFrame:)``; read everything it produces from ``outputs``, the one way
/// out — made with the session, so a consumer started before, during or after encoding gets every
/// frame and every drop report, in order. The buffer behind ``outputs`` is bounded; the
/// ``OutputPolicy`` says what happens when the consumer falls behind: ``OutputPolicy/wait`` suspends
/// ``encode(_:pts:duration:forceKeyFrame:)`` (files), ``OutputPolicy/drop`` drops frames nothing depends
/// on and reports each one (live).
///
/// The engine runs on the session's own serial worker, never on the caller's executor. Rate control
/// can change while it runs (``setRateControl(averageBitRate:dataRateLimits:)``), and a key frame can be
/// asked for at any time (``requestKeyFrame()``). ``flush()`` drains the engine
/// (`VTCompressionSessionCompleteFrames`); ``close()`` drains it, ends ``outputs`` and returns a
/// ``SessionReport`` (`VTCompressionSessionInvalidate`).
public final class CompressionSession: Sendable {
    /// The properties the session was created with (rate control as it is now: see
    /// ``currentRateControl``).
    public let configuration: CompressionConfiguration
    /// The name of the engine serving the session, for example "x264" or "h264_vaapi".
    public let engineName: String
    /// Whether that engine is hardware.
    public let isHardware: Bool
    /// What happens when ``outputs`` is full.
    public let outputPolicy: OutputPolicy
    /// Every output of the session, in order: frames in decode order and, in their place, pictures that
    /// were dropped. Finishes after ``close()``.
    public let outputs: SessionOutputStream<CompressionOutput>

    private struct State {
        var lastPTS: MediaTime?
        var received = 0
        var emitted = 0
        var dropped = 0
        /// The pictures inside the engine, by pts: their index in input order.
        var inFlight: [MediaTime: Int] = [:]
        var keyFrameRequested = false
        var averageBitRate: Int?
        var dataRateLimits: [DataRateLimit]
        var dropPolicy = CompressionDropPolicy()
    }

    private let state: Mutex<State>
    /// The engine: touched only on the worker, outside the lock (callers never wait for it).
    private let encoder: WorkerConfined<(any VideoEncoder)?>
    private let worker = SessionWorker(label: "streamkit.compression")

    /// Creates a session (`VTCompressionSessionCreate`).
    /// - Parameters:
    ///   - configuration: the properties; checked before any engine is touched.
    ///   - registry: the engines to choose from (every engine of this build by default).
    ///   - outputPolicy: what to do when the consumer of ``outputs`` falls behind.
    ///   - outputCapacity: the most frames ``outputs`` holds (at least 2).
    /// - Throws: ``CodecError`` for an invalid configuration, a property the engine cannot honour, or
    ///   no engine at all.
    public init(configuration: CompressionConfiguration, registry: CodecEngineRegistry = .default,
                outputPolicy: OutputPolicy = .wait, outputCapacity: Int = 64) throws(CodecError) {
        try configuration.validate()
        guard outputCapacity >= 2 else {
            throw .invalidConfiguration(property: .outputCapacity, reason: "must be at least 2, got \(outputCapacity)")
        }
        let engine = try registry.encoderEngine(for: configuration)
        let encoder = try engine.makeVideoEncoder(configuration)
        self.configuration = configuration
        self.engineName = engine.name
        self.isHardware = engine.isHardware
        self.outputPolicy = outputPolicy
        self.outputs = SessionOutputStream(capacity: outputCapacity)
        self.encoder = WorkerConfined(encoder)
        state = Mutex(State(averageBitRate: configuration.averageBitRate,
                            dataRateLimits: configuration.dataRateLimits))
    }

    /// Encodes one picture (`VTCompressionSessionEncodeFrame`). With ``OutputPolicy/wait`` this first
    /// waits until ``outputs`` has room. Returns when the engine has taken the picture; the frames it
    /// releases go to ``outputs``.
    /// - Parameters:
    ///   - picture: the picture; its size must match the configuration. Any of the four layouts.
    ///   - pts: its presentation time; must increase from picture to picture.
    ///   - duration: how long it is shown.
    ///   - forceKeyFrame: make it a key frame.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for a picture of another size or a pts that does not
    ///   increase, ``CodecError/sessionClosed``, or the engine's ``CodecError``.
    public func encode(_ picture: PixelBuffer, pts: MediaTime, duration: MediaTime,
                       forceKeyFrame: Bool = false) async throws(CodecError) {
        guard picture.width == configuration.width, picture.height == configuration.height else {
            throw .inputMismatch("picture is \(picture.width)x\(picture.height), session is \(configuration.width)x\(configuration.height)")
        }
        if outputPolicy == .wait { await outputs.waitForRoom() }
        try await worker.run { () throws(CodecError) in
            try self.encodeOnWorker(picture, pts: pts, duration: duration, forceKeyFrame: forceKeyFrame)
        }
    }

    /// Makes the next picture given to ``encode(_:pts:duration:forceKeyFrame:)`` a key frame
    /// (`kVTEncodeFrameOptionKey_ForceKeyFrame` without waiting for the next call).
    public func requestKeyFrame() {
        state.withLock { $0.keyFrameRequested = true }
    }

    /// Changes the rate control of the running session (adaptive bitrate): applies from the next picture
    /// given to ``encode(_:pts:duration:forceKeyFrame:)`` after this returns.
    /// - Parameters:
    ///   - averageBitRate: the new `kVTCompressionPropertyKey_AverageBitRate`, bits per second.
    ///   - dataRateLimits: the new `kVTCompressionPropertyKey_DataRateLimits`.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for a value that is not positive or
    ///   for a session made with a constant ``CompressionConfiguration/quantizer`` (the rules of
    ///   ``CompressionConfiguration/validate()``); ``CodecError/unsupportedProperty(_:reason:engine:)`` when the
    ///   engine cannot change it while running.
    public func setRateControl(averageBitRate: Int?, dataRateLimits: [DataRateLimit]) async throws(CodecError) {
        // The same rules as at creation (CompressionConfiguration.validate), for the values that change.
        var changed = configuration
        changed.averageBitRate = averageBitRate
        changed.dataRateLimits = dataRateLimits
        try changed.validate()
        try await worker.run { () throws(CodecError) in
            guard let encoder = self.encoder.value else { throw CodecError.sessionClosed }
            try encoder.setRateControl(averageBitRate: averageBitRate, dataRateLimits: dataRateLimits)
            self.state.withLock { state in
                state.averageBitRate = averageBitRate
                state.dataRateLimits = dataRateLimits
            }
        }
    }

    /// The rate control in force now.
    public var currentRateControl: (averageBitRate: Int?, dataRateLimits: [DataRateLimit]) {
        state.withLock { ($0.averageBitRate, $0.dataRateLimits) }
    }

    /// Drains every picture the engine holds (`VTCompressionSessionCompleteFrames`). Nothing is lost:
    /// afterwards every picture given to the session has come out in ``outputs`` as a frame or a drop
    /// report. The session goes on accepting pictures (the engine starts again with a key frame).
    /// - Throws: the engine's ``CodecError``.
    public func flush() async throws(CodecError) {
        try await worker.run { () throws(CodecError) in try self.flushOnWorker() }
    }

    /// Flushes and ends the session (`VTCompressionSessionInvalidate`); ``outputs`` finishes once read.
    /// Further calls to ``encode(_:pts:duration:forceKeyFrame:)`` throw ``CodecError/sessionClosed``.
    /// - Returns: what went in and came out. Closing twice returns the same counts.
    /// - Throws: the engine's ``CodecError`` when it could not drain (the session is closed anyway).
    public func close() async throws(CodecError) -> SessionReport {
        let result: Result<Void, CodecError>
        do throws(CodecError) {
            try await worker.run { () throws(CodecError) in
                defer { self.encoder.value = nil }
                try self.flushOnWorker()
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        let report = state.withLock { SessionReport(received: $0.received, emitted: $0.emitted, dropped: $0.dropped) }
        outputs.finish()
        try result.get()
        return report
    }

    /// How many pictures went in, came out, and were dropped so far.
    public var counts: (received: Int, emitted: Int, dropped: Int) {
        state.withLock { ($0.received, $0.emitted, $0.dropped) }
    }

    deinit {
        outputs.finish()
    }

    // MARK: - On the worker

    private func encodeOnWorker(_ picture: PixelBuffer, pts: MediaTime, duration: MediaTime,
                                forceKeyFrame: Bool) throws(CodecError) {
        guard let encoder = encoder.value else { throw .sessionClosed }
        let key = try state.withLock { (state: inout State) throws(CodecError) -> Bool in
            if let last = state.lastPTS, !(last < pts) {
                throw CodecError.inputMismatch("pts \(pts) does not follow \(last)")
            }
            defer { state.keyFrameRequested = false }
            return forceKeyFrame || state.keyFrameRequested
        }
        let frames: [EncodedFrame]
        do throws(CodecError) {
            frames = try encoder.encode(picture, pts: pts, duration: duration, forceKeyFrame: key)
        } catch {
            if key { state.withLock { $0.keyFrameRequested = true } }  // still owed
            throw error
        }
        state.withLock { state in
            state.lastPTS = pts
            state.inFlight[pts] = state.received
            state.received += 1
        }
        deliver(frames)
    }

    private func flushOnWorker() throws(CodecError) {
        guard let encoder = encoder.value else { return }
        deliver(try encoder.flush())
        // Whatever is still in flight after a full drain, the engine dropped.
        let missing = state.withLock { state -> [FramePosition] in
            defer { state.inFlight = [:] }
            state.dropped += state.inFlight.count
            return state.inFlight.map { FramePosition(index: $0.value, pts: $0.key) }.sorted { $0.index < $1.index }
        }
        for position in missing {
            outputs.append(.dropped(position, reason: .notProducedByEngine), isMedia: false, tag: position.index)
        }
    }

    private static func isDropReport(_ slot: SessionOutputStream<CompressionOutput>.Slot) -> Bool {
        if case .dropped = slot.element { return true }
        return false
    }

    /// Hands frames to ``outputs`` under the policy.
    private func deliver(_ frames: [EncodedFrame]) {
        for frame in frames {
            let index = state.withLock { state -> Int in
                state.emitted += 1
                return state.inFlight.removeValue(forKey: frame.pts) ?? -1
            }
            switch outputPolicy {
            case .wait:
                outputs.append(.frame(frame), isMedia: true, tag: index)
            case .drop:
                var policy = state.withLock { $0.dropPolicy }
                var droppedHere = 0
                let wantsKeyFrame = outputs.update { slots in
                    let before = slots.count(where: Self.isDropReport)
                    let wants = policy.admit(frame, index: index, into: &slots, capacity: outputs.capacity)
                    droppedHere = slots.count(where: Self.isDropReport) - before
                    return wants
                }
                state.withLock { state in
                    state.dropPolicy = policy
                    state.dropped += droppedHere
                    state.emitted -= droppedHere
                    if wantsKeyFrame { state.keyFrameRequested = true }
                }
            }
        }
    }
}
