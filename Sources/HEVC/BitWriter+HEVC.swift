import Bitstream

/// Writes from `Int` values, for the HEVC writers.
extension BitWriter {
    /// Writes `ue(v)` from an `Int` (negative values are written as 0).
    /// - Parameter value: the value.
    mutating func ue(_ value: Int) {
        ue(UInt32(clamping: value))
    }

    /// Writes `se(v)` from an `Int`.
    /// - Parameter value: the value, clamped to the 32-bit range.
    mutating func se(_ value: Int) {
        se(Int32(clamping: value))
    }

    /// Writes `u(n)` from an `Int`.
    /// - Parameters:
    ///   - count: the number of bits.
    ///   - value: the value; bits above `count` are dropped.
    mutating func u(_ count: Int, _ value: Int) {
        writeBits(UInt64(truncatingIfNeeded: value), count: count)
    }
}
