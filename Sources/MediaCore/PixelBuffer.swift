/// An 8-bit 4:2:0 picture in one of the four layouts of ``PixelFormat``, with explicit strides —
/// StreamKit's `CVPixelBuffer`.
///
/// Plane order follows the layout: I420 is Y, U, V; YV12 is Y, V, U; NV12 is Y, UV; NV21 is Y, VU.
/// Chroma planes are `(width + 1) / 2` by `(height + 1) / 2` samples. Rows may be padded: a plane's
/// ``Plane/bytesPerRow`` can exceed the bytes a row carries.
public struct PixelBuffer: Sendable, Hashable {
    /// One plane of samples.
    public struct Plane: Sendable, Hashable {
        /// The samples, row after row, `bytesPerRow` apart.
        public var bytes: [UInt8]
        /// The distance in bytes from one row to the next (the stride).
        public var bytesPerRow: Int
        /// The number of meaningful bytes in each row.
        public var rowLength: Int
        /// The number of rows.
        public var rowCount: Int

        /// Creates a plane.
        /// - Parameters:
        ///   - bytes: at least `bytesPerRow * (rowCount - 1) + rowLength` bytes.
        ///   - bytesPerRow: the stride; at least `rowLength`.
        ///   - rowLength: meaningful bytes per row.
        ///   - rowCount: the number of rows.
        public init(bytes: [UInt8], bytesPerRow: Int, rowLength: Int, rowCount: Int) {
            precondition(bytesPerRow >= rowLength && rowLength >= 0 && rowCount >= 0, "inconsistent plane geometry")
            precondition(rowCount == 0 || bytes.count >= bytesPerRow * (rowCount - 1) + rowLength, "plane too small")
            self.bytes = bytes
            self.bytesPerRow = bytesPerRow
            self.rowLength = rowLength
            self.rowCount = rowCount
        }

        /// The meaningful bytes of one row.
        /// - Parameter row: 0 ..< `rowCount`.
        /// - Returns: a slice of ``bytes``.
        public func row(_ row: Int) -> ArraySlice<UInt8> {
            let start = row * bytesPerRow
            return bytes[start..<(start + rowLength)]
        }

        /// The plane's rows without padding, concatenated.
        public var packedBytes: [UInt8] {
            if bytesPerRow == rowLength { return Array(bytes.prefix(rowLength * rowCount)) }
            var out = [UInt8]()
            out.reserveCapacity(rowLength * rowCount)
            for index in 0..<rowCount { out.append(contentsOf: row(index)) }
            return out
        }
    }

    /// The picture width in luma samples.
    public let width: Int
    /// The picture height in luma samples.
    public let height: Int
    /// The layout of the planes.
    public let format: PixelFormat
    /// Video or full range.
    public var range: ColorRange
    /// The planes, in the layout's order.
    public var planes: [Plane]

    /// The width of a chroma plane in samples.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// The height of a chroma plane in rows.
    public var chromaHeight: Int { (height + 1) / 2 }

    /// Creates a black picture.
    /// - Parameters:
    ///   - width: the width in luma samples (≥ 1).
    ///   - height: the height in luma samples (≥ 1).
    ///   - format: the layout.
    ///   - range: video or full range; black is Y 16 in video range and 0 in full range.
    ///   - rowAlignment: each row's stride is rounded up to a multiple of this (1 = packed).
    public init(width: Int, height: Int, format: PixelFormat, range: ColorRange = .video, rowAlignment: Int = 1) {
        precondition(width > 0 && height > 0 && rowAlignment > 0, "a picture needs a positive size")
        self.width = width
        self.height = height
        self.format = format
        self.range = range
        let align = { (length: Int) in (length + rowAlignment - 1) / rowAlignment * rowAlignment }
        let black: UInt8 = range == .video ? 16 : 0
        let lumaStride = align(width)
        var planes = [Plane(bytes: [UInt8](repeating: black, count: lumaStride * height), bytesPerRow: lumaStride,
                            rowLength: width, rowCount: height)]
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch format {
        case .i420, .yv12:
            let stride = align(chromaWidth)
            let chroma = Plane(bytes: [UInt8](repeating: 128, count: stride * chromaHeight), bytesPerRow: stride,
                               rowLength: chromaWidth, rowCount: chromaHeight)
            planes += [chroma, chroma]
        case .nv12, .nv21:
            let stride = align(2 * chromaWidth)
            planes.append(Plane(bytes: [UInt8](repeating: 128, count: stride * chromaHeight), bytesPerRow: stride,
                                rowLength: 2 * chromaWidth, rowCount: chromaHeight))
        }
        self.planes = planes
    }

    /// Creates a picture from planes the caller filled.
    /// - Parameters:
    ///   - width: the width in luma samples.
    ///   - height: the height in luma samples.
    ///   - format: the layout the planes follow.
    ///   - range: video or full range.
    ///   - planes: the planes in the layout's order, with the geometry the layout needs.
    /// - Throws: ``PixelBufferError`` if the planes do not fit the size and layout.
    public init(width: Int, height: Int, format: PixelFormat, range: ColorRange = .video, planes: [Plane]) throws(PixelBufferError) {
        guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
        guard planes.count == format.planeCount else {
            throw .planeMismatch("\(format) needs \(format.planeCount) planes, got \(planes.count)")
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let expected: [(Int, Int)] = format.planeCount == 3
            ? [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
            : [(width, height), (2 * chromaWidth, chromaHeight)]
        for (index, (plane, shape)) in zip(planes, expected).enumerated()
        where plane.rowLength != shape.0 || plane.rowCount != shape.1 {
            throw .planeMismatch("plane \(index) is \(plane.rowLength)x\(plane.rowCount), expected \(shape.0)x\(shape.1)")
        }
        self.width = width
        self.height = height
        self.format = format
        self.range = range
        self.planes = planes
    }

    /// The number of bytes of a packed (unpadded) frame: `width * height * 3 / 2` for even sizes.
    public var packedByteCount: Int { width * height + 2 * chromaWidth * chromaHeight }

    /// The planes without row padding, concatenated in the layout's order — the bytes of a raw `.yuv`
    /// frame in this layout.
    public var packedBytes: [UInt8] { planes.flatMap(\.packedBytes) }
}

/// A picture that cannot be built as asked.
public enum PixelBufferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The width or height is not positive (or not allowed where it is used).
    case invalidSize(width: Int, height: Int)
    /// The planes do not match the layout; the text says how.
    case planeMismatch(String)
    /// Raw bytes of the wrong length for the size and layout.
    case wrongByteCount(expected: Int, actual: Int)

    /// What is wrong.
    public var description: String {
        switch self {
        case let .invalidSize(width, height): return "invalid picture size \(width)x\(height)"
        case let .planeMismatch(text): return "planes do not match the layout: \(text)"
        case let .wrongByteCount(expected, actual): return "expected \(expected) bytes of picture data, got \(actual)"
        }
    }
}
