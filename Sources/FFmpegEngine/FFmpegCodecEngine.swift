#if FFmpeg
import CodecInterface
import MediaCore

/// A codec engine backed by the system's libavcodec: libx264 or libx265 with FFmpeg's own decoder,
/// FFmpeg's native AAC encoder and decoder, libopus with FFmpeg's Opus decoder, or a hardware encoder (VA-API, NVENC, V4L2 M2M).
///
/// Get the engines this machine really has from ``FFmpegEngines/probe()``; each one's
/// ``capabilities`` were checked there, not assumed.
public struct FFmpegCodecEngine: CodecEngine {
    /// "x264", "x265", "aac", "opus", or the hardware encoder's libavcodec name ("h264_vaapi" …).
    public let name: String
    /// Whether the engine runs on dedicated hardware.
    public let isHardware: Bool
    /// A one-line description for `streamkit engines`.
    public let summary: String
    /// What the engine encodes and decodes on this machine.
    public let capabilities: [EngineCapability]
    /// The libavcodec video encoder the engine drives (`libx264`, `hevc_nvenc` …), `nil` for audio.
    public let videoEncoderName: String?

    /// Creates an engine description (``FFmpegEngines/probe()`` makes the real ones).
    /// - Parameters:
    ///   - name: the engine's name.
    ///   - isHardware: whether it is hardware.
    ///   - summary: a one-line description.
    ///   - capabilities: what it encodes and decodes.
    ///   - videoEncoderName: the libavcodec video encoder, if any.
    init(name: String, isHardware: Bool, summary: String, capabilities: [EngineCapability], videoEncoderName: String?) {
        self.name = name
        self.isHardware = isHardware
        self.summary = summary
        self.capabilities = capabilities
        self.videoEncoderName = videoEncoderName
    }

    /// Makes a video encoder.
    /// - Parameter configuration: the session's properties (already validated).
    /// - Returns: an encoder that emits AVCC frames with in-band and described parameter sets.
    /// - Throws: ``CodecError/noEngine(_:)`` if this engine does not encode the codec;
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` for a property it cannot honour;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    public func makeVideoEncoder(_ configuration: CompressionConfiguration) throws(CodecError) -> any VideoEncoder {
        guard encodes(configuration.codec), let encoderName = videoEncoderName else {
            throw .noEngine("engine \(name) cannot encode \(configuration.codec.rawValue)")
        }
        return try FFmpegVideoEncoder(configuration: configuration, encoderName: encoderName, engineName: name)
    }

    /// Makes a video decoder (FFmpeg's software `h264` or `hevc` decoder).
    /// - Parameters:
    ///   - format: the stream's format with its parameter sets.
    ///   - output: the layout of the pictures to return.
    /// - Returns: a decoder.
    /// - Throws: ``CodecError/noEngine(_:)`` if this engine does not decode the codec;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    public func makeVideoDecoder(_ format: FormatDescription, output: PixelFormat) throws(CodecError) -> any VideoDecoder {
        guard decodes(format.codec) else { throw .noEngine("engine \(name) cannot decode \(format.codec.rawValue)") }
        return try FFmpegVideoDecoder(format: format, output: output)
    }

    /// Makes an AAC-LC encoder (FFmpeg's native `aac`) or an Opus encoder (`libopus`).
    /// - Parameter configuration: the audio session's properties.
    /// - Returns: an encoder.
    /// - Throws: ``CodecError/noEngine(_:)`` if this engine does not encode the configured codec;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    public func makeAudioEncoder(_ configuration: AudioEncoderConfiguration) throws(CodecError) -> any AudioEncoder {
        guard encodes(configuration.codec) else { throw .noEngine("engine \(name) cannot encode \(configuration.codec.rawValue)") }
        return try FFmpegAudioEncoder(configuration: configuration)
    }

    /// Makes an AAC or Opus decoder.
    /// - Parameter format: the stream's format with its AudioSpecificConfig or OpusHead.
    /// - Returns: a decoder producing Float32 planar PCM.
    /// - Throws: ``CodecError/noEngine(_:)`` if this engine does not decode the codec;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    public func makeAudioDecoder(_ format: AudioFormatDescription) throws(CodecError) -> any AudioDecoder {
        guard decodes(format.codec) else { throw .noEngine("engine \(name) cannot decode \(format.codec.rawValue)") }
        return try FFmpegAudioDecoder(format: format)
    }
}
#endif
