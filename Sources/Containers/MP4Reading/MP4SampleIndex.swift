/// The per-sample index of one track, flattened from `stbl` (or from the fragments' `trun`s): one entry a
/// sample in decode order. About 29 bytes a sample; ``MP4ReaderLimits/maxSampleCountPerTrack`` caps it.
struct MP4SampleIndex: Sendable {
    /// Where each sample starts in the file.
    var offsets: [Int] = []
    /// Each sample's size in bytes.
    var sizes: [UInt32] = []
    /// Each sample's decode time in the track's timescale (media timeline, before the edit list).
    var decodeTimes: [Int64] = []
    /// Each sample's duration in the track's timescale.
    var durations: [UInt32] = []
    /// Composition minus decode time of each sample (`ctts` / `trun` composition offsets).
    var compositionOffsets: [Int32] = []
    /// Whether each sample is a sync sample (`stss`, or not `sample_is_non_sync_sample`).
    var syncFlags: [Bool] = []

    var count: Int { sizes.count }

    mutating func reserve(_ count: Int) {
        offsets.reserveCapacity(count)
        sizes.reserveCapacity(count)
        decodeTimes.reserveCapacity(count)
        durations.reserveCapacity(count)
        compositionOffsets.reserveCapacity(count)
        syncFlags.reserveCapacity(count)
    }

    mutating func append(offset: Int, size: UInt32, decodeTime: Int64, duration: UInt32, compositionOffset: Int32,
                         isSync: Bool) {
        offsets.append(offset)
        sizes.append(size)
        decodeTimes.append(decodeTime)
        durations.append(duration)
        compositionOffsets.append(compositionOffset)
        syncFlags.append(isSync)
    }

    mutating func removeLast(_ count: Int) {
        offsets.removeLast(count)
        sizes.removeLast(count)
        decodeTimes.removeLast(count)
        durations.removeLast(count)
        compositionOffsets.removeLast(count)
        syncFlags.removeLast(count)
    }
}
