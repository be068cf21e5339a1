import MediaCore
import Synchronization

/// What a compression session delivers for each picture it was given — the output callback of
/// `VTCompressionSessionEncodeFrame`, where a dropped frame is reported with
/// `kVTEncodeInfo_FrameDropped`, never silently.
public enum CompressionOutput: Sendable, Hashable {
    /// An encoded picture, in decode order.
    case frame(EncodedFrame)
    /// A picture the engine dropped, with its presentation time and the reason.
    case dropped(pts: MediaTime, reason: String)
}

/// A video compression session — StreamKit's `VTCompressionSession`.
///
/// Create it with a ``CompressionConfiguration``; give it pictures with
/// ``encode(_:pts:duration:forceKeyFrame:)``; read encoded frames from ``outputs`` (an `AsyncStream`),
/// from the callback passed at creation, or from the return values. ``flush()`` returns every pending
/// frame (`VTCompressionSessionCompleteFrames`), ``close()`` ends the session and the stream
/// (`VTCompressionSessionInvalidate`). Calls may come from any thread; they are serialised.
public final class CompressionSession: Sendable {
    /// The properties the session was created with.
    public let configuration: CompressionConfiguration
    /// The name of the engine serving the session, for example "x264" or "h264_vaapi".
    public let engineName: String
    /// Whether that engine is hardware.
    public let isHardware: Bool
    /// Every output of the session from the first time this is read, in order; finishes on ``close()``.
    /// Read it before encoding (nothing is buffered for it until then).
    public var outputs: AsyncStream<CompressionOutput> { outputStream.stream }

    private struct State {
        var encoder: (any VideoEncoder)?
        var lastPTS: MediaTime?
        var framesIn = 0
        var framesOut = 0
        var dropped = 0
    }

    private let state: Mutex<State>
    private let outputStream = SessionOutputStream<CompressionOutput>()
    private let handler: (@Sendable (CompressionOutput) -> Void)?

    /// Creates a session (`VTCompressionSessionCreate`).
    /// - Parameters:
    ///   - configuration: the properties; checked before any engine is touched.
    ///   - registry: the engines to choose from.
    ///   - outputHandler: called with every output, in order, on the caller's thread.
    /// - Throws: ``CodecError`` for an invalid configuration, a property the engine cannot honour, or
    ///   no engine at all.
    public init(configuration: CompressionConfiguration, registry: CodecEngineRegistry,
                outputHandler: (@Sendable (CompressionOutput) -> Void)? = nil) throws(CodecError) {
        try configuration.validate()
        let engine = try registry.encoderEngine(for: configuration)
        let encoder = try engine.makeVideoEncoder(configuration)
        self.configuration = configuration
        self.engineName = engine.name
        self.isHardware = engine.isHardware
        self.handler = outputHandler
        state = Mutex(State(encoder: encoder))
    }

    /// Encodes one picture (`VTCompressionSessionEncodeFrame`).
    /// - Parameters:
    ///   - picture: the picture; its size must match the configuration. Any of the four layouts.
    ///   - pts: its presentation time; must increase from picture to picture.
    ///   - duration: how long it is shown.
    ///   - forceKeyFrame: make it a key frame.
    /// - Returns: the frames that became ready (also delivered to ``outputs`` and the handler).
    /// - Throws: ``CodecError``.
    @discardableResult
    public func encode(_ picture: PixelBuffer, pts: MediaTime, duration: MediaTime,
                       forceKeyFrame: Bool = false) throws(CodecError) -> [EncodedFrame] {
        guard picture.width == configuration.width, picture.height == configuration.height else {
            throw .inputMismatch("picture is \(picture.width)x\(picture.height), session is \(configuration.width)x\(configuration.height)")
        }
        let frames = try state.withLock { (state: inout State) throws(CodecError) -> [EncodedFrame] in
            guard let encoder = state.encoder else { throw CodecError.sessionClosed }
            if let last = state.lastPTS, !(last < pts) {
                throw CodecError.inputMismatch("pts \(pts) does not follow \(last)")
            }
            state.lastPTS = pts
            state.framesIn += 1
            let frames = try encoder.encode(picture, pts: pts, duration: duration, forceKeyFrame: forceKeyFrame)
            state.framesOut += frames.count
            return frames
        }
        deliver(frames)
        return frames
    }

    /// Returns every pending frame (`VTCompressionSessionCompleteFrames`). Nothing is lost: after the
    /// flush, every picture given to the session has come out as a frame or been reported dropped.
    /// - Returns: the remaining frames in decode order.
    /// - Throws: ``CodecError``.
    @discardableResult
    public func flush() throws(CodecError) -> [EncodedFrame] {
        let (frames, missing) = try state.withLock { (state: inout State) throws(CodecError) -> ([EncodedFrame], Int) in
            guard let encoder = state.encoder else { return ([], 0) }
            let frames = try encoder.flush()
            state.framesOut += frames.count
            let missing = max(0, state.framesIn - state.framesOut - state.dropped)
            state.dropped += missing
            return (frames, missing)
        }
        deliver(frames)
        if missing > 0 {
            report(.dropped(pts: .zero, reason: "the engine returned \(missing) fewer frames than it was given"))
        }
        return frames
    }

    /// Flushes and ends the session (`VTCompressionSessionInvalidate`); ``outputs`` finishes.
    /// Further calls to ``encode(_:pts:duration:forceKeyFrame:)`` throw ``CodecError/sessionClosed``.
    /// - Returns: the frames that were still pending.
    @discardableResult
    public func close() -> [EncodedFrame] {
        let frames = (try? flush()) ?? []
        state.withLock { $0.encoder = nil }
        outputStream.finish()
        return frames
    }

    /// How many pictures went in, came out, and were dropped so far.
    public var counts: (received: Int, emitted: Int, dropped: Int) {
        state.withLock { ($0.framesIn, $0.framesOut, $0.dropped) }
    }

    deinit {
        outputStream.finish()
    }

    private func deliver(_ frames: [EncodedFrame]) {
        for frame in frames { report(.frame(frame)) }
    }

    private func report(_ output: CompressionOutput) {
        outputStream.yield(output)
        handler?(output)
    }
}
