/// A read-only view of one 8-bit sample plane (luma or one chroma plane) in memory the caller owns:
/// the base address of sample (0, 0), the visible size and the row stride. Kernels that read outside
/// the picture clamp coordinates into it, as the decoder does for motion compensation (§8.4.2.2).
public struct PlaneView {
    /// Sample (0, 0).
    public let base: UnsafePointer<UInt8>
    /// Samples in a row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Samples from one row to the next (at least `width`).
    public let stride: Int

    /// Creates a view.
    /// - Parameters:
    ///   - base: sample (0, 0); `height` rows of `stride` samples must stay valid while the view is used.
    ///   - width: samples in a row (at least 1).
    ///   - height: rows (at least 1).
    ///   - stride: samples from one row to the next (at least `width`).
    @inlinable
    public init(base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width, "PlaneView: invalid geometry")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// The sample at (x, y) with both coordinates clamped into the plane (Clip3 of §8.4.2.2.1/2).
    /// - Parameters:
    ///   - x: column, any value.
    ///   - y: row, any value.
    /// - Returns: the sample.
    @inlinable @inline(__always)
    public func clampedSample(x: Int, y: Int) -> UInt8 {
        let cx = x < 0 ? 0 : (x >= width ? width - 1 : x)
        let cy = y < 0 ? 0 : (y >= height ? height - 1 : y)
        return base[cy * stride + cx]
    }
}

/// A writable view of one 8-bit sample plane in memory the caller owns (see ``PlaneView``).
public struct MutablePlaneView {
    /// Sample (0, 0).
    public let base: UnsafeMutablePointer<UInt8>
    /// Samples in a row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Samples from one row to the next (at least `width`).
    public let stride: Int

    /// Creates a view.
    /// - Parameters:
    ///   - base: sample (0, 0); `height` rows of `stride` samples must stay valid while the view is used.
    ///   - width: samples in a row (at least 1).
    ///   - height: rows (at least 1).
    ///   - stride: samples from one row to the next (at least `width`).
    @inlinable
    public init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width, "MutablePlaneView: invalid geometry")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// The same plane, read-only.
    @inlinable public var readOnly: PlaneView {
        PlaneView(base: UnsafePointer(base), width: width, height: height, stride: stride)
    }
}

/// Clip1Y / Clip1C for 8-bit samples (§5.7: Clip3(0, 255, x)).
/// - Parameter value: any value.
/// - Returns: the value clamped to 0…255.
@inlinable @inline(__always)
public func clip1(_ value: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
}

/// Clip1 for 32-bit intermediate values.
@inlinable @inline(__always)
func clip1(_ value: Int32) -> UInt8 {
    UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
}
