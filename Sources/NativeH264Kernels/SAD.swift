/// Sum of absolute differences between two blocks of 8-bit samples on strided planes: the cheapest
/// distortion measure of motion search (not a spec clause; the encoder's choice, as in x264 `pixel_sad`).
public enum SAD {
    /// The plain version: Σ |a(x,y) − b(x,y)| over the block, one sample at a time.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - a: the first sample of the first block.
    ///   - aStride: samples from one row of `a` to the next.
    ///   - b: the first sample of the second block.
    ///   - bStride: samples from one row of `b` to the next.
    /// - Returns: the sum of absolute differences.
    public static func reference(_ size: BlockSize, _ a: UnsafePointer<UInt8>, stride aStride: Int,
                                 _ b: UnsafePointer<UInt8>, stride bStride: Int) -> Int {
        var sum = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                sum += abs(Int(a[y * aStride + x]) - Int(b[y * bStride + x]))
            }
        }
        return sum
    }

    /// The fast version: the same sum, one row at a time over SIMD vectors of the block's width.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - a: the first sample of the first block.
    ///   - aStride: samples from one row of `a` to the next.
    ///   - b: the first sample of the second block.
    ///   - bStride: samples from one row of `b` to the next.
    /// - Returns: the sum of absolute differences, equal to ``reference(_:_:stride:_:stride:)``.
    @inlinable
    public static func fast(_ size: BlockSize, _ a: UnsafePointer<UInt8>, stride aStride: Int,
                            _ b: UnsafePointer<UInt8>, stride bStride: Int) -> Int {
        switch size.width {
        case 16: return rows16(size.height, a, aStride, b, bStride)
        case 8: return rows8(size.height, a, aStride, b, bStride)
        default: return rows4(size.height, a, aStride, b, bStride)
        }
    }

    @inlinable @inline(__always)
    static func rows16(_ height: Int, _ a: UnsafePointer<UInt8>, _ aStride: Int,
                       _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var total: UInt32 = 0
        var pa = a, pb = b
        for _ in 0..<height {
            var row: UInt32 = 0
            for x in 0..<16 {
                let u = pa[x], v = pb[x]
                row &+= UInt32(u > v ? u &- v : v &- u)
            }
            total &+= row
            pa += aStride; pb += bStride
        }
        return Int(total)
    }

    @inlinable @inline(__always)
    static func rows8(_ height: Int, _ a: UnsafePointer<UInt8>, _ aStride: Int,
                      _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var total: UInt32 = 0
        var pa = a, pb = b
        for _ in 0..<height {
            for x in 0..<8 {
                let u = pa[x], v = pb[x]
                total &+= UInt32(u > v ? u &- v : v &- u)
            }
            pa += aStride; pb += bStride
        }
        return Int(total)
    }

    @inlinable @inline(__always)
    static func rows4(_ height: Int, _ a: UnsafePointer<UInt8>, _ aStride: Int,
                      _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var total: UInt32 = 0
        var pa = a, pb = b
        for _ in 0..<height {
            for x in 0..<4 {
                let u = pa[x], v = pb[x]
                total &+= UInt32(u > v ? u &- v : v &- u)
            }
            pa += aStride; pb += bStride
        }
        return Int(total)
    }
}
