extension DeblockingFilter {
    /// One chroma macroblock edge of both chroma planes at once (4:2:0: 8 lines of Cb and 8 of Cr, §8.7.2.3 for
    /// bS < 4 and §8.7.2.4 for bS = 4, chromaStyleFilteringFlag 1), each 2-line segment with its own bS 0…4 (0 leaves
    /// it alone). The 16 lines are gathered into one 16-wide block (Cb's lines 0…7, Cr's 8…15) and filtered without a
    /// branch per line, every decision a select, so that the compiler vectorises the loop across the lines; only p0
    /// and q0 change, and only they are written back. A vertical edge is read through 8x8 byte transposes.
    /// - Parameters:
    ///   - cb: the Cb plane, filtered in place.
    ///   - cr: the Cr plane, filtered in place.
    ///   - x: column of q0 of the first line (the same in both planes).
    ///   - y: row of q0 of the first line.
    ///   - direction: which way the edge runs.
    ///   - strengths: bS of the four 2-line segments, each 0…4.
    ///   - cbThresholds: α, β and tC0 of the edge in Cb.
    ///   - crThresholds: α, β and tC0 of the edge in Cr.
    @inlinable
    public static func filterChromaEdges(cb: MutablePlaneView, cr: MutablePlaneView, x: Int, y: Int, direction: EdgeDirection,
                                         strengths: (Int, Int, Int, Int), cbThresholds: DeblockingThresholds,
                                         crThresholds: DeblockingThresholds) {
        guard cbThresholds.alpha > 0 || crThresholds.alpha > 0, cbThresholds.beta > 0 || crThresholds.beta > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * 4 + 16 * 3) { buffer in
            // Rows p1, p0, q0, q1 of the 16 lines (bytes 0…63), then per line the limit, α and β (64…111).
            let rows = buffer.baseAddress!
            let limits = UnsafeMutableRawPointer(rows + 64).assumingMemoryBound(to: Int8.self)
            let alphas = rows + 80, betas = rows + 96
            // tC0 of a line, −1 where bS is 0, 127 where bS is 4 (tC0 is at most 25).
            @inline(__always) func limit(_ strength: Int, _ thresholds: DeblockingThresholds) -> Int8 {
                strength == 0 ? -1 : strength >= 4 ? 127 : Int8(truncatingIfNeeded: thresholds.tC0(strength: strength))
            }
            @inline(__always) func fill(_ plane: Int, _ thresholds: DeblockingThresholds) {
                let l0 = limit(strengths.0, thresholds), l1 = limit(strengths.1, thresholds)
                let l2 = limit(strengths.2, thresholds), l3 = limit(strengths.3, thresholds)
                let alpha = UInt8(truncatingIfNeeded: thresholds.alpha), beta = UInt8(truncatingIfNeeded: thresholds.beta)
                for line in 0..<2 {
                    limits[plane &+ line] = l0; limits[plane &+ 2 &+ line] = l1
                    limits[plane &+ 4 &+ line] = l2; limits[plane &+ 6 &+ line] = l3
                }
                for line in 0..<8 { alphas[plane &+ line] = alpha; betas[plane &+ line] = beta }
            }
            fill(0, cbThresholds)
            fill(8, crThresholds)
            let words = UnsafeMutableRawPointer(rows)
            if direction == .horizontal {
                // Rows p1 … q1 of each plane, its 8 lines side by side.
                @inline(__always) func gather(_ half: Int, _ plane: MutablePlaneView) {
                    let origin = plane.base + ((y &- 2) &* plane.stride &+ x)
                    for k in 0..<4 {
                        words.storeBytes(of: UnsafeRawPointer(origin + k &* plane.stride).loadUnaligned(as: UInt64.self),
                                         toByteOffset: k &* 16 &+ half, as: UInt64.self)
                    }
                }
                @inline(__always) func scatter(_ half: Int, _ plane: MutablePlaneView) {
                    let origin = plane.base + ((y &- 2) &* plane.stride &+ x)
                    for k in 1..<3 {
                        UnsafeMutableRawPointer(origin + k &* plane.stride)
                            .storeBytes(of: words.loadUnaligned(fromByteOffset: k &* 16 &+ half, as: UInt64.self), as: UInt64.self)
                    }
                }
                gather(0, cb); gather(8, cr)
                filterChromaLines(rows, limits, alphas, betas)
                scatter(0, cb); scatter(8, cr)
                return
            }
            // Vertical: each plane's 8 lines p3 … q3 transposed, so that row k of the block is sample k of every line.
            @inline(__always) func gather(_ half: Int, _ plane: MutablePlaneView) {
                var block = loadRows(plane.base + (y &* plane.stride &+ x &- 4), plane.stride)
                transpose(&block)
                words.storeBytes(of: block.2.littleEndian, toByteOffset: half, as: UInt64.self)
                words.storeBytes(of: block.3.littleEndian, toByteOffset: 16 &+ half, as: UInt64.self)
                words.storeBytes(of: block.4.littleEndian, toByteOffset: 32 &+ half, as: UInt64.self)
                words.storeBytes(of: block.5.littleEndian, toByteOffset: 48 &+ half, as: UInt64.self)
            }
            // Only p0 and q0 change: two bytes per line.
            @inline(__always) func scatter(_ half: Int, _ plane: MutablePlaneView) {
                var sample = plane.base + (y &* plane.stride &+ x &- 1)
                for line in 0..<8 {
                    sample[0] = rows[16 &+ half &+ line]
                    sample[1] = rows[32 &+ half &+ line]
                    sample += plane.stride
                }
            }
            gather(0, cb); gather(8, cr)
            filterChromaLines(rows, limits, alphas, betas)
            scatter(0, cb); scatter(8, cr)
        }
    }

    /// Chroma filtering (bS < 4: §8.7.2.3, bS = 4: §8.7.2.4) of 16 lines laid out across: `rows` holds p1, p0, q0 and
    /// q1 of line i at bytes i, 16 + i, 32 + i and 48 + i; p0 and q0 are filtered in place. `limits[i]` is tC0 of line
    /// i, −1 to leave it alone, 127 for bS 4; `alphas[i]` and `betas[i]` are its α and β.
    @inlinable @inline(__always)
    static func filterChromaLines(_ rows: UnsafeMutablePointer<UInt8>, _ limits: UnsafeMutablePointer<Int8>,
                                  _ alphas: UnsafeMutablePointer<UInt8>, _ betas: UnsafeMutablePointer<UInt8>) {
        let rp1 = rows, rp0 = rows + 16, rq0 = rows + 32, rq1 = rows + 48
        for i in 0..<16 {
            let p1 = Int16(rp1[i]), p0 = Int16(rp0[i]), q0 = Int16(rq0[i]), q1 = Int16(rq1[i])
            let tC0 = Int16(limits[i]), alpha = Int16(alphas[i]), beta = Int16(betas[i])
            @inline(__always) func magnitude(_ v: Int16) -> Int16 { v < 0 ? 0 &- v : v }
            let on: Int16 = (magnitude(p0 &- q0) < alpha ? 1 : 0) & (magnitude(p1 &- p0) < beta ? 1 : 0)
                & (magnitude(q1 &- q0) < beta ? 1 : 0) & (tC0 >= 0 ? 1 : 0)
            let tC = tC0 &+ 1
            let delta = min(max((((q0 &- p0) << 2) &+ (p1 &- q1) &+ 4) >> 3, 0 &- tC), tC)
            let weakP = min(max(p0 &+ delta, 0), 255), weakQ = min(max(q0 &- delta, 0), 255)
            let strongP = (2 &* p1 &+ p0 &+ q1 &+ 2) >> 2, strongQ = (2 &* q1 &+ q0 &+ p1 &+ 2) >> 2
            let strong = tC0 == 127
            let np0 = strong ? strongP : weakP, nq0 = strong ? strongQ : weakQ
            rp0[i] = UInt8(truncatingIfNeeded: on != 0 ? np0 : p0)
            rq0[i] = UInt8(truncatingIfNeeded: on != 0 ? nq0 : q0)
        }
    }
}
