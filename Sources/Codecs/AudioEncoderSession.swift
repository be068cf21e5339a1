import MediaCore
import Synchronization

/// An AAC encoder session — StreamKit's `AudioConverterNewSpecific` (PCM → AAC-LC) as the seeds' apps
/// use it: give it PCM of any length, read raw AAC frames of 1024 samples from ``outputs``, put them in
/// ADTS with `ADTSWriter`.
///
/// ``outputs`` is made with the session and bounded: ``encode(_:)`` waits while it is full
/// (backpressure), so a consumer started before, during or after encoding gets every frame. The engine
/// runs on the session's own serial worker. ``flush()`` encodes the buffered tail; nothing is lost.
public final class AudioEncoderSession: Sendable {
    /// The properties the session was created with.
    public let configuration: AudioEncoderConfiguration
    /// The engine serving the session.
    public let engineName: String
    /// The format of the frames produced (rate, channels, AudioSpecificConfig).
    public let format: AudioFormatDescription
    /// Every frame, in order; finishes after ``close()``.
    public let outputs: SessionOutputStream<EncodedAudioFrame>

    private struct State {
        var encoder: (any AudioEncoder)?
        var bitRate: Int
        var received = 0
        var emitted = 0
    }

    private let state: Mutex<State>
    private let worker = SessionWorker(label: "streamkit.audio-encoder")

    /// Creates a session.
    /// - Parameters:
    ///   - configuration: sample rate, channels and bit rate; checked first.
    ///   - registry: the engines to choose from (every engine of this build by default).
    ///   - outputCapacity: the most frames ``outputs`` holds before ``encode(_:)`` waits (at least 2).
    /// - Throws: ``CodecError`` for an invalid configuration or no engine.
    public init(configuration: AudioEncoderConfiguration, registry: CodecEngineRegistry = .default,
                outputCapacity: Int = 256) throws(CodecError) {
        try configuration.validate()
        guard outputCapacity >= 2 else {
            throw .invalidConfiguration(property: .outputCapacity, reason: "must be at least 2, got \(outputCapacity)")
        }
        let engine = try registry.audioEncoderEngine(for: configuration)
        let encoder = try engine.makeAudioEncoder(configuration)
        self.configuration = configuration
        self.engineName = engine.name
        self.format = encoder.format
        self.outputs = SessionOutputStream(capacity: outputCapacity)
        state = Mutex(State(encoder: encoder, bitRate: configuration.bitRate))
    }

    /// Encodes PCM; the frames that become ready go to ``outputs``. Waits first while ``outputs`` is full.
    /// - Parameter audio: samples at the session's rate and channel count.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for the wrong rate or channel count,
    ///   ``CodecError/sessionClosed``, or the engine's ``CodecError``.
    public func encode(_ audio: AudioBuffer) async throws(CodecError) {
        guard audio.sampleRate == configuration.sampleRate, audio.channelCount == configuration.channelCount else {
            throw .inputMismatch("audio is \(audio.sampleRate) Hz × \(audio.channelCount), session is "
                + "\(configuration.sampleRate) Hz × \(configuration.channelCount)")
        }
        await outputs.waitForRoom()
        try await worker.run { () throws(CodecError) in
            let frames = try self.state.withLock { (state: inout State) throws(CodecError) -> [EncodedAudioFrame] in
                guard let encoder = state.encoder else { throw CodecError.sessionClosed }
                state.received += 1
                let frames = try encoder.encode(audio)
                state.emitted += frames.count
                return frames
            }
            for frame in frames { self.outputs.append(frame, isMedia: true, tag: 0) }
        }
    }

    /// Changes the target bit rate of the running session (adaptive bitrate, like
    /// ``CompressionSession/setRateControl(averageBitRate:dataRateLimits:)`` for video): it applies from the
    /// next frame the engine starts after this returns; the stream goes on without a break.
    /// - Parameter bitRate: the new rate in bits per second.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for a rate the configuration rules
    ///   refuse (zero or less); ``CodecError/sessionClosed`` after ``close()``;
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` when the engine cannot change it while running.
    public func setBitRate(_ bitRate: Int) async throws(CodecError) {
        var changed = configuration
        changed.bitRate = bitRate
        try changed.validate()
        try await worker.run { () throws(CodecError) in
            try self.state.withLock { (state: inout State) throws(CodecError) in
                guard let encoder = state.encoder else { throw CodecError.sessionClosed }
                try encoder.setBitRate(bitRate)
                state.bitRate = bitRate
            }
        }
    }

    /// The target bit rate in force now (the configuration's until ``setBitRate(_:)`` changes it).
    public var currentBitRate: Int {
        state.withLock { $0.bitRate }
    }

    /// Encodes whatever is buffered (the last frame padded with silence) and drains the encoder.
    /// - Throws: the engine's ``CodecError``.
    public func flush() async throws(CodecError) {
        try await worker.run { () throws(CodecError) in
            let frames = try self.state.withLock { (state: inout State) throws(CodecError) -> [EncodedAudioFrame] in
                guard let encoder = state.encoder else { return [] }
                let frames = try encoder.flush()
                state.emitted += frames.count
                return frames
            }
            for frame in frames { self.outputs.append(frame, isMedia: true, tag: 0) }
        }
    }

    /// Flushes and ends the session; ``outputs`` finishes once read.
    /// - Returns: how many PCM buffers went in and frames came out.
    /// - Throws: the engine's ``CodecError`` when it could not drain (the session is closed anyway).
    public func close() async throws(CodecError) -> SessionReport {
        var drainError: CodecError?
        do throws(CodecError) { try await flush() } catch { drainError = error }
        let report = state.withLock { state -> SessionReport in
            state.encoder = nil
            return SessionReport(received: state.received, emitted: state.emitted, dropped: 0)
        }
        outputs.finish()
        if let drainError { throw drainError }
        return report
    }

    deinit {
        outputs.finish()
    }
}
