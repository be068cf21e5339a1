/// Which way an edge runs.
public enum EdgeDirection: Sendable {
    /// A vertical edge: p samples left of it, q samples right, filtered along rows.
    case vertical
    /// A horizontal edge: p samples above, q samples below, filtered along columns.
    case horizontal
}

/// The edge filters of the deblocking filter (§8.7.2.3 for bS < 4, §8.7.2.4 for bS = 4), luma and
/// chroma, applied in place on a picture plane to a run of sample lines across one edge.
public enum DeblockingFilter {
    /// The plain version, as §8.7.2.2 … 8.7.2.4 write it, one line at a time.
    /// - Parameters:
    ///   - plane: the picture plane, filtered in place.
    ///   - x: column of q0 of the first line.
    ///   - y: row of q0 of the first line.
    ///   - direction: which way the edge runs.
    ///   - length: how many lines (samples along the edge) to filter.
    ///   - strength: bS, 0…4 (0 leaves the samples alone).
    ///   - thresholds: α, β and tC0 of the edge.
    ///   - isChroma: true for a chroma plane (chromaStyleFilteringFlag, 4:2:0).
    public static func filterReference(_ plane: MutablePlaneView, x: Int, y: Int, direction: EdgeDirection, length: Int,
                                       strength: Int, thresholds: DeblockingThresholds, isChroma: Bool) {
        guard strength > 0 else { return }
        let alpha = thresholds.alpha, beta = thresholds.beta
        for line in 0..<length {
            // Sample k on the p side (k = 0…3 → p_k) and the q side.
            func index(_ offset: Int) -> Int {
                direction == .vertical ? (y + line) * plane.stride + x + offset : (y + offset) * plane.stride + x + line
            }
            let p = (0..<4).map { Int(plane.base[index(-1 - $0)]) }
            let q = (0..<4).map { Int(plane.base[index($0)]) }
            let filterSamples = abs(p[0] - q[0]) < alpha && abs(p[1] - p[0]) < beta && abs(q[1] - q[0]) < beta  // 8-468
            guard filterSamples else { continue }
            let ap = abs(p[2] - p[0]), aq = abs(q[2] - q[0])  // 8-471, 8-472
            var pOut = p, qOut = q
            if strength < 4 {
                let tC0 = thresholds.tC0(strength: strength)
                let tC = isChroma ? tC0 + 1 : tC0 + (ap < beta ? 1 : 0) + (aq < beta ? 1 : 0)  // 8-473, 8-474
                let delta = min(max((((q[0] - p[0]) << 2) + (p[1] - q[1]) + 4) >> 3, -tC), tC)  // 8-475
                pOut[0] = Int(clip1(p[0] + delta))
                qOut[0] = Int(clip1(q[0] - delta))
                if !isChroma && ap < beta {
                    pOut[1] = p[1] + min(max((p[2] + ((p[0] + q[0] + 1) >> 1) - (p[1] << 1)) >> 1, -tC0), tC0)  // 8-478
                }
                if !isChroma && aq < beta {
                    qOut[1] = q[1] + min(max((q[2] + ((p[0] + q[0] + 1) >> 1) - (q[1] << 1)) >> 1, -tC0), tC0)  // 8-480
                }
            } else {
                let strong = abs(p[0] - q[0]) < ((alpha >> 2) + 2)
                if !isChroma && ap < beta && strong {  // 8-485 … 8-487
                    pOut[0] = (p[2] + 2 * p[1] + 2 * p[0] + 2 * q[0] + q[1] + 4) >> 3
                    pOut[1] = (p[2] + p[1] + p[0] + q[0] + 2) >> 2
                    pOut[2] = (2 * p[3] + 3 * p[2] + p[1] + p[0] + q[0] + 4) >> 3
                } else {
                    pOut[0] = (2 * p[1] + p[0] + q[1] + 2) >> 2  // 8-488
                }
                if !isChroma && aq < beta && strong {  // 8-492 … 8-494
                    qOut[0] = (p[1] + 2 * p[0] + 2 * q[0] + 2 * q[1] + q[2] + 4) >> 3
                    qOut[1] = (p[0] + q[0] + q[1] + q[2] + 2) >> 2
                    qOut[2] = (2 * q[3] + 3 * q[2] + q[1] + q[0] + p[0] + 4) >> 3
                } else {
                    qOut[0] = (2 * q[1] + q[0] + p[1] + 2) >> 2  // 8-495
                }
            }
            for k in 0..<3 {
                plane.base[index(-1 - k)] = UInt8(pOut[k])
                plane.base[index(k)] = UInt8(qOut[k])
            }
        }
    }

