import MediaCore

/// Reads a YUV4MPEG2 (`.y4m`) stream frame by frame into I420 ``PixelBuffer``s.
///
/// The stream header is parsed when the reader is created; each ``nextFrame()`` reads one `FRAME`
/// header (its optional parameters are ignored) and the frame's samples, so memory use stays at one
/// frame whatever the file's size. A stream cut off inside a frame yields every complete frame, then
/// ``Y4MError/truncatedFrame(frameIndex:byteOffset:expectedBytes:availableBytes:)``.
///
/// ```swift
/// var reader = try Y4MReader(path: "foreman.y4m")
/// while let picture = try reader.nextFrame() { … }
/// ```
public struct Y4MReader<Source: ByteSource> {
    /// The longest header line accepted (stream or `FRAME` header).
    public static var maximumHeaderLength: Int { 64 << 10 }

    /// The stream header.
    public let header: Y4MHeader
    /// The number of frames returned so far (the index of the next frame).
    public private(set) var frameIndex = 0
    private var input: BufferedByteInput<Source>
    private var isDone = false

    /// Creates a reader and parses the stream header.
    /// - Parameter source: the stream, positioned at its first byte.
    /// - Throws: ``Y4MError`` when the stream header is missing or invalid.
    public init(source: Source) throws(Y4MError) {
        var input = BufferedByteInput(source: source)
        let lead: [UInt8]
        let line: BufferedByteInput<Source>.Line
        do { lead = try input.read(count: Y4MHeader.signature.count) } catch { throw .io(error) }
        guard lead == Y4MHeader.signature else { throw .missingSignature }
        do { line = try input.readLine(maximumLength: Self.maximumHeaderLength) } catch { throw .io(error) }
        switch line {
        case let .line(rest):
            header = try Y4MHeader.parse(lead + rest, byteOffset: 0)
        case let .endOfData(rest):
            guard rest.isEmpty || rest.first == 0x20 else { throw .missingSignature }
            throw .truncatedHeader(byteOffset: input.offset)
        case .tooLong:
            throw .headerTooLong(byteOffset: 0, limit: Self.maximumHeaderLength)
        }
        self.input = input
    }

    /// Reads the next frame.
    /// - Returns: the frame as I420 (packed rows), with the range of `XCOLORRANGE` (video range when
    ///   absent); `nil` at the end of the stream, and after an error.
    /// - Throws: ``Y4MError`` naming the frame index and byte offset of a bad or truncated frame.
    public mutating func nextFrame() throws(Y4MError) -> PixelBuffer? {
        guard !isDone else { return nil }
        do {
            let frame = try readFrame()
            if frame == nil { isDone = true }
            return frame
        } catch {
            isDone = true
            throw error
        }
    }

    /// One `FRAME` header and its samples (YUV4MPEG2 frame: `FRAME[ params]\n`, then Y, Cb, Cr).
    private mutating func readFrame() throws(Y4MError) -> PixelBuffer? {
        let headerOffset = input.offset
        let line: BufferedByteInput<Source>.Line
        do { line = try input.readLine(maximumLength: Self.maximumHeaderLength) } catch { throw .io(error) }
        switch line {
        case let .line(bytes):
            guard bytes.starts(with: Self.frameTag), bytes.count == 5 || bytes[5] == 0x20 else {
                throw .invalidFrameHeader(frameIndex: frameIndex, byteOffset: headerOffset)
            }
        case let .endOfData(bytes):
            if bytes.isEmpty { return nil }
            // A prefix of "FRAME", or "FRAME" and parameters, cut off before the `\n`.
            guard Self.frameTag.starts(with: bytes.prefix(5)), bytes.count <= 5 || bytes[5] == 0x20 else {
                throw .invalidFrameHeader(frameIndex: frameIndex, byteOffset: headerOffset)
            }
            throw .truncatedFrameHeader(frameIndex: frameIndex, byteOffset: headerOffset)
        case .tooLong:
            throw .headerTooLong(byteOffset: headerOffset, limit: Self.maximumHeaderLength)
        }
        guard let layout = PackedFrameLayout(width: header.width, height: header.height, format: .i420) else {
            throw .invalidParameter(tag: "W", value: "\(header.width)", byteOffset: 0, reason: "no frame of this size")
        }
        var planes: [PixelBuffer.Plane] = []
        var available = 0
        for shape in layout.planes {
            let count = shape.rowLength * shape.rowCount
            let bytes: [UInt8]
            do { bytes = try input.read(count: count) } catch { throw .io(error) }
            available += bytes.count
            guard bytes.count == count else {
                throw .truncatedFrame(frameIndex: frameIndex, byteOffset: headerOffset,
                                      expectedBytes: layout.frameByteCount, availableBytes: available)
            }
            planes.append(PixelBuffer.Plane(bytes: bytes, bytesPerRow: shape.rowLength, rowLength: shape.rowLength,
                                            rowCount: shape.rowCount))
        }
        let picture: PixelBuffer
        do {
            picture = try PixelBuffer(width: header.width, height: header.height, format: .i420,
                                      range: header.colorRange ?? .video, planes: planes)
        } catch {
            // The planes were cut to the layout's own shapes, so this cannot happen; report it anyway.
            throw .invalidParameter(tag: "W", value: "\(header.width)", byteOffset: 0, reason: error.description)
        }
        frameIndex += 1
        return picture
    }

    private static var frameTag: [UInt8] { Array("FRAME".utf8) }
}

extension Y4MReader where Source == MemoryByteSource {
    /// Creates a reader over a whole stream in memory (the entry point for tests and fuzzing).
    /// - Parameter data: the `.y4m` bytes.
    /// - Throws: ``Y4MError`` when the stream header is missing or invalid.
    public init(data: [UInt8]) throws(Y4MError) {
        try self.init(source: MemoryByteSource(data))
    }
}

extension Y4MReader where Source == FileByteSource {
    /// Opens a `.y4m` file and parses its stream header; frames are read as they are asked for.
    /// - Parameter path: the file's path.
    /// - Throws: ``Y4MError/io(_:)`` when the file cannot be opened, else as ``init(source:)``.
    public init(path: String) throws(Y4MError) {
        let source: FileByteSource
        do { source = try FileByteSource(path: path) } catch { throw .io(error) }
        try self.init(source: source)
    }
}
