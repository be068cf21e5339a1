import Dispatch

/// The luma plane of a reference picture prepared for motion search and compensation, as x264 keeps
/// it: the full-sample plane with its edges extended by ``padding`` samples on every side, and the
/// three half-sample planes of §8.4.2.2.1 computed once per picture — b (horizontal half, 8-243),
/// h (vertical half, 8-244) and j (centre, 8-245/8-247) — with the same geometry. Every one of the
/// 16 quarter-sample positions of Table 8-12 is then one of these planes or the rounded average of
/// two (8-250 … 8-261), read in place without clamping while the block stays inside the padding.
///
/// The edge extension repeats the outermost samples, which is what the clause's Clip3 of the
/// reference coordinates does, so a prediction read from these planes equals
/// ``LumaInterpolation/reference(_:quarterX:quarterY:size:into:stride:)`` sample for sample.
///
/// Immutable once built; shareable between threads. Its memory is a ``ReferencePlaneStorage`` (all four
/// planes in one allocation), which a later picture's planes can be built in again.
public final class LumaReferencePlanes: @unchecked Sendable {
    /// Samples added on each side of every plane: a ±64-sample vector (the encoder's search range)
    /// plus the filter's taps stays inside.
    public static let padding = 80
    /// The picture's width in samples (without padding).
    public let width: Int
    /// The picture's height in samples (without padding).
    public let height: Int
    /// Samples from one row to the next in every plane (`width + 2 * padding`).
    public let stride: Int
    /// Sample (0, 0) of the full-sample plane G.
    public let full: UnsafePointer<UInt8>
    /// Sample (0, 0) of the horizontal half-sample plane b: b(x, y) lies between G(x, y) and G(x + 1, y).
    public let horizontalHalf: UnsafePointer<UInt8>
    /// Sample (0, 0) of the vertical half-sample plane h: h(x, y) lies between G(x, y) and G(x, y + 1).
    public let verticalHalf: UnsafePointer<UInt8>
    /// Sample (0, 0) of the centre half-sample plane j, between the four samples from G(x, y).
    public let centre: UnsafePointer<UInt8>
    /// The memory the planes live in: pass it to a later build once these planes are no longer used.
    public let storage: ReferencePlaneStorage

    /// Builds the four planes from a luma plane.
    /// - Parameters:
    ///   - plane: the reference picture's luma samples (the deblocked reconstruction).
    ///   - recycled: the storage of planes no longer in use, written over when it has the size these
    ///     planes need (a picture of the same size); `nil` or another size: a new allocation. The
    ///     caller guarantees that no other planes read it any more.
    ///   - threads: the most threads the planes are computed on, bands of rows each (1: the calling
    ///     thread alone); every sample is the same whatever the count.
    public init(_ plane: PlaneView, recycling recycled: ReferencePlaneStorage? = nil, threads: Int = 1) {
        let pad = Self.padding
        width = plane.width
        height = plane.height
        stride = width + 2 * pad
        let rows = height + 2 * pad
        let planeSize = stride * rows
        storage = recycled.flatMap { $0.planeSize == planeSize ? $0 : nil } ?? ReferencePlaneStorage(planeSize: planeSize)
        let samples = storage.samples
        let origin = pad * stride + pad
        let g = samples + origin, b = samples + planeSize + origin
        let v = samples + 2 * planeSize + origin, c = samples + 3 * planeSize + origin
        full = UnsafePointer(g)
        horizontalHalf = UnsafePointer(b)
        verticalHalf = UnsafePointer(v)
        centre = UnsafePointer(c)
        let build = HalfSamplePass(g: g, b: b, v: v, c: c, b1: storage.intermediates + origin, stride: stride, width: width, height: height)
        // G: the picture, each row extended left and right, then the first and last rows repeated.
        let s = stride, w = width, h = height
        for y in 0..<h {
            let row = g + y * s
            row.update(from: plane.base + y * plane.stride, count: w)
            (row - pad).update(repeating: row[0], count: pad)
            (row + w).update(repeating: row[w - 1], count: pad)
        }
        for y in 1...pad {
            (g - pad - y * s).update(from: g - pad, count: s)
            (g - pad + (h - 1 + y) * s).update(from: g - pad + (h - 1) * s, count: s)
        }
        // The half-sample planes are filtered only near the picture (HalfSamplePass.margin); further out every
        // tap reads the same repeated samples, so each plane repeats its own outermost filtered values. b1 and b
        // of rows −5 … h + 4 (j reads b1 up to three rows away), then h and j of rows −3 … h + 1, then the rows.
        Self.inBands(of: -5..<(h + 5), threads: threads) { build.horizontal(rows: $0) }
        Self.inBands(of: -3..<(h + 2), threads: threads) { build.vertical(rows: $0) }
        for y in 1...(pad - 5) {
            (b - pad - (5 + y) * s).update(from: b - pad - 5 * s, count: s)
            (b - pad + (h + 4 + y) * s).update(from: b - pad + (h + 4) * s, count: s)
        }
        for y in 1...(pad - 3) {
            (v - pad - (3 + y) * s).update(from: v - pad - 3 * s, count: s)
            (c - pad - (3 + y) * s).update(from: c - pad - 3 * s, count: s)
        }
        for y in 1...(pad - 2) {
            (v - pad + (h + 1 + y) * s).update(from: v - pad + (h + 1) * s, count: s)
            (c - pad + (h + 1 + y) * s).update(from: c - pad + (h + 1) * s, count: s)
        }
    }

