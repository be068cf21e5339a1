import MediaCore
import Synchronization

/// A video decompression session — StreamKit's `VTDecompressionSession`.
///
/// Build it from a ``FormatDescription`` (as `CMVideoFormatDescriptionCreateFromH264ParameterSets`
/// then `VTDecompressionSessionCreate` do) and give it ``EncodedFrame``s, or build it for an Annex B
/// stream and give it raw bytes in chunks: it collects the parameter sets, starts at the first key
/// frame and ignores what comes before, as the seeds' decoder does. Pictures come out in display order
/// in the layout asked for (NV12 by default, like the seeds' `kCVPixelFormatType_420YpCbCr8BiPlanar…`),
/// through the return values, ``pictures`` (an `AsyncStream`) and the callback. ``flush()`` returns
/// every picture still held.
public final class DecompressionSession: Sendable {
    /// The layout of the pictures produced.
    public let outputFormat: PixelFormat
    /// Every decoded picture from the first time this is read, in display order; finishes on ``close()``.
    /// Read it before decoding (nothing is buffered for it until then).
    public var pictures: AsyncStream<DecodedPicture> { outputStream.stream }

    private struct State {
        var decoder: (any VideoDecoder)?
        var assembler: AnnexBFrameAssembler?
        var format: FormatDescription?
        var engineName: String?
        var closed = false
        var outputIndex: Int64 = 0
    }

    private let registry: CodecEngineRegistry
    private let requestedEngine: String?
    private let state: Mutex<State>
    private let outputStream = SessionOutputStream<DecodedPicture>()
    private let handler: (@Sendable (DecodedPicture) -> Void)?

    /// Creates a session for frames of a known format.
    /// - Parameters:
    ///   - format: the stream's format with its parameter sets.
    ///   - registry: the engines to choose from.
    ///   - outputFormat: the layout of the decoded pictures.
    ///   - engineName: a specific engine, or `nil` for the registry's choice.
    ///   - outputHandler: called with every picture, in display order.
    /// - Throws: ``CodecError/noEngine(_:)`` when nothing here decodes the codec.
    public init(format: FormatDescription, registry: CodecEngineRegistry, outputFormat: PixelFormat = .nv12,
                engineName: String? = nil, outputHandler: (@Sendable (DecodedPicture) -> Void)? = nil) throws(CodecError) {
        let engine = try registry.decoderEngine(for: format.codec, named: engineName)
        let decoder = try engine.makeVideoDecoder(format, output: outputFormat)
        self.registry = registry
        self.requestedEngine = engineName
        self.outputFormat = outputFormat
        self.handler = outputHandler
        state = Mutex(State(decoder: decoder, format: format, engineName: engine.name))
    }

    /// Creates a session for an Annex B stream whose parameter sets arrive in-band.
    /// - Parameters:
    ///   - codec: ``CodecType/h264`` or ``CodecType/hevc``.
    ///   - registry: the engines to choose from.
    ///   - outputFormat: the layout of the decoded pictures.
    ///   - engineName: a specific engine, or `nil` for the registry's choice.
    ///   - outputHandler: called with every picture, in display order.
    /// - Throws: ``CodecError/noEngine(_:)`` when nothing here decodes the codec.
    public init(annexBStreamOf codec: CodecType, registry: CodecEngineRegistry, outputFormat: PixelFormat = .nv12,
                engineName: String? = nil, outputHandler: (@Sendable (DecodedPicture) -> Void)? = nil) throws(CodecError) {
        guard codec.isVideo else { throw .inputMismatch("\(codec.rawValue) is not a video codec") }
        _ = try registry.decoderEngine(for: codec, named: engineName)  // fail now, not at the first key frame
        self.registry = registry
        self.requestedEngine = engineName
        self.outputFormat = outputFormat
        self.handler = outputHandler
        state = Mutex(State(assembler: AnnexBFrameAssembler(codec: codec)))
    }

    /// The engine decoding the stream, once known.
    public var engineName: String? { state.withLock { $0.engineName } }

    /// The stream's format, once known.
    public var format: FormatDescription? { state.withLock { $0.format } }

