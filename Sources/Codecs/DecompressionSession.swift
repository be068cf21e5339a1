import MediaCore
import Synchronization

/// A video decompression session — StreamKit's `VTDecompressionSession`.
///
/// Build it from a ``FormatDescription`` (as `CMVideoFormatDescriptionCreateFromH264ParameterSets`
/// then `VTDecompressionSessionCreate` do) and give it ``EncodedFrame``s, or build it for an Annex B
/// stream and give it raw bytes in chunks: it collects the parameter sets, starts at the first key
/// frame and reports what comes before, as the seeds' decoder does. Everything comes out of
/// ``outputs``, made with the session: pictures in display order in the layout asked for (NV12 by
/// default), and, in their place, the frames withheld after a failure.
///
/// A frame that cannot be decoded throws ``CodecError/undecodableFrame(_:reason:)`` from the call that
/// gave it, naming its index and pts; the pictures before it still come out, the frames after it are
/// withheld (and reported) until the next key frame, where decoding goes on. ``close()`` returns a
/// ``SessionReport`` with every failure. The engine runs on the session's own serial worker.
public final class DecompressionSession: Sendable {
    /// The layout of the pictures produced.
    public let outputFormat: PixelFormat
    /// What happens when ``outputs`` is full: ``OutputPolicy/wait`` suspends `decode`;
    /// ``OutputPolicy/drop`` drops the oldest buffered picture (decoded pictures depend on nothing).
    public let outputPolicy: OutputPolicy
    /// Every output of the session, in display order; finishes after ``close()``.
    public let outputs: SessionOutputStream<DecompressionOutput>

    private struct State {
        var decoder: (any VideoDecoder)?
        var assembler: AnnexBFrameAssembler?
        /// Annex B events not yet decoded (the rest of a chunk after a failure).
        var pendingEvents: [AnnexBFrameAssembler.Event] = []
        var format: FormatDescription?
        var engineName: String?
        var closed = false
        var received = 0
        var emitted = 0
        var withheld = 0
        var failures: [CodecError] = []
        var failureCount = 0
        /// After a failure: decode nothing until a key frame (its index).
        var failedAt: Int?
        var outputIndex: Int64 = 0
    }

    private let registry: CodecEngineRegistry
    private let requestedEngine: String?
    /// Touched only on the worker, outside any lock.
    private let state: WorkerConfined<State>
    /// What callers may read while the worker runs: engine name, format, skips.
    private let published: Mutex<(engineName: String?, format: FormatDescription?, skips: [AnnexBFrameAssembler.Skip])>
    private let worker = SessionWorker(label: "streamkit.decompression")

    /// Creates a session for frames of a known format.
    /// - Parameters:
    ///   - format: the stream's format with its parameter sets.
    ///   - registry: the engines to choose from (every engine of this build by default).
    ///   - outputFormat: the layout of the decoded pictures.
    ///   - engineName: a specific engine, or `nil` for the registry's choice.
    ///   - outputPolicy: what to do when the consumer of ``outputs`` falls behind.
    ///   - outputCapacity: the most pictures ``outputs`` holds (at least 2).
    /// - Throws: ``CodecError/noEngine(_:)`` when nothing here decodes the codec.
    public init(format: FormatDescription, registry: CodecEngineRegistry = .default, outputFormat: PixelFormat = .nv12,
                engineName: String? = nil, outputPolicy: OutputPolicy = .wait, outputCapacity: Int = 16) throws(CodecError) {
        try Self.check(outputCapacity)
        let engine = try registry.decoderEngine(for: format.codec, named: engineName)
        let decoder = try engine.makeVideoDecoder(format, output: outputFormat)
        self.registry = registry
        self.requestedEngine = engineName
        self.outputFormat = outputFormat
        self.outputPolicy = outputPolicy
        self.outputs = SessionOutputStream(capacity: outputCapacity)
        state = WorkerConfined(State(decoder: decoder, format: format, engineName: engine.name))
        published = Mutex((engine.name, format, []))
    }