    /// Runs `body` on `threads` bands of `rows` at the same time (on the calling thread alone for one band), and
    /// returns when every band is done.
    static func inBands(of rows: Range<Int>, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = max(1, min(threads, rows.count / 16))
        guard bands > 1 else { return body(rows) }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((rows.lowerBound + band * rows.count / bands)..<(rows.lowerBound + (band + 1) * rows.count / bands))
        }
    }

    /// Whether a block at whole-sample position (x, y) of size w x h, with one more column and row
    /// for the quarter-sample averages, lies inside the padded planes.
    @inlinable
    public func contains(x: Int, y: Int, width w: Int, height h: Int) -> Bool {
        x >= -Self.padding && y >= -Self.padding && x + w + 1 <= width + Self.padding && y + h + 1 <= height + Self.padding
    }

    /// The two planes (the same pointer twice for the full and half-sample positions) whose rounded
    /// average is the prediction at a quarter-sample position (Table 8-12).
    /// - Parameters:
    ///   - quarterX: the block's left edge in quarter samples (xInt·4 + xFrac).
    ///   - quarterY: the block's top edge in quarter samples.
    /// - Returns: the first sample of each source block, both with row stride ``stride``.
    @inlinable
    public func sources(quarterX: Int, quarterY: Int) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>) {
        let xFrac = quarterX & 3, yFrac = quarterY & 3
        let offset = (quarterY >> 2) * stride + (quarterX >> 2)
        let g = full + offset, b = horizontalHalf + offset, h = verticalHalf + offset, j = centre + offset
        switch (xFrac, yFrac) {
        case (0, 0): return (g, g)
        case (0, 1): return (g, h)  // d
        case (0, 2): return (h, h)
        case (0, 3): return (g + stride, h)  // n
        case (1, 0): return (g, b)  // a
        case (1, 1): return (b, h)  // e
        case (1, 2): return (h, j)  // i
        case (1, 3): return (h, b + stride)  // p
        case (2, 0): return (b, b)
        case (2, 1): return (b, j)  // f
        case (2, 2): return (j, j)
        case (2, 3): return (j, b + stride)  // q
        case (3, 0): return (g + 1, b)  // c
        case (3, 1): return (b, h + 1)  // g
        case (3, 2): return (j, h + 1)  // k
        default: return (h + 1, b + stride)  // r
        }
    }

    /// The prediction of a block at a quarter-sample position (§8.4.2.2.1), read from the planes.
    /// When the block lies outside the padding, the plain clamped interpolation is used instead.
    /// - Parameters:
    ///   - quarterX: the block's left edge in quarter samples.
    ///   - quarterY: the block's top edge in quarter samples.
    ///   - size: the block shape.
    ///   - destination: where the predicted block goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public func predict(quarterX: Int, quarterY: Int, size: BlockSize, into destination: UnsafeMutablePointer<UInt8>,
                        stride destinationStride: Int) {
        guard contains(x: quarterX >> 2, y: quarterY >> 2, width: size.width, height: size.height) else {
            let view = PlaneView(base: full - Self.padding * stride - Self.padding, width: stride,
                                 height: height + 2 * Self.padding, stride: stride)
            LumaInterpolation.fast(view, quarterX: quarterX + 4 * Self.padding, quarterY: quarterY + 4 * Self.padding, size: size,
                                   into: destination, stride: destinationStride)
            return
        }
        let (p, q) = sources(quarterX: quarterX, quarterY: quarterY)
        if p == q {
            for y in 0..<size.height { (destination + y * destinationStride).update(from: p + y * stride, count: size.width) }
        } else {
            PixelAverage.fast(size, p, stride: stride, q, stride: stride, into: destination, stride: destinationStride)
        }
    }
}

