import Dispatch
import Foundation
import NativeH264Kernels
import Synchronization

/// The deblocking filter of one coded picture (§8.7): what its bS and thresholds are derived from (the
/// macroblocks' QPY, intra flags, TotalCoeff and vectors, §8.7.2.1, §8.7.2.2), read-only while it runs, and the
/// per-macroblock filtering, on one thread or on several in a wavefront.
///
/// The spec filters macroblocks in raster order, each one's vertical edges left to right, then its horizontal
/// edges top to bottom. Macroblock (x, y) reads and writes samples of itself, of its left neighbour (the three
/// columns next to its left edge) and of the one above (the three rows above its top edge); the one above was
/// last written by its own filtering and by the left edge of (x + 1, y − 1). So (x, y) gives the raster order's
/// samples once (x − 1, y), (x, y − 1) and (x + 1, y − 1) are done: rows can run on different threads, each at
/// least two macroblocks behind the row above (x264's deblocking in its row-threading does the same).
struct PictureDeblocking: Sendable {
    let widthInMbs: Int, heightInMbs: Int
    /// Per macroblock (raster): its QPY as the decoder derives it.
    let macroblockQPs: [UInt8]
    /// Per macroblock: coded in an intra mode.
    let macroblockIsIntra: [Bool]
    /// TotalCoeff of each 4x4 luma block, raster over the picture's 4x4 grid.
    let lumaTotals: [UInt8]
    /// mvL0 of each 4x4 luma block, raster over the picture's 4x4 grid.
    let motionVectors: [SIMD2<Int32>]

    /// Filters the picture in `planes` on up to `threads` threads; the samples are those of the raster order
    /// whatever the thread count.
    /// - Parameters:
    ///   - planes: the reconstruction's three planes, whole macroblocks.
    ///   - threads: the most threads (1: the calling thread alone).
    func run(on planes: DeblockingPlanes, threads: Int) {
        let workers = min(threads, heightInMbs)
        guard workers > 1 else {
            for mbY in 0..<heightInMbs { for mbX in 0..<widthInMbs { filter(mbX: mbX, mbY: mbY, planes) } }
            return
        }
        let progress = WavefrontProgress(rows: heightInMbs)
        defer { progress.deallocate() }
        let pass = self
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            // Each worker takes the next row not yet taken. A row is taken only after the row above it was, by
            // a worker that is running, so waiting for the row above always ends (even on one thread).
            while let row = progress.takeRow() {
                var above = row == 0 ? pass.widthInMbs : 0
                for mbX in 0..<pass.widthInMbs {
                    let needed = min(mbX + 2, pass.widthInMbs)
                    while above < needed { above = progress.waitForProgress(of: row - 1, beyond: above) }
                    pass.filter(mbX: mbX, mbY: row, planes)
                    progress.finish(mbX + 1, macroblocksOf: row)
                }
            }
        }
    }

    /// Filters the edges of macroblock (mbX, mbY) in its three planes: luma vertical edges left to right, luma
    /// horizontal edges top to bottom, then the same for Cb and Cr. Each 4-sample segment of an edge gets its own bS
    /// (§8.7.2.1) from the two 4x4 blocks beside it; chroma edges 0 and 4 take the bS of luma edges 0 and 8 (4:2:0).
    func filter(mbX: Int, mbY: Int, _ planes: DeblockingPlanes) {
        // qPp and qPq of each edge (§8.7.2.2): the QPY (QPC) of the macroblocks either side.
        let mb = mbY * widthInMbs + mbX
        let here = Int(macroblockQPs[mb])
        let left = mbX > 0 ? Int(macroblockQPs[mb - 1]) : here, top = mbY > 0 ? Int(macroblockQPs[mb - widthInMbs]) : here
        // bS[direction · 16 + edge · 4 + segment]: direction 0 vertical edges, 1 horizontal edges (inline, no heap),
        // derived as BoundaryStrength.derive does (§8.7.2.1), read in place from the picture's arrays.
        var strengths = InlineArray<32, UInt8>(repeating: 0)
        var anyStrength = 0
        macroblockIsIntra.withUnsafeBufferPointer { intra in
            lumaTotals.withUnsafeBufferPointer { totals in
                motionVectors.withUnsafeBufferPointer { vectors in
                    let gridStride = widthInMbs &* 4
                    let origin = mbY &* 4 &* gridStride &+ mbX &* 4
                    let isIntra = intra[mb]
                    let leftIntra = mbX > 0 && intra[mb &- 1], topIntra = mbY > 0 && intra[mb &- widthInMbs]
                    /// bS of the edge between blocks p and q (grid indices); `pIntra`: p's macroblock is intra.
                    @inline(__always) func derive(_ p: Int, _ q: Int, pIntra: Bool, isMacroblockEdge: Bool) -> Int {
                        if isIntra || pIntra { return isMacroblockEdge ? 4 : 3 }
                        if totals[p] != 0 || totals[q] != 0 { return 2 }
                        let difference = vectors[p] &- vectors[q]
                        return abs(difference.x) >= 4 || abs(difference.y) >= 4 ? 1 : 0
                    }
                    for edge in 0..<4 {
                        let isMacroblockEdge = edge == 0
                        for segment in 0..<4 {
                            if mbX > 0 || edge > 0 {
                                let q = origin &+ segment &* gridStride &+ edge
                                let value = derive(q &- 1, q, pIntra: isMacroblockEdge ? leftIntra : isIntra, isMacroblockEdge: isMacroblockEdge)
                                strengths[edge &* 4 &+ segment] = UInt8(truncatingIfNeeded: value)
                                anyStrength |= value
                            }
                            if mbY > 0 || edge > 0 {
                                let q = origin &+ edge &* gridStride &+ segment
                                let value = derive(q &- gridStride, q, pIntra: isMacroblockEdge ? topIntra : isIntra,
                                                   isMacroblockEdge: isMacroblockEdge)
                                strengths[16 &+ edge &* 4 &+ segment] = UInt8(truncatingIfNeeded: value)
                                anyStrength |= value
                            }
                        }
                    }
                }
            }
        }
        // bS 0 everywhere (a still or skipped area): no edge of the macroblock is filtered (§8.7.2: bS 0 leaves the samples).
        if anyStrength == 0 { return }
        let luma = EdgeThresholds(left: DeblockingThresholds(qPp: left, qPq: here), top: DeblockingThresholds(qPp: top, qPq: here),
                                  inner: DeblockingThresholds(qPp: here, qPq: here))
        let (c, cl, ct) = (ChromaQuantisation.chromaQP(lumaQP: here), ChromaQuantisation.chromaQP(lumaQP: left),
                           ChromaQuantisation.chromaQP(lumaQP: top))
        let chroma = EdgeThresholds(left: DeblockingThresholds(qPp: cl, qPq: c), top: DeblockingThresholds(qPp: ct, qPq: c),
                                    inner: DeblockingThresholds(qPp: c, qPq: c))
        SliceCoder.filterMacroblock(planes.luma, x: mbX * 16, y: mbY * 16, strengths: strengths, thresholds: luma, isChroma: false)
        SliceCoder.filterMacroblock(planes.cb, x: mbX * 8, y: mbY * 8, strengths: strengths, thresholds: chroma, isChroma: true)
        SliceCoder.filterMacroblock(planes.cr, x: mbX * 8, y: mbY * 8, strengths: strengths, thresholds: chroma, isChroma: true)
    }
}

