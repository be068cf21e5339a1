import Capture
import Codecs
import MediaCore

/// The pictures of an encoded source, decoded: an `.mp4`, `.flv` or Annex B file (or a received stream) played as
/// a camera, so a ``LivePipeline`` can encode it again — a transcode (`ffmpeg -i in.mp4 -c:v libx264 …`). The source's
/// audio is not used.
///
/// The encoded pictures are fed to a ``DecompressionSession`` by a task of its own while ``nextFrame()`` takes the
/// decoded ones, in display order with the source's own presentation times; each picture lasts until the next one
/// starts (the gap between their times), so a stream with B-frames or a variable frame rate keeps its timing; the
/// last one lasts as long as the one before it (the nominal frame duration when there is only one). A picture that
/// cannot be decoded is skipped until the next key frame and counted in ``droppedFrameCount``.
public actor DecodedVideoSource: VideoSource {
    /// The encoded source's name.
    public nonisolated let name: String
    /// The picture width.
    public nonisolated let width: Int
    /// The picture height.
    public nonisolated let height: Int
    /// The source's frame rate (25 when it does not say).
    public nonisolated let frameRate: Double
    /// The layout of the decoded pictures.
    public nonisolated let format: PixelFormat
    /// Pictures not decoded (withheld until a key frame after a damaged one).
    public private(set) var droppedFrameCount = 0

    private let session: DecompressionSession
    private let outputs: SessionOutputStream<DecompressionOutput>
    private let feeder: Task<LiveSourceError?, Never>
    private let frameDuration: MediaTime
    private var isStopped = false
    /// The picture read ahead: its duration is known once the next one's time is.
    private var pending: DecodedPicture?
    /// The duration of the last picture handed out.
    private var lastDuration: MediaTime?

    /// Opens an encoded source and starts decoding its video.
    /// - Parameters:
    ///   - source: the encoded media (its audio is ignored).
    ///   - format: the layout of the decoded pictures.
    ///   - registry: the engines to decode with.
    /// - Returns: the source of decoded pictures.
    /// - Throws: ``LiveSourceError`` when the source cannot be opened, has no video, or no engine decodes it.
    public static func open(_ source: any EncodedMediaSource, format: PixelFormat = .i420,
                            registry: CodecEngineRegistry = .default) async throws(LiveSourceError) -> DecodedVideoSource {
        let stream = try await source.open()
        guard let video = stream.video else {
            throw LiveSourceError(source: source.name, kind: .unsupported, reason: "it has no video to decode")
        }
        let session: DecompressionSession
        do {
            session = try DecompressionSession(format: video, registry: registry, outputFormat: format)
        } catch {
            throw LiveSourceError(source: source.name, kind: .unsupported, reason: "\(error)")
        }
        return DecodedVideoSource(source: source, session: session, video: video, frameRate: stream.frameRate, format: format)
    }

    private init(source: any EncodedMediaSource, session: DecompressionSession, video: FormatDescription, frameRate: Double,
                 format: PixelFormat) {
        name = source.name
        width = video.width
        height = video.height
        self.frameRate = frameRate > 0 ? frameRate : 25
        self.format = format
        self.session = session
        outputs = session.outputs
        let rate = (self.frameRate * 1000).rounded()
        frameDuration = MediaTime(value: 1000, timescale: Int32(clamping: Int(rate)))
        feeder = Task {
            var failure: LiveSourceError?
            do throws(LiveSourceError) {
                while let media = try await source.next() {
                    guard case let .video(frame) = media else { continue }
                    do throws(CodecError) {
                        try await session.decode(frame)
                    } catch {
                        // A picture that cannot be decoded is withheld; decoding goes on at the next key frame.
                        guard case .undecodableFrame = error else {
                            failure = LiveSourceError(source: source.name, kind: .malformed, reason: "\(error)")
                            break
                        }
                    }
                }
            } catch {
                failure = error
            }
            await source.stop()
            _ = try? await session.close()
            return failure
        }
    }

    /// The next decoded picture, in display order.
    /// - Returns: the picture with its presentation time and its duration (up to the next picture's time), or `nil`
    ///   after the last one or once stopped.
    /// - Throws: ``CaptureError/fileUnreadable(path:reason:)`` when the source failed midway.
    public func nextFrame() async throws(CaptureError) -> CapturedFrame? {
        while !isStopped, let output = await Self.nextOutput(of: outputs) {
            switch output {
            case let .picture(decoded):
                guard let previous = pending else {
                    pending = decoded
                    continue
                }
                pending = decoded
                let gap = decoded.pts - previous.pts
                let duration = gap.value > 0 ? gap : (lastDuration ?? frameDuration)
                lastDuration = duration
                return CapturedFrame(pixelBuffer: previous.picture, pts: previous.pts, duration: duration)
            case .withheld, .droppedPicture:
                droppedFrameCount += 1
            }
        }
        if let last = pending, !isStopped {
            pending = nil
            return CapturedFrame(pixelBuffer: last.picture, pts: last.pts, duration: lastDuration ?? frameDuration)
        }
        if let failure = await feeder.value { throw .fileUnreadable(path: name, reason: failure.reason) }
        return nil
    }

    /// The session's next output. Its iterator holds no state of its own (the stream does), so a fresh one per call
    /// reads on where the last left off.
    private nonisolated static func nextOutput(of stream: SessionOutputStream<DecompressionOutput>) async -> DecompressionOutput? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }

    /// Stops decoding; a later ``nextFrame()`` returns `nil`.
    public func stop() async {
        isStopped = true
        feeder.cancel()
    }
}
