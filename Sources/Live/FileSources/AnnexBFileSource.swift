import Codecs
import Containers
import MediaCore

/// An Annex B file (`.h264`, `.h265`) sent as it is. It carries no time: pictures go out at the SPS's frame rate
/// (else 25 fps); H.264 pictures get their presentation times from the slices' picture order counts, H.265 ones
/// pts = dts (see ``AnnexBFrameAssembler``).
public actor AnnexBFileSource: EncodedMediaSource {
    /// The bytes read from the file at a time.
    static let chunkSize = 1 << 20

    /// The file's path.
    public nonisolated let name: String
    /// The codec.
    public nonisolated let codec: CodecType

    private var file: FileByteSource?
    private var assembler: AnnexBFrameAssembler
    private var ready: [EncodedFrame] = []
    /// The read buffer, reused for every chunk.
    private var chunk = [UInt8](repeating: 0, count: chunkSize)
    private var pace: PaceKeeper
    private var isStopped = false

    /// Prepares to read the file (it is opened by ``open()``).
    /// - Parameters:
    ///   - path: the file.
    ///   - codec: `.h264` or `.hevc`.
    ///   - pacing: real time (as a live stream) or as fast as possible.
    public init(path: String, codec: CodecType, pacing: Pacing = .realTime) {
        name = path
        self.codec = codec
        assembler = AnnexBFrameAssembler(codec: codec)
        pace = PaceKeeper(pacing: pacing)
    }

    /// Opens the file and reads up to its first picture.
    /// - Returns: the video format (with the parameter sets) and the frame rate.
    /// - Throws: ``LiveSourceError`` when the file cannot be opened or holds no picture.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        do { file = try FileByteSource(path: name) } catch { throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error)") }
        guard let first = try readFrame() else {
            throw LiveSourceError(source: name, kind: .unsupported, reason: "it holds no \(codec.rawValue) picture")
        }
        ready.insert(first, at: 0)
        let rate = assembler.frameDuration.seconds > 0 ? 1 / assembler.frameDuration.seconds : 25
        return LiveStreamDescription(video: first.format, audio: nil, frameRate: rate)
    }

    /// The next picture, at its decode time when paced.
    /// - Returns: the picture, or `nil` at the end or once stopped.
    /// - Throws: ``LiveSourceError`` when reading fails.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        guard !isStopped, let frame = try readFrame() else { return nil }
        guard await PaceKeeper.sleep(until: pace.deadline(for: frame.dts)), !isStopped else {
            isStopped = true
            return nil
        }
        return .video(frame)
    }

    /// Ends the source.
    public func stop() {
        isStopped = true
        closeFile()
        ready = []
    }

    private func closeFile() {
        try? file?.close()
        file = nil
    }

    private func readFrame() throws(LiveSourceError) -> EncodedFrame? {
        while ready.isEmpty {
            guard let file else { return nil }
            let count: Int
            do { count = try chunk.withUnsafeMutableBytes { buffer in try file.read(into: buffer) } } catch {
                throw LiveSourceError(source: name, kind: .malformed, reason: "\(error)")
            }
            if count == 0 {
                ready = assembler.finish()
                closeFile()
            } else {
                ready = assembler.append(chunk[..<count])
            }
        }
        return ready.removeFirst()
    }
}