/// The three planes the deblocking filter writes, in memory its caller owns for the whole pass.
///
/// Unchecked `Sendable`: the wavefront (``PictureDeblocking/run(on:threads:)``) hands the views to several threads,
/// and its order keeps their writes apart — a thread filters a macroblock only when no other thread reads or writes
/// the samples it touches (the macroblocks it depends on are finished, those that depend on it not started).
struct DeblockingPlanes: @unchecked Sendable {
    /// The luma plane.
    let luma: MutablePlaneView
    /// The Cb plane.
    let cb: MutablePlaneView
    /// The Cr plane.
    let cr: MutablePlaneView
}

/// The shared state of a wavefront over macroblock rows: the next row to take, and per row how many of its
/// macroblocks are finished (stored after a macroblock's samples, loaded before the next row reads them).
///
/// A thread that waits for the row above spins briefly, then sleeps on a condition that every finished macroblock
/// signals while someone sleeps: on a loaded machine the thread it waits for may not be running, and spinning would
/// take the processor from it.
final class WavefrontProgress: @unchecked Sendable {
    private let nextRow = Atomic<Int>(0)
    /// Threads asleep (or about to sleep) on ``condition``.
    private let sleepers = Atomic<Int>(0)
    private let condition = NSCondition()
    private let finished: UnsafeMutablePointer<Atomic<Int>>
    private let rows: Int

    /// Creates the progress of `rows` rows, none taken.
    init(rows: Int) {
        self.rows = rows
        finished = .allocate(capacity: rows)
        for row in 0..<rows { (finished + row).initialize(to: Atomic(0)) }
    }

    /// The next row not yet taken, `nil` once every row is.
    func takeRow() -> Int? {
        let row = nextRow.wrappingAdd(1, ordering: .relaxed).oldValue
        return row < rows ? row : nil
    }

    /// Records that the first `count` macroblocks of `row` are finished, and wakes the sleepers.
    ///
    /// The store and the load of ``sleepers`` are sequentially consistent, as are a sleeper's increment and its
    /// check of the count: either this load sees the sleeper (and signals under the lock, which the sleeper holds until
    /// it waits) or the sleeper's check sees the count, so no wake-up is lost.
    func finish(_ count: Int, macroblocksOf row: Int) {
        finished[row].store(count, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// How many macroblocks of `row` are finished, once more than `known` are.
    func waitForProgress(of row: Int, beyond known: Int) -> Int {
        for _ in 0..<512 {
            let count = finished[row].load(ordering: .acquiring)
            if count > known { return count }
        }
        condition.lock()
        defer { condition.unlock() }
        sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { sleepers.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        while true {
            let count = finished[row].load(ordering: .sequentiallyConsistent)
            if count > known { return count }
            condition.wait()
        }
    }

    /// Frees the counters; call once every worker has returned.
    func deallocate() {
        finished.deinitialize(count: rows)
        finished.deallocate()
    }
}
