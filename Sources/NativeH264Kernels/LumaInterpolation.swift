/// Luma sample interpolation of motion compensation (§8.4.2.2.1): the 6-tap filter
/// (1, −5, 20, 20, −5, 1) for half-sample positions b, h (and j from the unrounded intermediates),
/// rounded averages of two neighbours for the quarter-sample positions (Table 8-12), and reference
/// coordinates clamped into the picture.
public enum LumaInterpolation {
    /// The plain version: each predicted sample computed as the clause writes it.
    /// - Parameters:
    ///   - plane: the reference picture's luma plane.
    ///   - quarterX: the block's left edge in quarter samples (xInt·4 + xFrac; any value, far outside the
    ///     picture included).
    ///   - quarterY: the block's top edge in quarter samples.
    ///   - size: the block shape.
    ///   - destination: where the predicted block goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func reference(_ plane: PlaneView, quarterX: Int, quarterY: Int, size: BlockSize,
                                 into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        let xFrac = quarterX & 3, yFrac = quarterY & 3
        let x0 = quarterX >> 2, y0 = quarterY >> 2
        for y in 0..<size.height {
            for x in 0..<size.width {
                destination[y * destinationStride + x] = sample(plane, x0 + x, y0 + y, xFrac, yFrac)
            }
        }
    }

    /// One predicted sample at integer position (xInt, yInt) and fraction (xFrac, yFrac) (§8.4.2.2.1).
    static func sample(_ plane: PlaneView, _ xInt: Int, _ yInt: Int, _ xFrac: Int, _ yFrac: Int) -> UInt8 {
        func full(_ dx: Int, _ dy: Int) -> Int { Int(plane.clampedSample(x: xInt + dx, y: yInt + dy)) }
        func tap(_ e: Int, _ f: Int, _ g: Int, _ h: Int, _ i: Int, _ j: Int) -> Int { e - 5 * f + 20 * g + 20 * h - 5 * i + j }
        // b1 at row dy (between columns 0 and 1), h1 at column dx (between rows 0 and 1) (8-241, 8-242).
        func b1(_ dy: Int) -> Int { tap(full(-2, dy), full(-1, dy), full(0, dy), full(1, dy), full(2, dy), full(3, dy)) }
        func h1(_ dx: Int) -> Int { tap(full(dx, -2), full(dx, -1), full(dx, 0), full(dx, 1), full(dx, 2), full(dx, 3)) }
        func b(_ dy: Int) -> Int { Int(clip1((b1(dy) + 16) >> 5)) }  // b (dy 0) and s (dy 1) (8-243, 8-244)
        func h(_ dx: Int) -> Int { Int(clip1((h1(dx) + 16) >> 5)) }  // h (dx 0) and m (dx 1)
        func j() -> Int {  // 8-245: j1 from the vertical b1 intermediates, rounded by 512 >> 10 (8-247)
            Int(clip1((tap(b1(-2), b1(-1), b1(0), b1(1), b1(2), b1(3)) + 512) >> 10))
        }
        func average(_ p: Int, _ q: Int) -> UInt8 { UInt8((p + q + 1) >> 1) }  // 8-250 … 8-261
        switch (xFrac, yFrac) {
        case (0, 0): return UInt8(full(0, 0))  // G
        case (0, 1): return average(full(0, 0), h(0))  // d
        case (0, 2): return UInt8(h(0))  // h
        case (0, 3): return average(full(0, 1), h(0))  // n
        case (1, 0): return average(full(0, 0), b(0))  // a
        case (1, 1): return average(b(0), h(0))  // e
        case (1, 2): return average(h(0), j())  // i
        case (1, 3): return average(h(0), b(1))  // p
        case (2, 0): return UInt8(b(0))  // b
        case (2, 1): return average(b(0), j())  // f
        case (2, 2): return UInt8(j())  // j
        case (2, 3): return average(j(), b(1))  // q
        case (3, 0): return average(full(1, 0), b(0))  // c
        case (3, 1): return average(b(0), h(1))  // g
        case (3, 2): return average(j(), h(1))  // k
        default: return average(h(1), b(1))  // r
        }
    }

    /// The fast version: separable filters over pointers, the block's 21x21 reference window read in
    /// place when it lies inside the picture and copied clamped into stack memory when it does not. No
    /// heap allocation.
    /// - Parameters:
    ///   - plane: the reference picture's luma plane.
    ///   - quarterX: the block's left edge in quarter samples.
    ///   - quarterY: the block's top edge in quarter samples.
    ///   - size: the block shape.
    ///   - destination: where the predicted block goes.
    ///   - destinationStride: samples from one row of `destination` to the next.
    public static func fast(_ plane: PlaneView, quarterX: Int, quarterY: Int, size: BlockSize,
                            into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) {
        let xFrac = quarterX & 3, yFrac = quarterY & 3
        let x0 = quarterX >> 2, y0 = quarterY >> 2
        let w = size.width, h = size.height
        if x0 - 2 >= 0, y0 - 2 >= 0, x0 + w + 3 <= plane.width, y0 + h + 3 <= plane.height {
            predict(plane.base + y0 * plane.stride + x0, plane.stride, xFrac, yFrac, w, h, destination, destinationStride)
            return
        }
        let windowStride = 21 + 3
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: windowStride * 21) { window in
            let origin = window.baseAddress!
            for y in 0..<(h + 5) {
                for x in 0..<(w + 5) {
                    origin[y * windowStride + x] = plane.clampedSample(x: x0 - 2 + x, y: y0 - 2 + y)
                }
            }
            predict(UnsafePointer(origin + 2 * windowStride + 2), windowStride, xFrac, yFrac, w, h,
                    destination, destinationStride)
        }
    }

    /// Which samples a fraction averages: the two sources of Table 8-12, the first written to `out`, the
    /// second averaged into it (no scratch block).
    @inline(__always)
    static func predict(_ g: UnsafePointer<UInt8>, _ s: Int, _ xFrac: Int, _ yFrac: Int, _ w: Int, _ h: Int,
                        _ out: UnsafeMutablePointer<UInt8>, _ os: Int) {
        // One copy of the loops per partition width: with the width a constant the compiler unrolls and
        // vectorises the rows (a run-time width left them scalar, a third of the decoder's motion time).
        switch w {
        case 16: predictRows(g, s, xFrac, yFrac, 16, h, out, os)
        case 8: predictRows(g, s, xFrac, yFrac, 8, h, out, os)
        case 4: predictRows(g, s, xFrac, yFrac, 4, h, out, os)
        default: predictRows(g, s, xFrac, yFrac, w, h, out, os)
        }
    }

    /// `predict` for one width (a constant at each call site once inlined).
    @inline(__always)
    static func predictRows(_ g: UnsafePointer<UInt8>, _ s: Int, _ xFrac: Int, _ yFrac: Int, _ w: Int, _ h: Int,
                            _ out: UnsafeMutablePointer<UInt8>, _ os: Int) {
        switch (xFrac, yFrac) {
        case (0, 0): copy(g, s, w, h, out, os, average: false)
        case (2, 0): halfHorizontal(g, s, w, h, out, os, average: false)
        case (0, 2): halfVertical(g, s, w, h, out, os, average: false)
        case (2, 2): center(g, s, w, h, out, os, average: false)
        case (1, 0), (3, 0):  // a, c
            halfHorizontal(g, s, w, h, out, os, average: false); copy(g + (xFrac >> 1), s, w, h, out, os, average: true)
        case (0, 1), (0, 3):  // d, n
            halfVertical(g, s, w, h, out, os, average: false); copy(g + (yFrac >> 1) * s, s, w, h, out, os, average: true)
        case (2, 1), (2, 3):  // f, q
            center(g, s, w, h, out, os, average: false); halfHorizontal(g + (yFrac >> 1) * s, s, w, h, out, os, average: true)
        case (1, 2), (3, 2):  // i, k
            center(g, s, w, h, out, os, average: false); halfVertical(g + (xFrac >> 1), s, w, h, out, os, average: true)
        default:  // e, g, p, r
            halfHorizontal(g + (yFrac >> 1) * s, s, w, h, out, os, average: false)
            halfVertical(g + (xFrac >> 1), s, w, h, out, os, average: true)
        }
    }

    /// Clip1Y of a 6-tap result in Int16 (8-bit samples: the tap lies in −2550…10710, far inside Int16, so that
    /// the rows vectorise eight samples to a 128-bit register rather than four in Int32).
    @inline(__always)
    static func clip255(_ value: Int16) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// Stores `value`, or the rounded average of it and what `out` holds (8-250 … 8-261).
    @inline(__always)
    static func store(_ value: UInt8, _ out: UnsafeMutablePointer<UInt8>, _ average: Bool) {
        out.pointee = average ? UInt8(truncatingIfNeeded: (UInt16(out.pointee) &+ UInt16(value) &+ 1) >> 1) : value
    }

    /// Full-sample rows (G), stored or averaged into `out`: whole rows as one 16-, 8- or 4-byte vector each (an element
    /// loop stayed byte by byte, the compiler not knowing that `g` and `out` never overlap).
    @inline(__always)
    static func copy(_ g: UnsafePointer<UInt8>, _ s: Int, _ w: Int, _ h: Int, _ out: UnsafeMutablePointer<UInt8>, _ os: Int,
                     average: Bool) {
        switch w {
        case 16: copyRows(g, s, h, out, os, average, SIMD16<UInt8>.self)
        case 8: copyRows(g, s, h, out, os, average, SIMD8<UInt8>.self)
        case 4: copyRows(g, s, h, out, os, average, SIMD4<UInt8>.self)
        default:
            for y in 0..<h {
                let r = g + y &* s, o = out + y &* os
                for x in 0..<w { store(r[x], o + x, average) }
            }
        }
    }

    /// `copy` for one row width, a vector type of that many samples.
    @inline(__always)
    static func copyRows<Row: SIMD>(_ g: UnsafePointer<UInt8>, _ s: Int, _ h: Int, _ out: UnsafeMutablePointer<UInt8>, _ os: Int,
                                    _ average: Bool, _: Row.Type) where Row.Scalar == UInt8 {
        for y in 0..<h {
            var row = UnsafeRawPointer(g + y &* s).loadUnaligned(as: Row.self)
            let o = UnsafeMutableRawPointer(out + y &* os)
            if average {
                // (a + b + 1) >> 1 without widening: (a | b) − ((a ^ b) >> 1).
                let other = o.loadUnaligned(as: Row.self)
                row = (row | other) &- ((row ^ other) &>> 1)
            }
            o.storeBytes(of: row, as: Row.self)
        }
    }

    @inline(__always)
    static func halfHorizontal(_ g: UnsafePointer<UInt8>, _ s: Int, _ w: Int, _ h: Int,
                               _ out: UnsafeMutablePointer<UInt8>, _ os: Int, average: Bool) {
        for y in 0..<h {
            let r = g + y &* s, o = out + y &* os
            for x in 0..<w {
                let v = Int16(r[x &- 2]) &+ Int16(r[x &+ 3]) &- 5 &* (Int16(r[x &- 1]) &+ Int16(r[x &+ 2]))
                    &+ 20 &* (Int16(r[x]) &+ Int16(r[x &+ 1]))
                store(clip255((v &+ 16) >> 5), o + x, average)
            }
        }
    }

    @inline(__always)
    static func halfVertical(_ g: UnsafePointer<UInt8>, _ s: Int, _ w: Int, _ h: Int,
                             _ out: UnsafeMutablePointer<UInt8>, _ os: Int, average: Bool) {
        for y in 0..<h {
            let r = g + y &* s, o = out + y &* os
            let m2 = r - 2 &* s, m1 = r - s, p1 = r + s, p2 = r + 2 &* s, p3 = r + 3 &* s
            for x in 0..<w {
                let v = Int16(m2[x]) &+ Int16(p3[x]) &- 5 &* (Int16(m1[x]) &+ Int16(p2[x]))
                    &+ 20 &* (Int16(r[x]) &+ Int16(p1[x]))
                store(clip255((v &+ 16) >> 5), o + x, average)
            }
        }
    }

    /// Position j: horizontal b1 intermediates for rows −2…h+2, then the vertical tap (8-245, 8-247).
    @inline(__always)
    static func center(_ g: UnsafePointer<UInt8>, _ s: Int, _ w: Int, _ h: Int,
                       _ out: UnsafeMutablePointer<UInt8>, _ os: Int, average: Bool) {
        // The intermediates b1 lie in −2550…10710 (Int16); the second tap needs Int32.
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 16 * 21) { buffer in
            let t = buffer.baseAddress!
            for y in 0..<(h + 5) {
                let r = g + (y &- 2) &* s, o = t + y &* 16
                for x in 0..<w {
                    o[x] = Int16(r[x &- 2]) &+ Int16(r[x &+ 3]) &- 5 &* (Int16(r[x &- 1]) &+ Int16(r[x &+ 2]))
                        &+ 20 &* (Int16(r[x]) &+ Int16(r[x &+ 1]))
                }
            }
            for y in 0..<h {
                let c = t + (y &+ 2) &* 16, o = out + y &* os
                let m2 = c - 32, m1 = c - 16, p1 = c + 16, p2 = c + 32, p3 = c + 48
                for x in 0..<w {
                    let v = Int32(m2[x]) &+ Int32(p3[x]) &- 5 &* (Int32(m1[x]) &+ Int32(p2[x])) &+ 20 &* (Int32(c[x]) &+ Int32(p1[x]))
                    store(clip1((v &+ 512) >> 10), o + x, average)
                }
            }
        }
    }
}
