import Codecs
import Containers
import MediaCore
import Synchronization
import Transport

/// A recording of the decoded pictures into a `.y4m` file: each picture goes to a ``DecompressionSession`` as the
/// ``EncodedFrame`` it is — AVCC NAL units and the format's parameter sets, no Annex B round trip and no start-code
/// rescan — and the pictures come out in display order as I420 (YUV4MPEG2, `C420jpeg`). Audio is passed over.
///
/// ```swift
/// let pipeline = LivePipeline(source: RTSPSource(url: url))
/// let pictures = Y4MFileDestination(path: "received.y4m")
/// pipeline.add(pictures, options: .recording())
/// _ = try await pipeline.run()
/// print(pictures.picturesWritten)
/// ```
public final class Y4MFileDestination: LiveDestination {
    private struct State {
        var session: DecompressionSession?
        var writer: Task<Int, any Error>?
        var undecodable = 0
        var written = 0
    }

    /// The file's path.
    public let path: String
    /// The engines to decode with.
    public let registry: CodecEngineRegistry
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }
    /// The pictures alone: the pipeline does not queue audio for it.
    public var tracks: LiveTracks { .video }

    private let state = Mutex(State())

    /// Creates the destination; the decoder and the file are made when the stream starts.
    /// - Parameters:
    ///   - path: the `.y4m` file to write.
    ///   - registry: the engines to decode with (every engine of the build by default).
    public init(path: String, registry: CodecEngineRegistry = .default) {
        self.path = path
        self.registry = registry
    }

    /// Pictures written so far (all of them once ``finish()`` has returned).
    public var picturesWritten: Int { state.withLock { $0.written } }
    /// Pictures the decoder refused (decoding went on at the next key frame).
    public var picturesUndecodable: Int { state.withLock { $0.undecodable } }

    /// Makes the decompression session for the stream's video format.
    /// - Parameter stream: the formats (it needs video).
    /// - Throws: ``LiveDestinationError/missingTrack(_:destination:)`` without video; `CodecError` when nothing here
    ///   decodes the codec.
    public func open(_ stream: LiveStreamDescription) async throws {
        guard let format = stream.video else { throw LiveDestinationError.missingTrack("video", destination: path) }
        let session = try DecompressionSession(format: format, registry: registry, outputFormat: .i420)
        let rate = stream.frameRate > 0 && stream.frameRate < 1000 ? Y4MRatio(Int((stream.frameRate * 1000).rounded()), 1000) : Y4MRatio(30, 1)
        let path = self.path
        let writer = Task { [self] () throws -> Int in
            var file: Y4MWriter<FileByteSink>?
            var written = 0
            var failure: (any Error)?
            for await output in session.outputs {
                guard case let .picture(decoded) = output, failure == nil else { continue }
                do {
                    if file == nil {
                        file = try Y4MWriter(path: path,
                                             header: Y4MHeader(width: decoded.picture.width, height: decoded.picture.height, frameRate: rate))
                    }
                    try file?.write(decoded.picture)
                    written += 1
                    self.state.withLock { $0.written = written }
                } catch {
                    failure = error
                }
            }
            try file?.finish()
            if let failure { throw failure }
            return written
        }
        state.withLock { $0.session = session; $0.writer = writer }
    }

    /// Decodes a picture; audio frames are passed over.
    /// - Parameter media: the frame.
    /// - Throws: `CodecError` when the session failed (a picture that does not decode is counted and skipped).
    public func send(_ media: OutgoingMedia) async throws {
        guard case let .video(frame, _) = media, let session = state.withLock({ $0.session }) else { return }
        do {
            try await session.decode(frame)
        } catch {
            guard case .undecodableFrame = error else { throw error }
            state.withLock { $0.undecodable += 1 }
        }
    }

    /// Drains the decoder and finishes the file.
    /// - Throws: the decoder's or the file's error.
    public func finish() async throws {
        let (session, writer) = state.withLock { ($0.session, $0.writer) }
        if let session { _ = try await session.close() }
        if let writer { _ = try await writer.value }
    }
}
