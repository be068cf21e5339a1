/// Sum of absolute transformed differences: the difference block cut into 4x4 blocks, each through
/// the 4x4 Hadamard transform H·D·Hᵀ, the absolute coefficients summed and halved (x264's
/// `pixel_satd` convention). A closer estimate of the coded cost than SAD, used by mode decision; not a
/// spec clause (the Hadamard matrix is the one of §8.5.10).
public enum SATD {
    /// The plain version: each 4x4 difference block multiplied by the Hadamard matrix on both sides.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - a: the first sample of the first block.
    ///   - aStride: samples from one row of `a` to the next.
    ///   - b: the first sample of the second block.
    ///   - bStride: samples from one row of `b` to the next.
    /// - Returns: Σ over the 4x4 blocks of (Σ |coefficient|) / 2.
    public static func reference(_ size: BlockSize, _ a: UnsafePointer<UInt8>, stride aStride: Int,
                                 _ b: UnsafePointer<UInt8>, stride bStride: Int) -> Int {
        let h = [[1, 1, 1, 1], [1, 1, -1, -1], [1, -1, -1, 1], [1, -1, 1, -1]]
        var total = 0
        for by in Swift.stride(from: 0, to: size.height, by: 4) {
            for bx in Swift.stride(from: 0, to: size.width, by: 4) {
                var d = [[Int]](repeating: [0, 0, 0, 0], count: 4)
                for y in 0..<4 {
                    for x in 0..<4 {
                        d[y][x] = Int(a[(by + y) * aStride + bx + x]) - Int(b[(by + y) * bStride + bx + x])
                    }
                }
                var sum = 0
                for i in 0..<4 {
                    for j in 0..<4 {
                        var c = 0
                        for k in 0..<4 { for l in 0..<4 { c += h[i][k] * d[k][l] * h[j][l] } }
                        sum += abs(c)
                    }
                }
                total += sum / 2
            }
        }
        return total
    }

    /// The fast version: butterflies on scalar locals (measured faster here than SIMD4 lanes), no allocation.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - a: the first sample of the first block.
    ///   - aStride: samples from one row of `a` to the next.
    ///   - b: the first sample of the second block.
    ///   - bStride: samples from one row of `b` to the next.
    /// - Returns: the same value as ``reference(_:_:stride:_:stride:)``.
    @inlinable
    public static func fast(_ size: BlockSize, _ a: UnsafePointer<UInt8>, stride aStride: Int,
                            _ b: UnsafePointer<UInt8>, stride bStride: Int) -> Int {
        var total = 0
        var by = 0
        while by < size.height {
            var bx = 0
            while bx < size.width {
                total &+= satd4x4(a + by * aStride + bx, aStride, b + by * bStride + bx, bStride)
                bx &+= 4
            }
            by &+= 4
        }
        return total
    }

    @inlinable @inline(__always)
    static func satd4x4(_ a: UnsafePointer<UInt8>, _ aStride: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        // Horizontal butterflies of each difference row on scalar locals, then the vertical ones.
        @inline(__always) func row(_ y: Int) -> (Int32, Int32, Int32, Int32) {
            let pa = a + y &* aStride, pb = b + y &* bStride
            let d0 = Int32(pa[0]) &- Int32(pb[0]), d1 = Int32(pa[1]) &- Int32(pb[1])
            let d2 = Int32(pa[2]) &- Int32(pb[2]), d3 = Int32(pa[3]) &- Int32(pb[3])
            let s01 = d0 &+ d1, t01 = d0 &- d1, s23 = d2 &+ d3, t23 = d2 &- d3
            return (s01 &+ s23, s01 &- s23, t01 &- t23, t01 &+ t23)
        }
        let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3)
        @inline(__always) func column(_ c0: Int32, _ c1: Int32, _ c2: Int32, _ c3: Int32) -> Int32 {
            let s01 = c0 &+ c1, t01 = c0 &- c1, s23 = c2 &+ c3, t23 = c2 &- c3
            return abs(s01 &+ s23) &+ abs(s01 &- s23) &+ abs(t01 &- t23) &+ abs(t01 &+ t23)
        }
        let sum = column(r0.0, r1.0, r2.0, r3.0) &+ column(r0.1, r1.1, r2.1, r3.1)
            &+ column(r0.2, r1.2, r2.2, r3.2) &+ column(r0.3, r1.3, r2.3, r3.3)
        return Int(sum >> 1)
    }
}
