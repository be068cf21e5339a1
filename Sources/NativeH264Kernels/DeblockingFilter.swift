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
}
