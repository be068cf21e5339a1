import MediaCore

/// Reads headerless raw video — frames of one size and layout back to back, as
/// `ffmpeg -f rawvideo -pix_fmt yuv420p|nv12|nv21` writes them (YV12: Y, V, U) — into ``PixelBuffer``s.
///
/// The size and layout are not in the file, so the caller gives them. A trailing partial frame is
/// reported after every complete one with
/// ``RawVideoError/truncatedFrame(frameIndex:byteOffset:expectedBytes:availableBytes:)``.
public struct RawVideoReader<Source: ByteSource> {
    /// The width in luma samples.
    public let width: Int
    /// The height in luma samples.
    public let height: Int
    /// The layout of each frame.
    public let format: PixelFormat
    /// The range given to every frame.
    public let range: ColorRange
    /// The number of frames returned so far (the index of the next frame).
    public private(set) var frameIndex = 0
    private let layout: PackedFrameLayout
    private var input: BufferedByteInput<Source>
    private var isDone = false

    /// Creates a reader.
    /// - Parameters:
    ///   - source: the stream, positioned at its first frame.
    ///   - width: the width in luma samples, 1...``Y4MHeader/maximumDimension``.
    ///   - height: the height in luma samples, 1...``Y4MHeader/maximumDimension``.
    ///   - format: the layout of the frames.
    ///   - range: video or full range (the file does not say).
    /// - Throws: ``RawVideoError/invalidSize(width:height:)`` for a size outside the limits.
    public init(source: Source, width: Int, height: Int, format: PixelFormat, range: ColorRange = .video) throws(RawVideoError) {
        let limit = 1...Y4MHeader.maximumDimension
        guard limit.contains(width), limit.contains(height),
              let layout = PackedFrameLayout(width: width, height: height, format: format) else {
            throw .invalidSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.format = format
        self.range = range
        self.layout = layout
        self.input = BufferedByteInput(source: source)
    }

    /// The bytes of one frame.
    public var frameByteCount: Int { layout.frameByteCount }

    /// Reads the next frame.
    /// - Returns: the frame (packed rows), or `nil` at the end of the stream and after an error.
    /// - Throws: ``RawVideoError/truncatedFrame(frameIndex:byteOffset:expectedBytes:availableBytes:)``
    ///   for a partial last frame, ``RawVideoError/io(_:)`` when reading fails.
    public mutating func nextFrame() throws(RawVideoError) -> PixelBuffer? {
        guard !isDone else { return nil }
        let start = input.offset
        var planes: [PixelBuffer.Plane] = []
        var available = 0
        for shape in layout.planes {
            let count = shape.rowLength * shape.rowCount
            let bytes: [UInt8]
            do { bytes = try input.read(count: count) } catch { isDone = true; throw .io(error) }
            available += bytes.count
            guard bytes.count == count else {
                isDone = true
                if available == 0 { return nil }
                throw .truncatedFrame(frameIndex: frameIndex, byteOffset: start, expectedBytes: layout.frameByteCount,
                                      availableBytes: available)
            }
            planes.append(PixelBuffer.Plane(bytes: bytes, bytesPerRow: shape.rowLength, rowLength: shape.rowLength,
                                            rowCount: shape.rowCount))
        }
        let picture: PixelBuffer
        do {
            picture = try PixelBuffer(width: width, height: height, format: format, range: range, planes: planes)
        } catch {
            // The planes were cut to the layout's own shapes, so this cannot happen; report it anyway.
            isDone = true
            throw .invalidSize(width: width, height: height)
        }
        frameIndex += 1
        return picture
    }
}

extension RawVideoReader where Source == MemoryByteSource {
    /// Creates a reader over raw frames in memory (the entry point for tests and fuzzing).
    /// - Parameters:
    ///   - data: the frames.
    ///   - width: the width in luma samples.
    ///   - height: the height in luma samples.
    ///   - format: the layout of the frames.
    ///   - range: video or full range.
    /// - Throws: ``RawVideoError/invalidSize(width:height:)`` for a size outside the limits.
    public init(data: [UInt8], width: Int, height: Int, format: PixelFormat, range: ColorRange = .video) throws(RawVideoError) {
        try self.init(source: MemoryByteSource(data), width: width, height: height, format: format, range: range)
    }
}

extension RawVideoReader where Source == FileByteSource {
    /// Opens a raw video file; frames are read as they are asked for.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - width: the width in luma samples.
    ///   - height: the height in luma samples.
    ///   - format: the layout of the frames.
    ///   - range: video or full range.
    /// - Throws: ``RawVideoError/io(_:)`` when the file cannot be opened, else as ``init(source:width:height:format:range:)``.
    public init(path: String, width: Int, height: Int, format: PixelFormat, range: ColorRange = .video) throws(RawVideoError) {
        let source: FileByteSource
        do { source = try FileByteSource(path: path) } catch { throw .io(error) }
        try self.init(source: source, width: width, height: height, format: format, range: range)
    }
}
