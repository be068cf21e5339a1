extension PixelBuffer {
    /// Whether every plane still has the geometry the size and layout need and holds enough bytes
    /// for it.
    ///
    /// The initializers guarantee this, but ``planes`` and each plane's fields are mutable; code that
    /// walks the bytes with raw pointers checks this first (or converts, which always yields a
    /// consistent buffer).
    public var hasConsistentPlanes: Bool {
        guard let layout = PackedFrameLayout(width: width, height: height, format: format),
              planes.count == layout.planes.count else { return false }
        for (plane, shape) in zip(planes, layout.planes) {
            guard plane.rowLength == shape.rowLength, plane.rowCount == shape.rowCount,
                  plane.bytesPerRow >= plane.rowLength else { return false }
            let (rowsBefore, overflow) = plane.bytesPerRow.multipliedReportingOverflow(by: plane.rowCount - 1)
            guard !overflow, plane.bytes.count - plane.rowLength >= rowsBefore else { return false }
        }
        return true
    }
}
