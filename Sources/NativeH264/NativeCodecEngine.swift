import CodecInterface
import MediaCore
import NativeAAC

/// The `native` codec engine: ``NativeH264Encoder`` and ``NativeH264Decoder`` behind the session API —
/// H.264 in pure Swift, with no C library, both ways (the encoder Constrained Baseline; the decoder also CABAC, the
/// 8x8 transform and scaling matrices of Main and High, I and P pictures) — and the
/// pure-Swift AAC-LC encoder and decoder (`NativeAACAudioEncoder`, `NativeAACAudioDecoder`). The H.264 decoder refuses what it does not implement yet
/// (B slices, weighted prediction, interlace, FMO) with ``CodecError/undecodableFrame(_:reason:)``.
///
/// It honours ``CompressionConfiguration/averageBitRate``, ``CompressionConfiguration/dataRateLimits``,
/// ``CompressionConfiguration/quantizer``, the key-frame interval (in frames or seconds), forced key
/// frames, ``CompressionConfiguration/expectedFrameRate`` (VUI timing, level) and
/// ``CompressionConfiguration/realTime`` (it is always one pass, with no look-ahead and no frame
/// delay, so ``CompressionConfiguration/maxFrameDelayCount`` holds too). At creation it refuses, with
/// ``CodecError/unsupportedProperty(_:reason:engine:)``, what it cannot do: B-frames, CABAC, profiles
/// other than (Constrained) Baseline, a level below the one the size and rate need.
///
/// ```swift
/// var configuration = CompressionConfiguration(codec: .h264, width: 640, height: 480, 
///                                              profileLevel: ProfileLevel(profile: .constrainedBaseline))
/// configuration.allowFrameReordering = false
/// configuration.averageBitRate = 1_000_000
/// configuration.engineName = "native"
/// let session = try CompressionSession(configuration: configuration)
/// ```
public struct NativeCodecEngine: CodecEngine {
    /// Called with each picture's reconstruction (what a decoder shows for it) and its presentation
    /// time, in output order, on the session's worker.
    public typealias ReconstructionHandler = @Sendable (PixelBuffer, MediaTime) -> Void

    /// "native".
    public let name = "native"
    /// Software.
    public let isHardware = false
    /// A one-line description for `streamkit engines`.
    public var summary: String {
        "pure-Swift H.264 encoder and decoder (Constrained Baseline, CAVLC, I/P pictures) and AAC-LC encoder and decoder"
            + (threadLimit.map { ", at most \($0) thread\($0 == 1 ? "" : "s")" } ?? "")
    }
    /// H.264 and AAC, encode and decode.
    public let capabilities = [EngineCapability(codec: .h264, canEncode: true, canDecode: true),
                               EngineCapability(codec: .aac, canEncode: true, canDecode: true)]
    /// The most threads an encoder may use, whatever ``CompressionConfiguration/threadCount`` asks (nil: no cap but
    /// ``NativeH264Encoder/maximumThreadCount``).
    public let threadLimit: Int?
    /// Receives every reconstructed picture (`streamkit encode --recon`), if set.
    public let reconstructionHandler: ReconstructionHandler?
    /// How each picture is cut into slices (``NativeH264Encoder/SliceLayout/count(_:)`` slices are coded
    /// on up to ``threadLimit`` threads).
    public let sliceLayout: NativeH264Encoder.SliceLayout

    /// Creates the engine.
    /// - Parameters:
    ///   - threadLimit: the most threads an encoder may use, 1… (nil: no cap).
    ///   - reconstructionHandler: called with each reconstructed picture and its presentation time.
    ///   - sliceLayout: how each picture is cut into slices (default one slice).
    public init(threadLimit: Int? = nil, reconstructionHandler: ReconstructionHandler? = nil,
                sliceLayout: NativeH264Encoder.SliceLayout = .single) {
        self.threadLimit = threadLimit.map { min(max(1, $0), NativeH264Encoder.maximumThreadCount) }
        self.reconstructionHandler = reconstructionHandler
        self.sliceLayout = sliceLayout
    }

