import MediaCore
import Synchronization

/// An AAC encoder session — StreamKit's `AudioConverterNewSpecific` (PCM → AAC-LC) as the seeds' apps
/// use it: give it PCM of any length, get raw AAC frames of 1024 samples, put them in ADTS with
/// `ADTSWriter`.
///
/// Output arrives from the return values, from ``frames`` (an `AsyncStream`), and from the callback.
/// ``flush()`` encodes the buffered tail; nothing is lost.
public final class AudioEncoderSession: Sendable {
    /// The properties the session was created with.
    public let configuration: AudioEncoderConfiguration
    /// The engine serving the session.
    public let engineName: String
    /// The format of the frames produced (rate, channels, AudioSpecificConfig).
    public let format: AudioFormatDescription
    /// Every frame from the first time this is read, in order; finishes on ``close()``.
    /// Read it before encoding (nothing is buffered for it until then).
    public var frames: AsyncStream<EncodedAudioFrame> { outputStream.stream }

    private let encoder: Mutex<(any AudioEncoder)?>
    private let outputStream = SessionOutputStream<EncodedAudioFrame>()
    private let handler: (@Sendable (EncodedAudioFrame) -> Void)?

    /// Creates a session.
    /// - Parameters:
    ///   - configuration: sample rate, channels and bit rate; checked first.
    ///   - registry: the engines to choose from.
    ///   - outputHandler: called with every frame, in order.
    /// - Throws: ``CodecError`` for an invalid configuration or no engine.
    public init(configuration: AudioEncoderConfiguration, registry: CodecEngineRegistry,
                outputHandler: (@Sendable (EncodedAudioFrame) -> Void)? = nil) throws(CodecError) {
        try configuration.validate()
        let engine = try registry.audioEncoderEngine(for: configuration)
        let encoder = try engine.makeAudioEncoder(configuration)
        self.configuration = configuration
        self.engineName = engine.name
        self.format = encoder.format
        self.handler = outputHandler
        self.encoder = Mutex(encoder)
    }

    /// Encodes PCM.
    /// - Parameter audio: samples at the session's rate and channel count.
    /// - Returns: the frames that became ready.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for the wrong rate or channel count.
    @discardableResult
    public func encode(_ audio: AudioBuffer) throws(CodecError) -> [EncodedAudioFrame] {
        guard audio.sampleRate == configuration.sampleRate, audio.channelCount == configuration.channelCount else {
            throw .inputMismatch("audio is \(audio.sampleRate) Hz × \(audio.channelCount), session is "
                + "\(configuration.sampleRate) Hz × \(configuration.channelCount)")
        }
        let frames = try encoder.withLock { (encoder: inout (any AudioEncoder)?) throws(CodecError) -> [EncodedAudioFrame] in
            guard let active = encoder else { throw CodecError.sessionClosed }
            return try active.encode(audio)
        }
        deliver(frames)
        return frames
    }

    /// Encodes whatever is buffered (the last frame padded with silence) and drains the encoder.
    /// - Returns: the remaining frames.
    /// - Throws: ``CodecError``.
    @discardableResult
    public func flush() throws(CodecError) -> [EncodedAudioFrame] {
        let frames = try encoder.withLock { (encoder: inout (any AudioEncoder)?) throws(CodecError) -> [EncodedAudioFrame] in
            guard let active = encoder else { return [] }
            return try active.flush()
        }
        deliver(frames)
        return frames
    }

    /// Flushes and ends the session; ``frames`` finishes.
    /// - Returns: the frames that were still pending.
    @discardableResult
    public func close() -> [EncodedAudioFrame] {
        let frames = (try? flush()) ?? []
        encoder.withLock { $0 = nil }
        outputStream.finish()
        return frames
    }

    deinit {
        outputStream.finish()
    }

    private func deliver(_ frames: [EncodedAudioFrame]) {
        for frame in frames {
            outputStream.yield(frame)
            handler?(frame)
        }
    }
}