    /// The fast version: pointer walks on scalar locals, no allocation.
    ///
    /// Each line is addressed from its p3 sample with non-negative offsets only (p3 … p0 at 0 … 3 · a,
    /// q0 … q3 at 4 · a … 7 · a): Swift 6.3's SIL access-path analysis takes an `index_addr` by a
    /// negative constant (such as `q[-a]` once `a` is inlined as 1) to overlap the element it is
    /// next to, and dead-store elimination then dropped the p0/p1 stores before the q0 store in
    /// optimised builds (swiftlang/swift#77558, fixed in 6.4 by swiftlang/swift#89048).
    /// - Parameters:
    ///   - plane: the picture plane, filtered in place.
    ///   - x: column of q0 of the first line.
    ///   - y: row of q0 of the first line.
    ///   - direction: which way the edge runs.
    ///   - length: how many lines to filter.
    ///   - strength: bS, 0…4.
    ///   - thresholds: α, β and tC0 of the edge.
    ///   - isChroma: true for a chroma plane.
    @inlinable
    public static func filter(_ plane: MutablePlaneView, x: Int, y: Int, direction: EdgeDirection, length: Int,
                              strength: Int, thresholds: DeblockingThresholds, isChroma: Bool) {
        guard strength > 0, thresholds.alpha > 0, thresholds.beta > 0 else { return }
        let across = direction == .vertical ? 1 : plane.stride
        let along = direction == .vertical ? plane.stride : 1
        // p3 of the first line: four samples before q0 across the edge (an edge with p samples has x or y ≥ 4).
        var line = plane.base + (y &* plane.stride &+ x &- 4 &* across)
        let alpha = Int32(thresholds.alpha), beta = Int32(thresholds.beta)
        if strength < 4 {
            let tC0 = Int32(thresholds.tC0(strength: strength))
            for _ in 0..<length {
                filterNormal(line, across, alpha, beta, tC0, isChroma)
                line += along
            }
        } else {
            for _ in 0..<length {
                filterStrong(line, across, alpha, beta, isChroma)
                line += along
            }
        }
    }

    /// bS < 4 on one line (§8.7.2.3); `s` points at p3, samples `a` apart.
    @inlinable @inline(__always)
    static func filterNormal(_ s: UnsafeMutablePointer<UInt8>, _ a: Int, _ alpha: Int32, _ beta: Int32, _ tC0: Int32,
                             _ isChroma: Bool) {
        let p1 = Int32(s[2 &* a]), p0 = Int32(s[3 &* a]), q0 = Int32(s[4 &* a]), q1 = Int32(s[5 &* a])
        guard abs(p0 &- q0) < alpha, abs(p1 &- p0) < beta, abs(q1 &- q0) < beta else { return }
        if isChroma {
            let tC = tC0 &+ 1
            let delta = min(max((((q0 &- p0) << 2) &+ (p1 &- q1) &+ 4) >> 3, 0 &- tC), tC)
            s[3 &* a] = clip1(p0 &+ delta); s[4 &* a] = clip1(q0 &- delta)
            return
        }
        let p2 = Int32(s[a]), q2 = Int32(s[6 &* a])
        let ap = abs(p2 &- p0) < beta, aq = abs(q2 &- q0) < beta
        let tC = tC0 &+ (ap ? 1 : 0) &+ (aq ? 1 : 0)
        let delta = min(max((((q0 &- p0) << 2) &+ (p1 &- q1) &+ 4) >> 3, 0 &- tC), tC)
        let average = (p0 &+ q0 &+ 1) >> 1
        if ap { s[2 &* a] = UInt8(truncatingIfNeeded: p1 &+ min(max((p2 &+ average &- (p1 << 1)) >> 1, 0 &- tC0), tC0)) }
        if aq { s[5 &* a] = UInt8(truncatingIfNeeded: q1 &+ min(max((q2 &+ average &- (q1 << 1)) >> 1, 0 &- tC0), tC0)) }
        s[3 &* a] = clip1(p0 &+ delta); s[4 &* a] = clip1(q0 &- delta)
    }