    /// Creates a session for an Annex B stream whose parameter sets arrive in-band.
    /// - Parameters:
    ///   - codec: ``CodecType/h264`` or ``CodecType/hevc``.
    ///   - registry: the engines to choose from (every engine of this build by default).
    ///   - outputFormat: the layout of the decoded pictures.
    ///   - engineName: a specific engine, or `nil` for the registry's choice.
    ///   - outputPolicy: what to do when the consumer of ``outputs`` falls behind.
    ///   - outputCapacity: the most pictures ``outputs`` holds (at least 2).
    /// - Throws: ``CodecError/noEngine(_:)`` when nothing here decodes the codec.
    public init(annexBStreamOf codec: CodecType, registry: CodecEngineRegistry = .default, outputFormat: PixelFormat = .nv12,
                engineName: String? = nil, outputPolicy: OutputPolicy = .wait, outputCapacity: Int = 16) throws(CodecError) {
        guard codec.isVideo else { throw .inputMismatch("\(codec.rawValue) is not a video codec") }
        try Self.check(outputCapacity)
        _ = try registry.decoderEngine(for: codec, named: engineName)  // fail now, not at the first key frame
        self.registry = registry
        self.requestedEngine = engineName
        self.outputFormat = outputFormat
        self.outputPolicy = outputPolicy
        self.outputs = SessionOutputStream(capacity: outputCapacity)
        state = WorkerConfined(State(assembler: AnnexBFrameAssembler(codec: codec)))
        published = Mutex((nil, nil, []))
    }

    /// The engine decoding the stream, once known.
    public var engineName: String? { published.withLock { $0.engineName } }

    /// The stream's format, once known.
    public var format: FormatDescription? { published.withLock { $0.format } }

    /// What an Annex B session skipped so far (access units before the first key frame, unreadable NAL units).
    public var skips: [AnnexBFrameAssembler.Skip] { published.withLock { $0.skips } }

    /// Decodes one frame (`VTDecompressionSessionDecodeFrame`); its pictures go to ``outputs``.
    /// - Parameter frame: an access unit in AVCC form.
    /// - Throws: ``CodecError/undecodableFrame(_:reason:)`` naming this frame when it cannot be decoded
    ///   (decoding goes on at the next key frame); ``CodecError/sessionClosed``.
    public func decode(_ frame: EncodedFrame) async throws(CodecError) {
        if outputPolicy == .wait { await outputs.waitForRoom() }
        try await worker.run { () throws(CodecError) in
            try self.withState { (state: inout State) throws(CodecError) in
                guard !state.closed else { throw CodecError.sessionClosed }
                guard state.assembler == nil else {
                    throw CodecError.inputMismatch("this session decodes Annex B bytes, not EncodedFrames")
                }
                try self.decode(frame, state: &state)
            }
        }
    }

    /// Decodes the next bytes of an Annex B stream (a session made with
    /// ``init(annexBStreamOf:registry:outputFormat:engineName:outputPolicy:outputCapacity:)``).
    /// Frames are decoded in order; at the first one that fails this throws, and the rest of the chunk
    /// is decoded by the next call (or ``flush()``).
    /// - Parameter chunk: bytes of any length, split anywhere.
    /// - Throws: ``CodecError/undecodableFrame(_:reason:)`` naming the frame (an unreadable NAL unit
    ///   inside a frame counts as a failure of that frame); ``CodecError/sessionClosed``.
    public func decode<Bytes: Sequence & Sendable>(annexB chunk: Bytes) async throws(CodecError) where Bytes.Element == UInt8 {
        if outputPolicy == .wait { await outputs.waitForRoom() }
        try await worker.run { () throws(CodecError) in
            try self.withState { (state: inout State) throws(CodecError) in
                guard !state.closed else { throw CodecError.sessionClosed }
                guard state.assembler != nil else {
                    throw CodecError.inputMismatch("this session decodes EncodedFrames, not Annex B bytes")
                }
                state.pendingEvents += state.assembler?.events(appending: chunk) ?? []
                try self.decodePendingEvents(state: &state)
            }
        }
    }