    /// Makes a video encoder.
    /// - Parameter configuration: the session's properties.
    /// - Returns: an encoder emitting AVCC frames, SPS and PPS in band with every IDR picture.
    /// - Throws: ``CodecError/noEngine(_:)`` for a codec other than H.264;
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` for B-frames, CABAC, a profile other than
    ///   Baseline, a level too low, or a quantiser together with a bit rate;
    ///   ``CodecError/invalidConfiguration(property:reason:)`` for values no engine could honour.
    public func makeVideoEncoder(_ configuration: CompressionConfiguration) throws(CodecError) -> any VideoEncoder {
        guard configuration.codec == .h264 else { throw .noEngine("engine native cannot encode \(configuration.codec.rawValue)") }
        try configuration.validate()
        try NativeEngineSettings(configuration: configuration, engineName: name).check()
        let (layout, threads) = threading(for: configuration)
        return try NativeVideoEncoder(configuration: configuration, engineName: name, reconstructionHandler: reconstructionHandler,
                                      sliceLayout: layout, threadCount: threads)
    }

    /// The slice layout and thread count of an encoder for `configuration`. With
    /// ``CompressionConfiguration/threadCount`` (at most ``threadLimit``): that many threads, and as many slices unless
    /// the engine has a layout of its own (sliced threads: the slices of a picture are coded at the same time).
    /// Without it: the engine's layout on up to ``threadLimit`` threads (one thread for one slice, as before).
    /// - Parameter configuration: the session's properties.
    /// - Returns: the layout and the thread count.
    public func threading(for configuration: CompressionConfiguration) -> (layout: NativeH264Encoder.SliceLayout, threads: Int) {
        let cap = min(threadLimit ?? NativeH264Encoder.maximumThreadCount, NativeH264Encoder.maximumThreadCount)
        guard let asked = configuration.threadCount else {
            return (sliceLayout, sliceLayout == .single ? 1 : threadLimit ?? NativeH264Encoder.availableProcessorCount)
        }
        let threads = min(asked.resolved(processors: NativeH264Encoder.availableProcessorCount), cap)
        return (sliceLayout != .single ? sliceLayout : threads > 1 ? .count(threads) : .single, threads)
    }

    /// Makes an H.264 decoder (``NativeH264Decoder``: Constrained Baseline, CAVLC).
    /// - Parameters:
    ///   - format: the stream's format; its parameter sets are decoded before the first frame.
    ///   - output: the picture layout.
    /// - Returns: a decoder.
    /// - Throws: ``CodecError/noEngine(_:)`` for a codec other than H.264.
    public func makeVideoDecoder(_ format: FormatDescription, output: PixelFormat) throws(CodecError) -> any VideoDecoder {
        guard format.codec == .h264 else { throw .noEngine("engine native decodes H.264 only, not \(format.codec.rawValue)") }
        return NativeVideoDecoder(output: output)
    }

    /// Makes the pure-Swift AAC-LC encoder (`NativeAACAudioEncoder`).
    /// - Parameter configuration: the audio session's properties.
    /// - Returns: an encoder of raw AAC-LC frames with 1024 samples of priming, as FFmpeg's `aac`.
    /// - Throws: ``CodecError/noEngine(_:)`` for a codec other than AAC;
    ///   ``CodecError/invalidConfiguration(property:reason:)`` for a rate or channel count AAC cannot carry.
    public func makeAudioEncoder(_ configuration: AudioEncoderConfiguration) throws(CodecError) -> any AudioEncoder {
        guard configuration.codec == .aac else { throw .noEngine("engine native cannot encode \(configuration.codec.rawValue) audio") }
        return try NativeAACAudioEncoder(configuration: configuration)
    }

    /// Makes the pure-Swift AAC-LC decoder.
    /// - Parameter format: the stream's format with its AudioSpecificConfig.
    /// - Returns: a decoder giving 32-bit float planar PCM, concealing damaged frames.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` naming the object type of HE-AAC
    ///   and other non-LC streams; ``CodecError/inputMismatch(_:)`` for a codec other than AAC.
    public func makeAudioDecoder(_ format: AudioFormatDescription) throws(CodecError) -> any AudioDecoder {
        try NativeAACAudioDecoder(format: format)
    }
}