    /// What an Annex B session skipped so far (access units before the first key frame, unreadable NAL units).
    public var skips: [AnnexBFrameAssembler.Skip] { state.withLock { $0.assembler?.skips ?? [] } }

    /// Decodes one frame (`VTDecompressionSessionDecodeFrame`).
    /// - Parameter frame: an access unit in AVCC form.
    /// - Returns: the pictures that became ready, in display order.
    /// - Throws: ``CodecError``.
    @discardableResult
    public func decode(_ frame: EncodedFrame) throws(CodecError) -> [DecodedPicture] {
        let pictures = try state.withLock { (state: inout State) throws(CodecError) -> [DecodedPicture] in
            try decode([frame], state: &state)
        }
        deliver(pictures)
        return pictures
    }

    /// Decodes the next bytes of an Annex B stream (a session made with ``init(annexBStreamOf:registry:outputFormat:engineName:outputHandler:)``).
    /// - Parameter chunk: bytes of any length, split anywhere.
    /// - Returns: the pictures that became ready, in display order.
    /// - Throws: ``CodecError``.
    @discardableResult
    public func decode<Bytes: Sequence>(annexB chunk: Bytes) throws(CodecError) -> [DecodedPicture] where Bytes.Element == UInt8 {
        let pictures = try state.withLock { (state: inout State) throws(CodecError) -> [DecodedPicture] in
            guard state.assembler != nil else { throw CodecError.inputMismatch("this session decodes EncodedFrames, not Annex B bytes") }
            let frames = state.assembler?.append(chunk) ?? []
            return stamp(try decode(frames, state: &state), state: &state)
        }
        deliver(pictures)
        return pictures
    }

    /// Returns every picture still held (`VTDecompressionSessionWaitForAsynchronousFrames`): the end of
    /// an Annex B stream is processed first.
    /// - Returns: the remaining pictures in display order.
    /// - Throws: ``CodecError``.
    @discardableResult
    public func flush() throws(CodecError) -> [DecodedPicture] {
        let pictures = try state.withLock { (state: inout State) throws(CodecError) -> [DecodedPicture] in
            var pictures: [DecodedPicture] = []
            if let frames = state.assembler?.finish() { pictures = try decode(frames, state: &state) }
            if let decoder = state.decoder { pictures += try decoder.flush() }
            return stamp(pictures, state: &state)
        }
        deliver(pictures)
        return pictures
    }

    /// Flushes and ends the session; ``pictures`` finishes.
    /// - Returns: the pictures that were still held.
    @discardableResult
    public func close() -> [DecodedPicture] {
        let pictures = (try? flush()) ?? []
        state.withLock { $0.decoder = nil; $0.closed = true }
        outputStream.finish()
        return pictures
    }

    deinit {
        outputStream.finish()
    }

    private func decode(_ frames: [EncodedFrame], state: inout State) throws(CodecError) -> [DecodedPicture] {
        guard !state.closed else { throw .sessionClosed }
        var pictures: [DecodedPicture] = []
        for frame in frames {
            if state.decoder == nil {
                let engine = try registry.decoderEngine(for: frame.codec, named: requestedEngine)
                state.decoder = try engine.makeVideoDecoder(frame.format, output: outputFormat)
                state.engineName = engine.name
            }
            state.format = frame.format
            if let decoder = state.decoder { pictures += try decoder.decode(frame) }
        }
        return pictures
    }

    /// Annex B carries no time: pictures of an Annex B session are stamped in display (output) order,
    /// one frame duration apart. Sessions fed ``EncodedFrame``s keep the frames' own times.
    private func stamp(_ pictures: [DecodedPicture], state: inout State) -> [DecodedPicture] {
        guard let assembler = state.assembler else { return pictures }
        let step = assembler.frameDuration
        return pictures.map { picture in
            defer { state.outputIndex += 1 }
            return DecodedPicture(picture: picture.picture, pts: MediaTime(value: state.outputIndex * step.value, timescale: step.timescale))
        }
    }

    private func deliver(_ pictures: [DecodedPicture]) {
        for picture in pictures {
            outputStream.yield(picture)
            handler?(picture)
        }
    }
}
