import Capture
import Containers
import MediaCore

/// A video file played as a camera: a `.y4m` file (its header gives the size and rate) or a raw `.yuv` file
/// (size, rate and layout given), in real time or as fast as the pipeline takes it, once or looping — with
/// timestamps that go on growing across loops, as a camera's do. `ffmpeg -re -stream_loop -1 -i x.y4m`.
///
/// ```swift
/// let file = try VideoFileSource(y4mPath: "clip.y4m", pacing: .realTime, loops: true)
/// let pipeline = LivePipeline(video: file, audio: nil, configuration: LiveConfiguration(video: video))
/// ```
public actor VideoFileSource: VideoSource {
    /// The reader of one pass through the file.
    private enum Reader {
        case y4m(Y4MReader<FileByteSource>)
        case raw(RawVideoReader<FileByteSource>)
    }

    /// The file's path and what it is, for people.
    public nonisolated let name: String
    /// The picture width in pixels.
    public nonisolated let width: Int
    /// The picture height in pixels.
    public nonisolated let height: Int
    /// Pictures per second: the `.y4m` header's rate (25 when it has none), or the rate given for raw video.
    public nonisolated let frameRate: Double
    /// The layout of the pictures.
    public nonisolated let format: PixelFormat
    /// Always 0: a file never drops.
    public var droppedFrameCount: Int { 0 }

    private let path: String
    private let reopen: @Sendable () throws(CaptureError) -> Reader
    private let frameDuration: MediaTime
    private let loops: Bool
    private var reader: Reader?
    private var pace: PaceKeeper
    private var index: Int64 = 0
    private var picturesInPass = 0
    private var isStopped = false

    /// Opens a `.y4m` file (YUV4MPEG2: its header gives the size, rate and chroma layout).
    /// - Parameters:
    ///   - path: the file.
    ///   - pacing: real time (a stand-in camera) or as fast as possible.
    ///   - loops: whether it starts again at its end.
    /// - Throws: ``CaptureError/fileUnreadable(path:reason:)`` when it cannot be opened or its header is malformed.
    public init(y4mPath path: String, pacing: Pacing = .realTime, loops: Bool = false) throws(CaptureError) {
        let open: @Sendable () throws(CaptureError) -> Reader = { () throws(CaptureError) -> Reader in
            do { return .y4m(try Y4MReader(path: path)) } catch { throw .fileUnreadable(path: path, reason: "\(error)") }
        }
        let first = try open()
        guard case let .y4m(reader) = first else { throw .fileUnreadable(path: path, reason: "not a Y4M file") }
        let header = reader.header
        let rate = header.frameRate.flatMap { $0.isValid ? $0 : nil } ?? Y4MRatio(25, 1)
        self.init(path: path, reader: first, reopen: open, width: header.width, height: header.height,
                  frameRate: Double(rate.numerator) / Double(rate.denominator),
                  frameDuration: MediaTime(value: Int64(rate.denominator), timescale: Int32(clamping: rate.numerator)),
                  format: .i420, pacing: pacing, loops: loops)
    }

    /// Opens a raw video file: pictures back to back, no header.
    /// - Parameters:
    ///   - path: the file.
    ///   - width: picture width.
    ///   - height: picture height.
    ///   - format: the pixel layout (I420, NV12 …).
    ///   - frameRate: pictures per second (a whole number).
    ///   - pacing: real time (a stand-in camera) or as fast as possible.
    ///   - loops: whether it starts again at its end.
    /// - Throws: ``CaptureError/fileUnreadable(path:reason:)`` when it cannot be opened or the size is invalid.
    public init(rawPath path: String, width: Int, height: Int, format: PixelFormat, frameRate: Int,
                pacing: Pacing = .realTime, loops: Bool = false) throws(CaptureError) {
        guard frameRate > 0 else { throw .invalidConfiguration(parameter: "frameRate", reason: "must be at least 1") }
        let open: @Sendable () throws(CaptureError) -> Reader = { () throws(CaptureError) -> Reader in
            do {
                return .raw(try RawVideoReader(path: path, width: width, height: height, format: format))
            } catch {
                throw .fileUnreadable(path: path, reason: "\(error)")
            }
        }
        self.init(path: path, reader: try open(), reopen: open, width: width, height: height, frameRate: Double(frameRate),
                  frameDuration: MediaTime(value: 1, timescale: Int32(clamping: frameRate)), format: format,
                  pacing: pacing, loops: loops)
    }

    private init(path: String, reader: Reader, reopen: @escaping @Sendable () throws(CaptureError) -> Reader,
                 width: Int, height: Int, frameRate: Double, frameDuration: MediaTime, format: PixelFormat,
                 pacing: Pacing, loops: Bool) {
        self.path = path
        self.reader = reader
        self.reopen = reopen
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameDuration = frameDuration
        self.format = format
        self.pace = PaceKeeper(pacing: pacing)
        self.loops = loops
        let rate = frameRate == frameRate.rounded() ? "\(Int(frameRate))" : "\(frameRate)"
        name = "\(path) (\(width)x\(height)@\(rate)\(loops ? ", looping" : ""))"
    }

    /// The next picture, at its time when paced; after the last one, the first again when looping.
    /// - Returns: the picture with its time (`index × frame duration`), or `nil` at the end or once stopped.
    /// - Throws: ``CaptureError/fileUnreadable(path:reason:)`` when the file is damaged midway.
    public func nextFrame() async throws(CaptureError) -> CapturedFrame? {
        guard !isStopped, !Task.isCancelled else {
            isStopped = true
            return nil
        }
        guard let picture = try readPicture() else {
            isStopped = true
            return nil
        }
        let pts = MediaTime(value: index * frameDuration.value, timescale: frameDuration.timescale)
        guard await PaceKeeper.sleep(until: pace.deadline(for: pts)), !isStopped else {
            isStopped = true
            return nil
        }
        index += 1
        return CapturedFrame(pixelBuffer: picture, pts: pts, duration: frameDuration)
    }

    /// Ends the stream; a later ``nextFrame()`` returns `nil`.
    public func stop() {
        isStopped = true
        reader = nil
    }

    private func readPicture() throws(CaptureError) -> PixelBuffer? {
        for _ in 0..<2 {
            guard var current = reader else { return nil }
            let picture: PixelBuffer?
            do {
                switch current {
                case var .y4m(file):
                    picture = try file.nextFrame()
                    current = .y4m(file)
                case var .raw(file):
                    picture = try file.nextFrame()
                    current = .raw(file)
                }
            } catch {
                throw .fileUnreadable(path: path, reason: "\(error)")
            }
            if let picture {
                reader = current
                picturesInPass += 1
                return picture
            }
            // The end of a pass: start again when looping (a file with no picture at all ends).
            guard loops, picturesInPass > 0 else { return nil }
            picturesInPass = 0
            reader = try reopen()
        }
        return nil
    }
}