    /// bS = 4 on one line (§8.7.2.4); `s` points at p3, samples `a` apart.
    @inlinable @inline(__always)
    static func filterStrong(_ s: UnsafeMutablePointer<UInt8>, _ a: Int, _ alpha: Int32, _ beta: Int32, _ isChroma: Bool) {
        let p1 = Int32(s[2 &* a]), p0 = Int32(s[3 &* a]), q0 = Int32(s[4 &* a]), q1 = Int32(s[5 &* a])
        guard abs(p0 &- q0) < alpha, abs(p1 &- p0) < beta, abs(q1 &- q0) < beta else { return }
        if isChroma {
            s[3 &* a] = UInt8(truncatingIfNeeded: (2 &* p1 &+ p0 &+ q1 &+ 2) >> 2)
            s[4 &* a] = UInt8(truncatingIfNeeded: (2 &* q1 &+ q0 &+ p1 &+ 2) >> 2)
            return
        }
        let p2 = Int32(s[a]), q2 = Int32(s[6 &* a])
        let strong = abs(p0 &- q0) < ((alpha >> 2) &+ 2)
        if strong && abs(p2 &- p0) < beta {
            let p3 = Int32(s[0])
            s[3 &* a] = UInt8(truncatingIfNeeded: (p2 &+ 2 &* p1 &+ 2 &* p0 &+ 2 &* q0 &+ q1 &+ 4) >> 3)
            s[2 &* a] = UInt8(truncatingIfNeeded: (p2 &+ p1 &+ p0 &+ q0 &+ 2) >> 2)
            s[a] = UInt8(truncatingIfNeeded: (2 &* p3 &+ 3 &* p2 &+ p1 &+ p0 &+ q0 &+ 4) >> 3)
        } else {
            s[3 &* a] = UInt8(truncatingIfNeeded: (2 &* p1 &+ p0 &+ q1 &+ 2) >> 2)
        }
        if strong && abs(q2 &- q0) < beta {
            let q3 = Int32(s[7 &* a])
            s[4 &* a] = UInt8(truncatingIfNeeded: (p1 &+ 2 &* p0 &+ 2 &* q0 &+ 2 &* q1 &+ q2 &+ 4) >> 3)
            s[5 &* a] = UInt8(truncatingIfNeeded: (p0 &+ q0 &+ q1 &+ q2 &+ 2) >> 2)
            s[6 &* a] = UInt8(truncatingIfNeeded: (2 &* q3 &+ 3 &* q2 &+ q1 &+ q0 &+ p0 &+ 4) >> 3)
        } else {
            s[4 &* a] = UInt8(truncatingIfNeeded: (2 &* q1 &+ q0 &+ p1 &+ 2) >> 2)
        }
    }

