import MediaCore

/// Writes a YUV4MPEG2 (`.y4m`) stream: the stream header, then `FRAME\n` and the I420 samples of
/// each picture. Pictures in any layout are converted to I420; row padding is dropped.
///
/// ```swift
/// var writer = try Y4MWriter(path: "out.y4m", header: Y4MHeader(width: 352, height: 288, frameRate: Y4MRatio(30, 1)))
/// try writer.write(picture)
/// try writer.finish()
/// ```
public struct Y4MWriter<Sink: ByteSink> {
    /// The stream header written first.
    public let header: Y4MHeader
    /// The sink; with ``MemoryByteSink`` its `bytes` hold the stream.
    public private(set) var sink: Sink
    /// The number of frames written.
    public private(set) var frameCount = 0
    private var isFinished = false

    /// Creates a writer and writes the stream header.
    /// - Parameters:
    ///   - sink: where the stream goes.
    ///   - header: the stream header; `W` and `H` in 1...``Y4MHeader/maximumDimension``, ratios
    ///     positive, extensions without spaces or line breaks.
    /// - Throws: ``ContainerWriteError/invalidConfiguration(_:)`` for a header that cannot be written,
    ///   ``ContainerWriteError/io(_:)`` when the sink fails.
    public init(sink: Sink, header: Y4MHeader) throws(ContainerWriteError) {
        let limit = 1...Y4MHeader.maximumDimension
        guard limit.contains(header.width), limit.contains(header.height) else {
            throw .invalidConfiguration("Y4M size \(header.width)x\(header.height) outside 1...\(Y4MHeader.maximumDimension)")
        }
        if let rate = header.frameRate, !rate.isValid { throw .invalidConfiguration("Y4M frame rate \(rate) must be positive") }
        if let aspect = header.pixelAspectRatio, !aspect.isValid {
            throw .invalidConfiguration("Y4M pixel aspect ratio \(aspect) must be positive")
        }
        for item in header.extensions where item.isEmpty || item.utf8.contains(where: { $0 == 0x20 || $0 == 0x0A }) {
            throw .invalidConfiguration("Y4M extension \"\(item)\" must be non-empty without spaces or line breaks")
        }
        self.header = header
        self.sink = sink
        do { try self.sink.write(header.serialized()) } catch { throw .io(error) }
    }

    /// Writes one picture (YUV4MPEG2 frame: `FRAME\n`, then the Y, Cb and Cr planes).
    /// - Parameter picture: a picture of the header's size, in any layout.
    /// - Throws: ``ContainerWriteError/frameMismatch(frameIndex:reason:)`` for the wrong size,
    ///   ``ContainerWriteError/alreadyFinished`` after ``finish()``, ``ContainerWriteError/io(_:)``.
    public mutating func write(_ picture: PixelBuffer) throws(ContainerWriteError) {
        guard !isFinished else { throw .alreadyFinished }
        guard picture.width == header.width, picture.height == header.height else {
            throw .frameMismatch(frameIndex: frameCount,
                                 reason: "picture is \(picture.width)x\(picture.height), stream is \(header.width)x\(header.height)")
        }
        let i420 = picture.format == .i420 && picture.hasConsistentPlanes ? picture : picture.converted(to: .i420)
        do {
            try sink.write(Self.frameHeader)
            for plane in i420.planes { try Self.writeRows(of: plane, to: &sink) }
        } catch {
            throw .io(error)
        }
        frameCount += 1
    }

    /// Flushes and closes the sink. Calling it again does nothing.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the last bytes cannot be written.
    public mutating func finish() throws(ContainerWriteError) {
        guard !isFinished else { return }
        isFinished = true
        do { try sink.close() } catch { throw .io(error) }
    }

    private static var frameHeader: [UInt8] { Array("FRAME\n".utf8) }

    /// Writes a plane's meaningful bytes, row padding dropped. The plane must be consistent
    /// (``PixelBuffer/hasConsistentPlanes``).
    static func writeRows(of plane: PixelBuffer.Plane, to sink: inout Sink) throws(ContainerIOError) {
        if plane.bytesPerRow == plane.rowLength {
            try sink.write(plane.bytes[0..<(plane.rowLength * plane.rowCount)])
            return
        }
        for row in 0..<plane.rowCount {
            let start = row * plane.bytesPerRow
            try sink.write(plane.bytes[start..<(start + plane.rowLength)])
        }
    }
}

extension Y4MWriter where Sink == FileByteSink {
    /// Creates (or truncates) a `.y4m` file and writes the stream header.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - header: the stream header.
    /// - Throws: ``ContainerWriteError`` as ``init(sink:header:)``, or `.io` when the file cannot be created.
    public init(path: String, header: Y4MHeader) throws(ContainerWriteError) {
        let sink: FileByteSink
        do { sink = try FileByteSink(path: path) } catch { throw .io(error) }
        try self.init(sink: sink, header: header)
    }
}