    /// Outputs every picture still held (`VTDecompressionSessionWaitForAsynchronousFrames`); the end of
    /// an Annex B stream is processed first.
    /// - Throws: ``CodecError/undecodableFrame(_:reason:)`` for a frame at the end that fails;
    ///   ``CodecError/noDecodableFrames(bytes:reason:)`` when a whole Annex B stream held no decodable
    ///   frame; the engine's ``CodecError`` when it cannot drain.
    public func flush() async throws(CodecError) {
        try await worker.run { () throws(CodecError) in
            try self.withState { (state: inout State) throws(CodecError) in try self.flush(state: &state) }
        }
    }

    /// Flushes and ends the session; ``outputs`` finishes once read.
    /// - Returns: what went in and came out, every frame that failed and how many were withheld.
    /// - Throws: the engine's ``CodecError`` when it could not drain, or
    ///   ``CodecError/noDecodableFrames(bytes:reason:)`` (the session is closed anyway).
    public func close() async throws(CodecError) -> SessionReport {
        var drainError: CodecError?
        // Decode everything still pending; failures on the way are recorded in the report.
        while true {
            do throws(CodecError) {
                try await flush()
                break
            } catch {
                guard case .undecodableFrame = error else { drainError = error; break }
            }
        }
        let report = await worker.perform { () -> SessionReport in
            self.withState { state in
                state.decoder = nil
                state.closed = true
                return SessionReport(received: state.received, emitted: state.emitted, dropped: state.withheld,
                                     failures: state.failures, failureCount: state.failureCount)
            }
        }
        outputs.finish()
        if let drainError { throw drainError }
        return report
    }

    deinit {
        outputs.finish()
    }

    // MARK: - On the worker

