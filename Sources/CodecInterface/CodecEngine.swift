import MediaCore

/// What an engine can do with one codec.
public struct EngineCapability: Sendable, Hashable {
    /// The codec.
    public var codec: CodecType
    /// Whether the engine can encode it.
    public var canEncode: Bool
    /// Whether the engine can decode it.
    public var canDecode: Bool

    /// Creates a capability.
    /// - Parameters:
    ///   - codec: the codec.
    ///   - canEncode: whether the engine encodes it.
    ///   - canDecode: whether the engine decodes it.
    public init(codec: CodecType, canEncode: Bool, canDecode: Bool) {
        self.codec = codec
        self.canEncode = canEncode
        self.canDecode = canDecode
    }
}

/// A codec implementation behind the session API: FFmpeg's libx264/libx265/aac, a hardware encoder,
/// or the native Swift engine. Engines describe themselves and make encoders and decoders; sessions
/// do the rest (timing, output delivery, format descriptions, AVCC).
public protocol CodecEngine: Sendable {
    /// A short, stable name: "x264", "x265", "aac", "h264_vaapi", "native" …
    var name: String { get }
    /// Whether the engine runs on dedicated hardware.
    var isHardware: Bool { get }
    /// A one-line description for `streamkit engines`.
    var summary: String { get }
    /// What the engine can encode and decode on this machine (probed, not assumed).
    var capabilities: [EngineCapability] { get }

    /// Makes a video encoder for the configuration.
    /// - Parameter configuration: the session's properties (already validated).
    /// - Returns: an encoder.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` for a property the engine cannot honour,
    ///   or ``CodecError/engineFailure(_:)``.
    func makeVideoEncoder(_ configuration: CompressionConfiguration) throws(CodecError) -> any VideoEncoder

    /// Makes a video decoder.
    /// - Parameter format: the stream's format, with its parameter sets.
    /// - Returns: a decoder.
    /// - Throws: ``CodecError``.
    func makeVideoDecoder(_ format: FormatDescription, output: PixelFormat) throws(CodecError) -> any VideoDecoder

    /// Makes an audio encoder.
    /// - Parameter configuration: the audio session's properties.
    /// - Returns: an encoder.
    /// - Throws: ``CodecError``.
    func makeAudioEncoder(_ configuration: AudioEncoderConfiguration) throws(CodecError) -> any AudioEncoder

    /// Makes an audio decoder.
    /// - Parameter format: the stream's format with its AudioSpecificConfig.
    /// - Returns: a decoder.
    /// - Throws: ``CodecError``.
    func makeAudioDecoder(_ format: AudioFormatDescription) throws(CodecError) -> any AudioDecoder
}

extension CodecEngine {
    /// Whether the engine encodes `codec`.
    /// - Parameter codec: the codec.
    /// - Returns: `true` if it does.
    public func encodes(_ codec: CodecType) -> Bool { capabilities.contains { $0.codec == codec && $0.canEncode } }

    /// Whether the engine decodes `codec`.
    /// - Parameter codec: the codec.
    /// - Returns: `true` if it does.
    public func decodes(_ codec: CodecType) -> Bool { capabilities.contains { $0.codec == codec && $0.canDecode } }
}

/// A running video encoder. Used by one session at a time (sessions serialise calls).
///
/// Output frames carry their NAL units in AVCC form with 4-byte lengths and a complete
/// ``FormatDescription``; pts/dts are the caller's times.
public protocol VideoEncoder: AnyObject {
    /// Encodes one picture; returns whatever frames the engine finished (possibly none, while it
    /// holds pictures for reordering or look-ahead).
    /// - Parameters:
    ///   - picture: the picture; its size must match the configuration.
    ///   - pts: its presentation time.
    ///   - duration: its display duration.
    ///   - forceKeyFrame: make this picture a key frame (`kVTEncodeFrameOptionKey_ForceKeyFrame`).
    /// - Returns: finished frames in decode order.
    /// - Throws: ``CodecError``.
    func encode(_ picture: PixelBuffer, pts: MediaTime, duration: MediaTime, forceKeyFrame: Bool) throws(CodecError) -> [EncodedFrame]

    /// Drains every picture still held; after this the encoder accepts no more input.
    /// - Returns: the remaining frames in decode order.
    /// - Throws: ``CodecError``.
    func flush() throws(CodecError) -> [EncodedFrame]

    /// Changes the rate control of the running encoder (adaptive bitrate, as
    /// `VTSessionSetProperty(kVTCompressionPropertyKey_AverageBitRate / _DataRateLimits)` on a live
    /// session); it applies from the next picture given to ``encode(_:pts:duration:forceKeyFrame:)``.
    /// - Parameters:
    ///   - averageBitRate: the new average bit rate in bits per second.
    ///   - dataRateLimits: the new limits; the tightest sets the VBV max rate and buffer.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` when the engine cannot change a value while
    ///   running (for example turning rate control on for a constant-quality session).
    func setRateControl(averageBitRate: Int?, dataRateLimits: [DataRateLimit]) throws(CodecError)
}

/// A running video decoder.
public protocol VideoDecoder: AnyObject {
    /// Decodes one frame; returns the pictures that became ready, in display order.
    /// - Parameter frame: a frame in AVCC form.
    /// - Returns: decoded pictures with their presentation times.
    /// - Throws: ``CodecError``.
    func decode(_ frame: EncodedFrame) throws(CodecError) -> [DecodedPicture]

