import Dispatch
import Foundation
import H264

extension NativeH264Encoder {
    /// The processors this process may run on (its CPU affinity and quota), at most
    /// ``maximumThreadCount``: the default ``threadCount``.
    public static var availableProcessorCount: Int { min(max(1, ProcessInfo.processInfo.activeProcessorCount), maximumThreadCount) }

    /// The most threads an encoder accepts. Each thread that codes slices holds a picture-sized copy of
    /// the coder's state (about 2.2 bytes per pixel: 4.5 MB at 1920x1080), so the count is capped.
    public static let maximumThreadCount = 64

    /// Slice threading: `workers` threads code `slices` (worker k the slices k, k + workers, …), each
    /// on a copy of `coder` of its own; the coded slices are then taken into `coder` and the NAL units
    /// returned in slice order.
    ///
    /// Why this is safe and gives the single-thread output:
    /// - A worker reads only what no one writes while the workers run: the source picture, the
    ///   reference picture and the prototype coder (`let` copies of value types whose storage is shared
    ///   copy-on-write; the first write of a worker copies it, so workers never write shared storage).
    /// - The one reference type in a coder, its ``MacroblockScratch``, is replaced in each copy by
    ///   one of the worker's own.
    /// - Within its copy a worker reads only macroblocks of the slice it codes (§6.4.8: a macroblock of
    ///   another slice is not available), which it wrote itself, so a slice's bits and samples do not
    ///   depend on which worker coded the slices before it, or when.
    /// - Each worker stores its result in its own element of a buffer allocated before and read after
    ///   `concurrentPerform`, which returns only when every iteration is done (its happens-before edge).
    /// - Deblocking runs afterwards, on the whole picture: a wavefront over macroblock rows on up to
    ///   ``threadCount`` threads (``PictureDeblocking``), which gives the samples of the raster order.
    func encodeInParallel(_ slices: [Range<Int>], workers: Int, coder: inout SliceCoder, header: H264SliceHeader) -> [[UInt8]] {
        let results = WorkerResults(count: workers)
        defer { results.deallocate() }
        let prototype = coder
        let encoder = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var local = prototype
            local.scratch = MacroblockScratch()  // the macroblock working memory is a class: one per thread
            var units = [[UInt8]]()
            for index in stride(from: worker, to: slices.count, by: workers) {
                units.append(encoder.encodeSlice(slices[index], with: &local, header: header))
            }
            results.store(WorkerResult(coder: local, units: units), at: worker)
        }
        coder = results[0].coder
        var units = [[UInt8]]()
        units.reserveCapacity(slices.count)
        for index in slices.indices {
            let worker = index % workers
            units.append(results[worker].units[index / workers])
            if worker != 0 { coder.adopt(slices[index], from: results[worker].coder) }
        }
        for worker in 1..<workers { coder.macroblockTypes.add(results[worker].coder.macroblockTypes) }
        return units
    }
}

/// What one slice-threading worker produced: its coder (holding its slices' macroblocks) and the NAL
/// units of its slices in order.
struct WorkerResult: Sendable {
    var coder: SliceCoder
    var units: [[UInt8]]
}

/// One result slot per worker, written by that worker alone during `concurrentPerform` and read after
/// it returns: disjoint writes, then reads, so no two threads touch one slot at the same time.
final class WorkerResults: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<WorkerResult?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    /// Stores worker `index`'s result; called by that worker only.
    func store(_ result: WorkerResult, at index: Int) { slots[index] = result }

    /// Worker `index`'s result, once every worker is done.
    subscript(index: Int) -> WorkerResult {
        guard let result = slots[index] else { preconditionFailure("slice worker \(index) stored no result") }
        return result
    }

    /// Frees the slots.
    func deallocate() {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}