    /// Runs `body` on the worker-confined state, then publishes what callers may read.
    private func withState<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        defer {
            let snapshot = (state.value.engineName, state.value.format, state.value.assembler?.skips ?? [])
            published.withLock { $0 = snapshot }
        }
        return try body(&state.value)
    }

    private static func check(_ capacity: Int) throws(CodecError) {
        guard capacity >= 2 else {
            throw .invalidConfiguration(property: .outputCapacity, reason: "must be at least 2, got \(capacity)")
        }
    }

    private func flush(state: inout State) throws(CodecError) {
        if let events = state.assembler?.finishEvents() { state.pendingEvents += events }
        try decodePendingEvents(state: &state)
        if let assembler = state.assembler, assembler.frameCount == 0, assembler.byteCount > 0, state.failedAt == nil {
            let reason = assembler.skips.isEmpty ? "no key frame with its parameter sets was found"
                : assembler.skips.map(\.description).joined(separator: "; ")
            let error = CodecError.noDecodableFrames(bytes: assembler.byteCount, reason: reason)
            record(error, state: &state)
            state.failedAt = 0
            throw error
        }
        guard let decoder = state.decoder else { return }
        let pictures = try decoder.flush()
        deliver(stamp(pictures, state: &state), state: &state)
    }

    private func decodePendingEvents(state: inout State) throws(CodecError) {
        while !state.pendingEvents.isEmpty {
            let event = state.pendingEvents.removeFirst()
            switch event {
            case let .frame(frame):
                try decode(frame, state: &state)
            case let .skipped(skip):
                guard case .unreadableNALUnit = skip else { continue }
                // Inside a running stream, a NAL unit that cannot be read breaks the frame it belongs to.
                let step = state.assembler?.frameDuration ?? MediaTime(value: 1, timescale: 25)
                let index = state.received
                state.received += 1
                let position = FramePosition(index: index, pts: MediaTime(value: Int64(index) * step.value, timescale: step.timescale))
                try fail(position, reason: skip.description, state: &state)
            }
        }
    }

    private func decode(_ frame: EncodedFrame, state: inout State) throws(CodecError) {
        let position = FramePosition(index: state.received, pts: frame.pts)
        state.received += 1
        if let failedAt = state.failedAt {
            guard frame.isKeyFrame else {
                state.withheld += 1
                outputs.append(.withheld(position, reason: .afterFailure(ofFrame: failedAt)), isMedia: false, tag: position.index)
                return
            }
            state.failedAt = nil
        }
        do throws(CodecError) {
            if state.decoder == nil {
                let engine = try registry.decoderEngine(for: frame.codec, named: requestedEngine)
                state.decoder = try engine.makeVideoDecoder(frame.format, output: outputFormat)
                state.engineName = engine.name
            }
            state.format = frame.format
            // Published before the frame's pictures are delivered: a consumer that reads `format` on its
            // first picture sees the format that picture has.
            let engineName = state.engineName
            published.withLock { $0.engineName = engineName; $0.format = frame.format }
            guard let decoder = state.decoder else { return }
            let pictures = try decoder.decode(frame)
            deliver(stamp(pictures, state: &state), state: &state)
        } catch {
            switch error {
            case .sessionClosed, .noEngine, .unknownEngine: throw error
            default: try fail(position, reason: Self.reason(of: error), state: &state)
            }
        }
    }

    /// Records a failure at `position`, drains the pictures before it, and withholds until a key frame.
    private func fail(_ position: FramePosition, reason: String, state: inout State) throws(CodecError) {
        let error = CodecError.undecodableFrame(position, reason: reason)
        record(error, state: &state)
        state.failedAt = position.index
        if let decoder = state.decoder {
            do throws(CodecError) {
                deliver(stamp(try decoder.flush(), state: &state), state: &state)
            } catch {
                // The drain failed as well: the decoder is restarted at the next key frame.
                state.decoder = nil
            }
        }
        throw error
    }

    private func record(_ error: CodecError, state: inout State) {
        state.failureCount += 1
        if state.failures.count < SessionReport.failureLimit { state.failures.append(error) }
    }

    private static func reason(of error: CodecError) -> String {
        switch error {
        case let .engineFailure(text), let .inputMismatch(text): return text
        default: return error.description
        }
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

    private func deliver(_ pictures: [DecodedPicture], state: inout State) {
        for picture in pictures {
            state.emitted += 1
            switch outputPolicy {
            case .wait:
                outputs.append(.picture(picture), isMedia: true, tag: 0)
            case .drop:
                let droppedOldest = outputs.update { slots -> Bool in
                    var dropped = false
                    if slots.count(where: \.isMedia) >= outputs.capacity, let oldest = slots.firstIndex(where: \.isMedia),
                       case let .picture(old) = slots[oldest].element {
                        slots[oldest] = .init(element: .droppedPicture(pts: old.pts), isMedia: false, tag: 0)
                        dropped = true
                    }
                    slots.append(.init(element: .picture(picture), isMedia: true, tag: 0))
                    return dropped
                }
                if droppedOldest { state.emitted -= 1; state.withheld += 1 }
            }
        }
    }
}

/// What a decompression session delivers, in order, through ``DecompressionSession/outputs``.
public enum DecompressionOutput: Sendable, Hashable {
    /// A decoded picture, in display order.
    case picture(DecodedPicture)
    /// A frame that was not decoded: decoding resumes at the next key frame.
    case withheld(FramePosition, reason: WithholdReason)
    /// ``OutputPolicy/drop``: the buffer was full, so this decoded picture (the oldest) was dropped.
    case droppedPicture(pts: MediaTime)
}

/// Why a decompression session did not decode a frame.
public enum WithholdReason: Sendable, Hashable {
    /// An earlier frame (this index) failed; the frames that may reference it wait for the next key frame.
    case afterFailure(ofFrame: Int)
}
