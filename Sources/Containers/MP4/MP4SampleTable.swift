/// The sample tables of one track of a classic MP4 file, gathered while the samples are written and
/// serialized into `stbl` at the end (ISO/IEC 14496-12 §8.5–§8.7): `stts`, `ctts`, `stss`, `stsc`,
/// `stsz` and `stco`, or `co64` once an offset passes 4 GiB.
///
/// About 25 bytes a sample: an hour of 30 fps video is under 3 MB.
struct MP4SampleTable {
    private(set) var decodeTimes: [Int64] = []
    private(set) var compositionOffsets: [Int64] = []
    private(set) var sizes: [UInt32] = []
    private(set) var syncSamples: [UInt32] = []
    /// The last sample's own duration (the next sample's decode time decides the others).
    private(set) var lastDuration: Int64 = 0
    private(set) var chunkOffsets: [Int64] = []
    private(set) var samplesPerChunk: [UInt32] = []

    var sampleCount: Int { sizes.count }

    var estimatedByteCount: Int { sizes.count * 20 + chunkOffsets.count * 12 + 256 }

    /// Records a sample written at `offset`; `continuesChunk` when it follows the track's previous
    /// sample directly in the file.
    mutating func append(_ placement: MP4TrackTimeline.Placement, size: Int, isSync: Bool, offset: Int64, continuesChunk: Bool) {
        decodeTimes.append(placement.decodeTime)
        compositionOffsets.append(placement.compositionOffset)
        sizes.append(UInt32(truncatingIfNeeded: size))
        if isSync { syncSamples.append(UInt32(truncatingIfNeeded: sizes.count)) }
        lastDuration = placement.duration
        if continuesChunk, let last = samplesPerChunk.indices.last {
            samplesPerChunk[last] += 1
        } else {
            chunkOffsets.append(offset)
            samplesPerChunk.append(1)
        }
    }

    /// The duration of sample `index` in track units.
    func duration(at index: Int) -> Int64 {
        if index + 1 < decodeTimes.count { return decodeTimes[index + 1] - decodeTimes[index] }
        if lastDuration > 0 || index == 0 { return lastDuration }
        return decodeTimes[index] - decodeTimes[index - 1]
    }

    /// The sum of the sample durations.
    var mediaDuration: Int64 {
        guard let last = decodeTimes.indices.last else { return 0 }
        return decodeTimes[last] + duration(at: last)
    }

    /// The end of the last sample to be presented: the latest composition time plus its duration.
    var presentationEnd: Int64 {
        var end: Int64 = 0
        for index in decodeTimes.indices {
            end = max(end, decodeTimes[index] + compositionOffsets[index] + duration(at: index))
        }
        return end
    }

    /// The earliest composition time (decode time + offset) of any sample.
    var earliestCompositionTime: Int64 {
        zip(decodeTimes, compositionOffsets).map { $0 + $1 }.min() ?? 0
    }

    /// Writes the tables after the `stsd` box.
    func write(into stbl: inout MP4BoxBuilder, chunkOffsetShift: Int64, forcesLargeOffsets: Bool) {
        // stts: runs of equal durations.
        var runs: [(count: UInt32, delta: UInt32)] = []
        for index in sizes.indices {
            let delta = UInt32(clamping: duration(at: index))
            if let last = runs.last, last.delta == delta { runs[runs.count - 1].count += 1 } else { runs.append((1, delta)) }
        }
        stbl.fullBox("stts") { stts in
            stts.uint32(UInt32(runs.count))
            for run in runs { stts.uint32(run.count); stts.uint32(run.delta) }
        }
        // ctts: runs of equal composition offsets; version 1 (signed) when one is negative.
        if compositionOffsets.contains(where: { $0 != 0 }) {
            var offsets: [(count: UInt32, offset: Int64)] = []
            for offset in compositionOffsets {
                if let last = offsets.last, last.offset == offset { offsets[offsets.count - 1].count += 1 } else { offsets.append((1, offset)) }
            }
            let negative = compositionOffsets.contains { $0 < 0 }
            stbl.fullBox("ctts", version: negative ? 1 : 0) { ctts in
                ctts.uint32(UInt32(offsets.count))
                for run in offsets {
                    ctts.uint32(run.count)
                    if negative { ctts.int32(Int32(clamping: run.offset)) } else { ctts.uint32(UInt32(clamping: run.offset)) }
                }
            }
        }
        // stss: absent when every sample is a sync sample (§8.6.2.1).
        if syncSamples.count != sizes.count {
            stbl.fullBox("stss") { stss in
                stss.uint32(UInt32(syncSamples.count))
                for number in syncSamples { stss.uint32(number) }
            }
        }
        // stsc: runs of chunks with the same sample count.
        var chunkRuns: [(firstChunk: UInt32, samples: UInt32)] = []
        for (index, count) in samplesPerChunk.enumerated() where chunkRuns.last?.samples != count {
            chunkRuns.append((UInt32(index + 1), count))
        }
        stbl.fullBox("stsc") { stsc in
            stsc.uint32(UInt32(chunkRuns.count))
            for run in chunkRuns { stsc.uint32(run.firstChunk); stsc.uint32(run.samples); stsc.uint32(1) }
        }
        stbl.fullBox("stsz") { stsz in
            if let first = sizes.first, sizes.allSatisfy({ $0 == first }) {
                stsz.uint32(first)
                stsz.uint32(UInt32(sizes.count))
            } else {
                stsz.uint32(0)
                stsz.uint32(UInt32(sizes.count))
                for size in sizes { stsz.uint32(size) }
            }
        }
        let large = forcesLargeOffsets || (chunkOffsets.last.map { $0 + chunkOffsetShift > Int64(UInt32.max) } ?? false)
        if large {
            stbl.fullBox("co64") { co64 in
                co64.uint32(UInt32(chunkOffsets.count))
                for offset in chunkOffsets { co64.uint64(UInt64(offset + chunkOffsetShift)) }
            }
        } else {
            stbl.fullBox("stco") { stco in
                stco.uint32(UInt32(chunkOffsets.count))
                for offset in chunkOffsets { stco.uint32(UInt32(offset + chunkOffsetShift)) }
            }
        }
    }
}

extension MP4SampleTable {
    /// The `btrt` numbers (§8.5.2.2): the largest sample, the most bits in any one second of decode
    /// time, and the average over the track (or the given average).
    func bitRate(timescale: Int32, average given: Int?) -> MP4BitRate? {
        guard !sizes.isEmpty, mediaDuration > 0 else { return nil }
        let total = sizes.reduce(0) { $0 + Int64($1) }
        let average = given.map(Int64.init) ?? total * 8 * Int64(timescale) / mediaDuration
        var maximum: Int64 = 0
        var windowStart = 0
        var windowBytes: Int64 = 0
        for index in sizes.indices {
            windowBytes += Int64(sizes[index])
            while decodeTimes[index] - decodeTimes[windowStart] >= Int64(timescale) {
                windowBytes -= Int64(sizes[windowStart])
                windowStart += 1
            }
            maximum = max(maximum, windowBytes * 8)
        }
        return MP4BitRate(bufferSize: sizes.max() ?? 0, maximum: UInt32(clamping: max(maximum, average)),
                          average: UInt32(clamping: average))
    }
}