/// The rounded average of two blocks of samples, (p + q + 1) >> 1 (8-250 … 8-261 of §8.4.2.2.1).
public enum PixelAverage {
    /// The plain version, one sample at a time.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - p: the first sample of the first block.
    ///   - pStride: samples from one row of `p` to the next.
    ///   - q: the first sample of the second block.
    ///   - qStride: samples from one row of `q` to the next.
    ///   - destination: where the average goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func reference(_ size: BlockSize, _ p: UnsafePointer<UInt8>, stride pStride: Int, _ q: UnsafePointer<UInt8>, stride qStride: Int,
                                 into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        for y in 0..<size.height {
            for x in 0..<size.width {
                destination[y * destinationStride + x] = UInt8((Int(p[y * pStride + x]) + Int(q[y * qStride + x]) + 1) >> 1)
            }
        }
    }

    /// The fast version: 16, 8 or 4 samples at a time as `(p | q) − ((p ^ q) >> 1)`, which is the
    /// rounded-up average without widening.
    /// - Parameters:
    ///   - size: the block shape.
    ///   - p: the first sample of the first block.
    ///   - pStride: samples from one row of `p` to the next.
    ///   - q: the first sample of the second block.
    ///   - qStride: samples from one row of `q` to the next.
    ///   - destination: where the average goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    @inlinable
    public static func fast(_ size: BlockSize, _ p: UnsafePointer<UInt8>, stride pStride: Int, _ q: UnsafePointer<UInt8>, stride qStride: Int,
                            into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        switch size.width {
        case 16: rows(SIMD16<UInt8>.self, size.height, p, pStride, q, qStride, destination, destinationStride)
        case 8: rows(SIMD8<UInt8>.self, size.height, p, pStride, q, qStride, destination, destinationStride)
        default: rows(SIMD4<UInt8>.self, size.height, p, pStride, q, qStride, destination, destinationStride)
        }
    }

    @inlinable @inline(__always)
    static func rows<V: SIMD>(_: V.Type, _ height: Int, _ p: UnsafePointer<UInt8>, _ pStride: Int, _ q: UnsafePointer<UInt8>, _ qStride: Int,
                              _ out: UnsafeMutablePointer<UInt8>, _ outStride: Int) where V.Scalar == UInt8 {
        for y in 0..<height {
            let a = UnsafeRawPointer(p + y &* pStride).loadUnaligned(as: V.self)
            let b = UnsafeRawPointer(q + y &* qStride).loadUnaligned(as: V.self)
            let average = (a | b) &- ((a ^ b) &>> 1)
            UnsafeMutableRawPointer(out + y &* outStride).storeBytes(of: average, as: V.self)
        }
    }
}

/// The half-sample filtering of ``LumaReferencePlanes`` over bands of rows, in the planes' memory.
///
/// Unchecked `Sendable`: bands on different threads write disjoint rows of b1, b, h and j; the horizontal pass reads
/// G alone (written before any band starts), the vertical pass reads G and b1 (finished by the horizontal pass
/// before it starts).
struct HalfSamplePass: @unchecked Sendable {
    /// Sample (0, 0) of G, b, h and j.
    let g: UnsafeMutablePointer<UInt8>, b: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, c: UnsafeMutablePointer<UInt8>
    /// Sample (0, 0) of the unrounded b1 plane (Int16), the input of j.
    let b1: UnsafeMutablePointer<Int16>
    let stride: Int, width: Int, height: Int