    /// One whole luma macroblock edge of 16 lines with bS < 4 on every segment (§8.7.2.3), the four segments' bS in
    /// `strengths` (0 leaves a segment alone). The 16 lines are filtered together without a branch per line: every
    /// decision is a select, so the compiler vectorises the loop across the lines. A horizontal edge is filtered in
    /// place (its lines are neighbouring columns); a vertical one is transposed into a 16-wide scratch block, filtered
    /// there and transposed back.
    /// - Parameters:
    ///   - plane: the luma plane, filtered in place.
    ///   - x: column of q0 of the first line.
    ///   - y: row of q0 of the first line.
    ///   - direction: which way the edge runs.
    ///   - strengths: bS of the four 4-line segments, each 0…3.
    ///   - thresholds: α, β and tC0 of the edge.
    @inlinable
    public static func filterLumaEdge(_ plane: MutablePlaneView, x: Int, y: Int, direction: EdgeDirection,
                                      strengths: (Int, Int, Int, Int), thresholds: DeblockingThresholds) {
        guard thresholds.alpha > 0, thresholds.beta > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * 8 + 16) { buffer in
            let scratch = buffer.baseAddress!
            // tC0 of each line, −1 where bS is 0 (bytes 128…143, as Int8).
            let limits = UnsafeMutableRawPointer(scratch + 128).assumingMemoryBound(to: Int8.self)
            @inline(__always) func limit(_ strength: Int) -> Int8 {
                strength > 0 ? Int8(truncatingIfNeeded: thresholds.tC0(strength: strength)) : -1
            }
            let l0 = limit(strengths.0), l1 = limit(strengths.1), l2 = limit(strengths.2), l3 = limit(strengths.3)
            for line in 0..<4 { limits[line] = l0; limits[line &+ 4] = l1; limits[line &+ 8] = l2; limits[line &+ 12] = l3 }
            let alpha = Int16(truncatingIfNeeded: thresholds.alpha), beta = Int16(truncatingIfNeeded: thresholds.beta)
            if direction == .horizontal {
                // Rows p2 … q2 from the p3 row down (non-negative offsets only; see `filter`).
                filterLumaLines(plane.base + ((y &- 4) &* plane.stride &+ x), plane.stride, limits, alpha, beta)
                return
            }
            // Transposed: scratch row k holds sample k (p3 … q3) of each of the 16 lines, two 8x8 byte blocks
            // transposed in 64-bit words (eight loads and stores per block instead of 64 of each).
            let origin = plane.base + (y &* plane.stride &+ x &- 4)
            let words = UnsafeMutableRawPointer(scratch)
            for half in 0..<2 {
                var block = loadRows(origin + half &* 8 &* plane.stride, plane.stride)
                transpose(&block)
                withUnsafeBytes(of: &block) { rows in
                    for k in 0..<8 {
                        words.storeBytes(of: rows.load(fromByteOffset: k &* 8, as: UInt64.self), toByteOffset: k &* 16 &+ half &* 8,
                                         as: UInt64.self)
                    }
                }
            }
            filterLumaLines(scratch, 16, limits, alpha, beta)
            for half in 0..<2 {
                var block = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                withUnsafeMutableBytes(of: &block) { rows in
                    for k in 0..<8 {
                        rows.storeBytes(of: words.loadUnaligned(fromByteOffset: k &* 16 &+ half &* 8, as: UInt64.self), toByteOffset: k &* 8,
                                        as: UInt64.self)
                    }
                }
                transpose(&block)
                storeRows(block, origin + half &* 8 &* plane.stride, plane.stride)
            }
        }
    }

    /// Eight rows of eight samples, each as one 64-bit word (sample k in byte k of the little-endian value).
    public typealias ByteBlock = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// Loads eight rows of eight samples from `origin`, rows `stride` apart.
    @inlinable @inline(__always)
    static func loadRows(_ origin: UnsafeMutablePointer<UInt8>, _ stride: Int) -> ByteBlock {
        @inline(__always) func row(_ i: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(origin + i &* stride).loadUnaligned(as: UInt64.self))
        }
        return (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
    }

    /// Stores eight rows of eight samples at `origin`, rows `stride` apart.
    @inlinable @inline(__always)
    static func storeRows(_ block: ByteBlock, _ origin: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        @inline(__always) func row(_ i: Int, _ value: UInt64) {
            UnsafeMutableRawPointer(origin + i &* stride).storeBytes(of: value.littleEndian, as: UInt64.self)
        }
        row(0, block.0); row(1, block.1); row(2, block.2); row(3, block.3)
        row(4, block.4); row(5, block.5); row(6, block.6); row(7, block.7)
    }

    /// Transposes an 8x8 block of bytes held as eight 64-bit rows (byte j of row i goes to byte i of row j): 2x2
    /// blocks of bytes, then of 16-bit pairs, then of 32-bit halves swapped across the diagonal.
    @inlinable @inline(__always)
    public static func transpose(_ b: inout ByteBlock) {
        @inline(__always) func swap(_ a: inout UInt64, _ c: inout UInt64, _ shift: UInt64, _ mask: UInt64) {
            let t = ((a >> shift) ^ c) & mask
            c ^= t
            a ^= t << shift
        }
        let m1: UInt64 = 0x00FF_00FF_00FF_00FF, m2: UInt64 = 0x0000_FFFF_0000_FFFF, m4: UInt64 = 0x0000_0000_FFFF_FFFF
        swap(&b.0, &b.1, 8, m1); swap(&b.2, &b.3, 8, m1); swap(&b.4, &b.5, 8, m1); swap(&b.6, &b.7, 8, m1)
        swap(&b.0, &b.2, 16, m2); swap(&b.1, &b.3, 16, m2); swap(&b.4, &b.6, 16, m2); swap(&b.5, &b.7, 16, m2)
        swap(&b.0, &b.4, 32, m4); swap(&b.1, &b.5, 32, m4); swap(&b.2, &b.6, 32, m4); swap(&b.3, &b.7, 32, m4)
    }

    /// bS < 4 (§8.7.2.3) on 16 neighbouring lines laid out across: `top` points at p3 of line 0, samples of a line
    /// `stride` apart, line i at `top + i`; `limits[i]` is tC0 of line i, −1 to leave it alone.
    @inlinable @inline(__always)
    static func filterLumaLines(_ top: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limits: UnsafeMutablePointer<Int8>,
                                _ alpha: Int16, _ beta: Int16) {
        let rp2 = top + stride, rp1 = top + 2 &* stride, rp0 = top + 3 &* stride
        let rq0 = top + 4 &* stride, rq1 = top + 5 &* stride, rq2 = top + 6 &* stride
        for i in 0..<16 {
            let p2 = Int16(rp2[i]), p1 = Int16(rp1[i]), p0 = Int16(rp0[i])
            let q0 = Int16(rq0[i]), q1 = Int16(rq1[i]), q2 = Int16(rq2[i])
            let tC0 = Int16(limits[i])
            @inline(__always) func magnitude(_ v: Int16) -> Int16 { v < 0 ? 0 &- v : v }
            let on: Int16 = (magnitude(p0 &- q0) < alpha ? 1 : 0) & (magnitude(p1 &- p0) < beta ? 1 : 0)
                & (magnitude(q1 &- q0) < beta ? 1 : 0) & (tC0 >= 0 ? 1 : 0)
            let ap: Int16 = magnitude(p2 &- p0) < beta ? 1 : 0, aq: Int16 = magnitude(q2 &- q0) < beta ? 1 : 0
            let tC = tC0 &+ ap &+ aq
            let delta = min(max((((q0 &- p0) << 2) &+ (p1 &- q1) &+ 4) >> 3, 0 &- tC), tC)
            let average = (p0 &+ q0 &+ 1) >> 1
            let np1 = p1 &+ min(max((p2 &+ average &- (p1 << 1)) >> 1, 0 &- tC0), tC0)
            let nq1 = q1 &+ min(max((q2 &+ average &- (q1 << 1)) >> 1, 0 &- tC0), tC0)
            let np0 = min(max(p0 &+ delta, 0), 255), nq0 = min(max(q0 &- delta, 0), 255)
            rp1[i] = UInt8(truncatingIfNeeded: on & ap != 0 ? np1 : p1)
            rp0[i] = UInt8(truncatingIfNeeded: on != 0 ? np0 : p0)
            rq0[i] = UInt8(truncatingIfNeeded: on != 0 ? nq0 : q0)
            rq1[i] = UInt8(truncatingIfNeeded: on & aq != 0 ? nq1 : q1)
        }
    }
}