    /// Returns every picture still held.
    /// - Returns: the remaining pictures in display order.
    /// - Throws: ``CodecError``.
    func flush() throws(CodecError) -> [DecodedPicture]
}

/// A running audio encoder.
public protocol AudioEncoder: AnyObject {
    /// The format of what the encoder produces.
    var format: AudioFormatDescription { get }

    /// Encodes PCM; returns the frames that became ready.
    /// - Parameter audio: samples at the configured rate and channel count, any length.
    /// - Returns: finished frames.
    /// - Throws: ``CodecError``.
    func encode(_ audio: AudioBuffer) throws(CodecError) -> [EncodedAudioFrame]

    /// Encodes what is buffered (padding the last frame) and drains the encoder.
    /// - Returns: the remaining frames.
    /// - Throws: ``CodecError``.
    func flush() throws(CodecError) -> [EncodedAudioFrame]

    /// Changes the target bit rate of the running encoder (adaptive bitrate, as
    /// `kAudioConverterEncodeBitRate` set on a live `AudioConverter`); it applies from the next frame the
    /// encoder starts after this returns, the stream goes on without a break.
    /// - Parameter bitRate: the new rate in bits per second, positive.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for a rate of zero or less;
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` when the engine cannot change it while running.
    func setBitRate(_ bitRate: Int) throws(CodecError)
}

extension AudioEncoder {
    /// The answer of an engine that cannot change its rate while running: it refuses.
    /// - Parameter bitRate: the rate asked for.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` always.
    public func setBitRate(_ bitRate: Int) throws(CodecError) {
        throw .unsupportedProperty(.bitRate, reason: "cannot change to \(bitRate) bit/s on a running session",
                                   engine: String(describing: Self.self))
    }
}

/// A running audio decoder.
public protocol AudioDecoder: AnyObject {
    /// Decodes one frame.
    /// - Parameter frame: a raw AAC access unit.
    /// - Returns: the decoded PCM (possibly empty while priming).
    /// - Throws: ``CodecError``.
    func decode(_ frame: EncodedAudioFrame) throws(CodecError) -> [AudioBuffer]

    /// Returns whatever is still held.
    /// - Returns: the remaining PCM.
    /// - Throws: ``CodecError``.
    func flush() throws(CodecError) -> [AudioBuffer]
}

/// A decoded picture and when to show it.
public struct DecodedPicture: Sendable, Hashable {
    /// The picture.
    public var picture: PixelBuffer
    /// Its presentation time.
    public var pts: MediaTime

    /// Creates a decoded picture.
    /// - Parameters:
    ///   - picture: the picture.
    ///   - pts: its presentation time.
    public init(picture: PixelBuffer, pts: MediaTime) {
        self.picture = picture
        self.pts = pts
    }
}

/// The properties of an audio encoder session (`AudioConverterNewSpecific` PCM → AAC-LC).
public struct AudioEncoderConfiguration: Sendable, Hashable {
    /// The codec: ``CodecType/aac`` (the default) or ``CodecType/opus`` (48 kHz, mono or stereo).
    public var codec: CodecType = .aac
    /// Samples per second per channel of both input and output.
    public var sampleRate: Int
    /// The number of channels.
    public var channelCount: Int
    /// The target bit rate in bits per second.
    public var bitRate: Int
    /// A specific engine by name, or `nil` to let the registry choose.
    public var engineName: String?

    /// Creates a configuration.
    /// - Parameters:
    ///   - sampleRate: samples per second per channel.
    ///   - channelCount: the number of channels.
    ///   - bitRate: bits per second (AAC-LC: 64 kbit/s per channel is typical).
    public init(sampleRate: Int, channelCount: Int, bitRate: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.bitRate = bitRate
    }

    /// Checks the values no engine could honour.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` naming the property.
    public func validate() throws(CodecError) {
        switch codec {
        case .aac: break
        case .opus:
            // RFC 6716 §2: Opus codes at 48 kHz inside; StreamKit feeds it 48 kHz only, so that the pts, the
            // RTP clock (RFC 7587 §4.1) and the container time scales all count the same samples.
            guard sampleRate == 48000 else {
                throw .invalidConfiguration(property: .sampleRate, reason: "Opus takes 48000 Hz here, got \(sampleRate)")
            }
            guard (1...2).contains(channelCount) else {
                throw .invalidConfiguration(property: .channelCount, reason: "Opus here is mono or stereo, got \(channelCount)")
            }
            guard (6000...510_000).contains(bitRate) else {
                throw .invalidConfiguration(property: .bitRate, reason: "Opus takes 6000...510000 bit/s, got \(bitRate)")
            }
            return
        case .h264, .hevc:
            throw .invalidConfiguration(property: .codec, reason: "\(codec.rawValue) is not supported for audio")
        }
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        guard rates.contains(sampleRate) else {
            throw .invalidConfiguration(property: .sampleRate, reason: "AAC sample rate \(sampleRate) is not one of \(rates)")
        }
        guard (1...8).contains(channelCount) else {
            throw .invalidConfiguration(property: .channelCount, reason: "\(channelCount) outside 1...8")
        }
        guard bitRate > 0 else { throw .invalidConfiguration(property: .bitRate, reason: "must be positive, got \(bitRate)") }
    }
}
