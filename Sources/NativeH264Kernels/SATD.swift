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

    /// The fast version. Blocks 16 or 8 samples wide (and a multiple of 4 or 8 rows high) go through
    /// ``rows16(_:_:_:_:_:)`` / ``rows8(_:_:_:_:_:)``: SSE2-width vectors, four 4x4 blocks at once; the
    /// narrower ones through butterflies on scalar locals.
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
        switch size {
        case .w16h16, .w16h8: return rows16(size.height, a, aStride, b, bStride)
        case .w8h16, .w8h8: return rows8(size.height, a, aStride, b, bStride)
        default: return scalar(size, a, stride: aStride, b, stride: bStride)
        }
    }

    /// The scalar version: each 4x4 block through butterflies on scalar locals, no allocation.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - a: the first sample of the first block.
    ///   - aStride: samples from one row of `a` to the next.
    ///   - b: the first sample of the second block.
    ///   - bStride: samples from one row of `b` to the next.
    /// - Returns: the same value as ``reference(_:_:stride:_:stride:)``.
    @inlinable
    public static func scalar(_ size: BlockSize, _ a: UnsafePointer<UInt8>, stride aStride: Int,
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

    // MARK: The vector version
    //
    // A row of 16 samples is loaded as eight UInt16 lanes: the low byte of each lane is an even column,
    // the high byte the odd one, so masking and shifting splits the row into its even and odd columns
    // with no shuffle. Their difference rows go through the first horizontal butterfly (e ± o), then
    // both vertical butterflies, lane by lane. The last horizontal butterfly pairs lanes 2k and 2k + 1;
    // it is not computed: |x + y| + |x − y| = 2·max(|x|, |y|), so the halved sum of one pair's two
    // coefficients is max(|x|, |y|), exact (no rounding: this is also why the halving per 4x4 block and
    // for the whole block agree). Every value stays within ±2040 (Int16 lanes); eight maxima are summed
    // per lane before widening (≤ 16 320). Only SSE2 operations are needed (pmaxsw, shifts, add/sub).

    /// Eight UInt16 lanes.
    @usableFromInline typealias Pairs = SIMD8<UInt16>
    /// Eight Int16 lanes.
    @usableFromInline typealias Lanes = SIMD8<Int16>
    /// Four UInt32 lanes (a reinterpretation of `Lanes`).
    @usableFromInline typealias Quads = SIMD4<UInt32>

    @inlinable @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> Pairs { UnsafeRawPointer(p).loadUnaligned(as: Pairs.self) }

    /// Eight samples at `p` in the low half, eight at `q` in the high half.
    @inlinable @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>) -> Pairs {
        Pairs(lowHalf: UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt16>.self),
              highHalf: UnsafeRawPointer(q).loadUnaligned(as: SIMD4<UInt16>.self))
    }

    /// The first horizontal butterfly of a difference row: (even + odd, even − odd) columns.
    @inlinable @inline(__always)
    static func butterfly(_ a: Pairs, _ b: Pairs) -> (Lanes, Lanes) {
        let low = Pairs(repeating: 0xFF)
        let even = unsafeBitCast((a & low) &- (b & low), to: Lanes.self)
        let odd = unsafeBitCast((a &>> 8) &- (b &>> 8), to: Lanes.self)
        return (even &+ odd, even &- odd)
    }

    /// max(|x|, |y|) of each pair of lanes (2k, 2k + 1) in lane 2k, zero in lane 2k + 1.
    @inlinable @inline(__always)
    static func pairMaximum(_ x: Lanes) -> Lanes {
        let sign = x &>> 15
        let magnitude = (x ^ sign) &- sign
        let partner = unsafeBitCast(unsafeBitCast(magnitude, to: Quads.self) &>> 16, to: Lanes.self)
        let maximum = unsafeBitCast(pointwiseMax(magnitude, partner), to: Quads.self)
        return unsafeBitCast(maximum & Quads(repeating: 0xFFFF), to: Lanes.self)
    }

    /// The vertical butterflies of four first-stage rows, then the pair maxima, summed per lane.
    @inlinable @inline(__always)
    static func columns(_ c0: Lanes, _ c1: Lanes, _ c2: Lanes, _ c3: Lanes) -> Lanes {
        let p = c0 &+ c1, q = c0 &- c1, r = c2 &+ c3, s = c2 &- c3
        return pairMaximum(p &+ r) &+ pairMaximum(p &- r) &+ pairMaximum(q &+ s) &+ pairMaximum(q &- s)
    }

    /// SATD of four rows of 16 samples (four 4x4 blocks side by side), as loaded.
    @inlinable @inline(__always)
    static func group(_ a0: Pairs, _ a1: Pairs, _ a2: Pairs, _ a3: Pairs, _ b0: Pairs, _ b1: Pairs, _ b2: Pairs, _ b3: Pairs) -> Int {
        let (s0, t0) = butterfly(a0, b0), (s1, t1) = butterfly(a1, b1)
        let (s2, t2) = butterfly(a2, b2), (s3, t3) = butterfly(a3, b3)
        let sums = unsafeBitCast(columns(s0, s1, s2, s3) &+ columns(t0, t1, t2, t3), to: Quads.self)
        return Int(sums[0] &+ sums[1] &+ sums[2] &+ sums[3])
    }

    /// A block 16 samples wide, `height` (a multiple of 4) rows high.
    @inlinable @inline(__always)
    static func rows16(_ height: Int, _ a: UnsafePointer<UInt8>, _ aStride: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var total = 0
        var pa = a, pb = b
        var y = 0
        while y < height {
            total &+= group(load(pa), load(pa + aStride), load(pa + 2 &* aStride), load(pa + 3 &* aStride),
                            load(pb), load(pb + bStride), load(pb + 2 &* bStride), load(pb + 3 &* bStride))
            pa += 4 &* aStride
            pb += 4 &* bStride
            y &+= 4
        }
        return total
    }

    /// A block 8 samples wide, `height` (a multiple of 8) rows high: rows y and y + 4 share a vector.
    @inlinable @inline(__always)
    static func rows8(_ height: Int, _ a: UnsafePointer<UInt8>, _ aStride: Int, _ b: UnsafePointer<UInt8>, _ bStride: Int) -> Int {
        var total = 0
        var pa = a, pb = b
        var y = 0
        let a4 = 4 &* aStride, b4 = 4 &* bStride
        while y < height {
            let a1 = pa + aStride, a2 = pa + 2 &* aStride, a3 = pa + 3 &* aStride
            let b1 = pb + bStride, b2 = pb + 2 &* bStride, b3 = pb + 3 &* bStride
            total &+= group(load(pa, pa + a4), load(a1, a1 + a4), load(a2, a2 + a4), load(a3, a3 + a4),
                            load(pb, pb + b4), load(b1, b1 + b4), load(b2, b2 + b4), load(b3, b3 + b4))
            pa += 8 &* aStride
            pb += 8 &* bStride
            y &+= 8
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