    @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> SIMD8<Int16> {
        SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }
    @inline(__always) func load(_ p: UnsafePointer<Int16>) -> SIMD8<Int32> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int16>.self))
    }
    @inline(__always) func store(_ v: SIMD8<Int16>, _ p: UnsafeMutablePointer<UInt8>) {
        let clipped = pointwiseMin(pointwiseMax(v, .zero), SIMD8(repeating: 255))
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: clipped), as: SIMD8<UInt8>.self)
    }

    /// How far beyond the picture the half-sample planes are filtered: from ``margin`` samples left of it to
    /// ``margin`` right of it. Further out a plane's value is the one at that edge of the band: b (and b1) at
    /// x ≤ −3 read G(0, y) with every tap, at x ≥ width + 1 G(width − 1, y); h and j likewise by rows of G
    /// (their rows y ≤ −3 read row 0 alone, y ≥ height + 1 the last row).
    static let margin = 8

    /// Repeats the values at columns −margin and width + margin − 1 of a row of a plane into the rest of its padding.
    @inline(__always) func extend(_ row: UnsafeMutablePointer<UInt8>) {
        let pad = LumaReferencePlanes.padding, m = Self.margin
        (row - pad).update(repeating: row[-m], count: pad - m)
        (row + width + m).update(repeating: row[width + m - 1], count: pad - m)
    }

    /// b1 (8-241) and b of the columns −margin ..< width + margin of `rows`, unrounded b1 kept for j; eight
    /// positions at a time in Int16 lanes (|b1| ≤ 40 · 255 fits); b's other columns repeat the band's edge values.
    func horizontal(rows: Range<Int>) {
        let s = stride, w = width, m = Self.margin
        for y in rows {
            let r = UnsafePointer(g + y * s), o = b1 + y * s, ob = b + y * s
            var x = -m
            while x < w + m {
                let t = load(r + x - 2) &+ load(r + x + 3) &- 5 &* (load(r + x - 1) &+ load(r + x + 2)) &+ 20 &* (load(r + x) &+ load(r + x + 1))
                UnsafeMutableRawPointer(o + x).storeBytes(of: t, as: SIMD8<Int16>.self)
                store((t &+ 16) &>> 5, ob + x)
                x += 8
            }
            extend(ob)
        }
    }

    /// h (8-242, 8-244) and j (8-245, 8-247) of the columns −margin ..< width + margin of `rows`: the vertical
    /// taps over G and over b1, eight positions at a time (j in Int32 lanes); the other columns repeat the band's
    /// edge values.
    func vertical(rows: Range<Int>) {
        let s = stride, w = width, m = Self.margin
        for y in rows {
            let r0 = (y - 2) * s, r1 = (y - 1) * s, r2 = y * s, r3 = (y + 1) * s, r4 = (y + 2) * s, r5 = (y + 3) * s
            let ov = v + y * s, oc = c + y * s
            var x = -m
            while x < w + m {
                let gx = UnsafePointer(g + x), bx = UnsafePointer(b1 + x)
                let t = load(gx + r0) &+ load(gx + r5) &- 5 &* (load(gx + r1) &+ load(gx + r4)) &+ 20 &* (load(gx + r2) &+ load(gx + r3))
                store((t &+ 16) &>> 5, ov + x)
                let u = load(bx + r0) &+ load(bx + r5) &- 5 &* (load(bx + r1) &+ load(bx + r4)) &+ 20 &* (load(bx + r2) &+ load(bx + r3))
                let clipped = pointwiseMin(pointwiseMax((u &+ 512) &>> 10, .zero), SIMD8(repeating: 255))
                UnsafeMutableRawPointer(oc + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: clipped), as: SIMD8<UInt8>.self)
                x += 8
            }
            extend(ov)
            extend(oc)
        }
    }
}
