/// The shape of a packed (unpadded) frame of one size and layout, with overflow-checked byte counts.
public struct PackedFrameLayout: Sendable, Hashable {
    /// The shape of one plane.
    public struct PlaneShape: Sendable, Hashable {
        /// Bytes per row (no padding).
        public var rowLength: Int
        /// Rows.
        public var rowCount: Int
    }

    /// The planes in the layout's order.
    public let planes: [PlaneShape]
    /// The bytes of one frame: the sum of the planes.
    public let frameByteCount: Int

    /// Computes the layout of a packed frame.
    /// - Parameters:
    ///   - width: the width in luma samples.
    ///   - height: the height in luma samples.
    ///   - format: the layout.
    /// - Returns: `nil` if the size is not positive or a frame's byte count overflows `Int`.
    public init?(width: Int, height: Int, format: PixelFormat) {
        guard width > 0, height > 0 else { return nil }
        let (luma, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { return nil }
        let chromaWidth = width / 2 + width % 2, chromaHeight = height / 2 + height % 2
        let chroma = chromaWidth * chromaHeight  // about luma / 4: cannot overflow when luma did not
        guard chroma <= Int.max / 2 else { return nil }
        let (total, totalOverflow) = luma.addingReportingOverflow(2 * chroma)
        guard !totalOverflow else { return nil }
        let lumaShape = PlaneShape(rowLength: width, rowCount: height)
        switch format {
        case .i420, .yv12:
            let shape = PlaneShape(rowLength: chromaWidth, rowCount: chromaHeight)
            planes = [lumaShape, shape, shape]
        case .nv12, .nv21:
            planes = [lumaShape, PlaneShape(rowLength: 2 * chromaWidth, rowCount: chromaHeight)]
        }
        frameByteCount = total
    }
}
