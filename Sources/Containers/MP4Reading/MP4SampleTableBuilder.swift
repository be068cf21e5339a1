import Bitstream

/// Flattens a classic track's sample tables into an ``MP4SampleIndex`` (ISO/IEC 14496-12 §8.6–§8.7): sizes
/// from `stsz`/`stz2`, chunks from `stco`/`co64` and `stsc` runs, times from `stts` and `ctts` (versions 0
/// and 1, negative offsets), sync samples from `stss` (every sample when it is absent).
///
/// Every table's entry count is checked against the bytes its box holds before anything is allocated, the
/// sample count against ``MP4ReaderLimits/maxSampleCountPerTrack``, and every sample against the end of the file.
struct MP4SampleTableBuilder {
    let bytes: ByteView
    let limits: MP4ReaderLimits

    func build(_ track: MP4TrackBoxes) throws(MP4ReadError) -> MP4SampleIndex {
        var table = MP4SampleIndex()
        guard let sizeBox = track.stsz ?? track.stz2 else {
            // A fragmented file's moov may have no sample tables at all; an empty stbl is then legal.
            return table
        }
        let sizes = try sampleSizes(sizeBox.header, path: sizeBox.path, compact: track.stsz == nil)
        let count = sizes.count
        guard count > 0 else { return table }
        table.reserve(count)
        let offsets = try sampleOffsets(track, sizes: sizes)
        let durations = try timeToSample(track, count: count)
        let compositionOffsets = try compositionOffsets(track, count: count)
        let sync = try syncSamples(track, count: count)
        var decodeTime: Int64 = 0
        for index in 0..<count {
            table.append(offset: offsets[index], size: sizes[index], decodeTime: decodeTime, duration: durations[index],
                         compositionOffset: compositionOffsets[index], isSync: sync?[index] ?? true)
            decodeTime &+= Int64(durations[index])
        }
        return table
    }

    /// `stsz` (§8.7.3.2) or `stz2` (§8.7.3.3).
    private func sampleSizes(_ header: MP4BoxHeader, path: String, compact: Bool) throws(MP4ReadError) -> [UInt32] {
        var fields = MP4FieldReader(bytes: bytes, header: header, path: path)
        _ = try fields.fullBoxHeader()
        var constant: UInt32 = 0
        var fieldSize = 32
        if compact {
            try fields.skip(3, "reserved")
            fieldSize = Int(try fields.u8("field_size"))
            guard [4, 8, 16].contains(fieldSize) else { throw fields.failure("field_size \(fieldSize) is not 4, 8 or 16") }
        } else {
            constant = try fields.u32("sample_size")
        }
        let countOffset = fields.position
        let count = try fields.u32("sample_count")
        if constant == 0 {
            // The table must fit in the box before anything is allocated for it.
            if fieldSize == 4 {
                try fields.checkTable(count: (UInt64(count) + 1) / 2, entrySize: 1, "sample_count (pairs of 4-bit sizes)")
            } else {
                try fields.checkTable(count: UInt64(count), entrySize: fieldSize / 8, "sample_count")
            }
        }
        guard Int(count) <= limits.maxSampleCountPerTrack else {
            throw .limitExceeded(path: path, byteOffset: countOffset,
                                 limit: "the limit of \(limits.maxSampleCountPerTrack) samples a track (sample_count \(count))")
        }
        // Samples of one constant size must fit in the file together (a size-0 sample is counted as 1 byte),
        // so a 12-byte box cannot make the reader index millions of samples.
        guard constant == 0 || UInt64(count) * UInt64(constant) <= UInt64(bytes.count) else {
            throw .malformedBox(path: path, byteOffset: countOffset,
                                reason: "sample_count \(count) × sample_size \(constant) exceed the file (\(bytes.count) bytes)")
        }
        if constant != 0 { return Array(repeating: constant, count: Int(count)) }
        var sizes = [UInt32](repeating: 0, count: Int(count))
        let start = fields.position
        for index in 0..<Int(count) {
            switch fieldSize {
            case 32: sizes[index] = bytes.getInteger(at: start + 4 * index, as: UInt32.self) ?? 0
            case 16: sizes[index] = UInt32(bytes.getInteger(at: start + 2 * index, as: UInt16.self) ?? 0)
            case 8: sizes[index] = UInt32(bytes.getByte(at: start + index) ?? 0)
            default:
                let byte = bytes.getByte(at: start + index / 2) ?? 0
                sizes[index] = UInt32(index % 2 == 0 ? byte >> 4 : byte & 0x0F)
            }
        }
        return sizes
    }

    /// Chunk offsets (`stco` §8.7.5 / `co64`) and the `stsc` runs (§8.7.4) that say how many samples each chunk holds.
    private func sampleOffsets(_ track: MP4TrackBoxes, sizes: [UInt32]) throws(MP4ReadError) -> [Int] {
        guard let chunkBox = track.co64 ?? track.stco else {
            throw .missingBox(path: track.stblPath, box: "stco or co64")
        }
        let wide = track.co64 != nil
        var chunks = MP4FieldReader(bytes: bytes, header: chunkBox.header, path: chunkBox.path)
        _ = try chunks.fullBoxHeader()
        let chunkCount = Int(try chunks.u32("entry_count"))
        try chunks.checkTable(count: UInt64(chunkCount), entrySize: wide ? 8 : 4, "entry_count")
        let chunkTable = chunks.position
        guard let stsc = track.stsc else { throw .missingBox(path: track.stblPath, box: "stsc") }
        var runs = MP4FieldReader(bytes: bytes, header: stsc.header, path: stsc.path)
        _ = try runs.fullBoxHeader()
        let runCount = Int(try runs.u32("entry_count"))
        try runs.checkTable(count: UInt64(runCount), entrySize: 12, "entry_count")
        var firstChunks: [Int] = [], samplesPerChunk: [Int] = []
        firstChunks.reserveCapacity(runCount)
        samplesPerChunk.reserveCapacity(runCount)
        for run in 0..<runCount {
            let entryOffset = runs.position
            let first = Int(try runs.u32("first_chunk"))
            let perChunk = Int(try runs.u32("samples_per_chunk"))
            _ = try runs.u32("sample_description_index")
            guard first >= 1, first > (firstChunks.last ?? 0) else {
                throw runs.failure("entry \(run): first_chunk \(first) does not follow \(firstChunks.last ?? 0)", at: entryOffset)
            }
            firstChunks.append(first)
            samplesPerChunk.append(perChunk)
        }
        let fileLength = bytes.count
        var offsets = [Int](repeating: 0, count: sizes.count)
        var sample = 0
        var run = 0
        // The loops stop as soon as every sample has its offset: a hostile samples_per_chunk (up to 2^32 - 1) must not
        // cost a loop of that length.
        for chunk in 0..<chunkCount {
            if sample == sizes.count { break }
            while run + 1 < firstChunks.count, firstChunks[run + 1] <= chunk + 1 { run += 1 }
            guard run < samplesPerChunk.count, firstChunks[run] <= chunk + 1 else {
                throw runs.failure("no run covers chunk \(chunk + 1)")
            }
            let entryOffset = chunkTable + chunk * (wide ? 8 : 4)
            let raw = wide ? bytes.getInteger(at: entryOffset, as: UInt64.self) ?? 0
                : UInt64(bytes.getInteger(at: entryOffset, as: UInt32.self) ?? 0)
            guard raw <= UInt64(fileLength) else {
                throw chunks.failure("chunk \(chunk + 1) at offset \(raw) lies past the end of the file (\(fileLength) bytes)",
                                     at: entryOffset)
            }
            var position = Int(raw)
            for _ in 0..<min(samplesPerChunk[run], sizes.count - sample) {
                let size = Int(sizes[sample])
                guard size <= fileLength - position else {
                    throw chunks.failure("sample \(sample) (\(size) bytes at offset \(position), chunk \(chunk + 1)) lies past "
                                         + "the end of the file (\(fileLength) bytes)", at: entryOffset)
                }
                offsets[sample] = position
                position += size
                sample += 1
            }
        }
        guard sample == sizes.count else {
            throw chunks.failure("the chunks hold \(sample) samples, the sample size table has \(sizes.count)")
        }
        return offsets
    }

    /// `stts` (§8.6.1.2). A table shorter than the samples (seen in the wild) gives the rest its last delta.
    private func timeToSample(_ track: MP4TrackBoxes, count: Int) throws(MP4ReadError) -> [UInt32] {
        guard let stts = track.stts else { throw .missingBox(path: track.stblPath, box: "stts") }
        var fields = MP4FieldReader(bytes: bytes, header: stts.header, path: stts.path)
        _ = try fields.fullBoxHeader()
        let entries = try fields.u32("entry_count")
        try fields.checkTable(count: UInt64(entries), entrySize: 8, "entry_count")
        var durations: [UInt32] = []
        durations.reserveCapacity(count)
        var last: UInt32 = 0
        for _ in 0..<entries where durations.count < count {
            let run = Int(try fields.u32("sample_count"))
            last = try fields.u32("sample_delta")
            durations.append(contentsOf: repeatElement(last, count: min(run, count - durations.count)))
        }
        if durations.count < count { durations.append(contentsOf: repeatElement(last, count: count - durations.count)) }
        return durations
    }

    /// `ctts` (§8.6.1.3). Version 0 offsets are read as signed too, as ffmpeg and deployed muxers write them.
    private func compositionOffsets(_ track: MP4TrackBoxes, count: Int) throws(MP4ReadError) -> [Int32] {
        guard let ctts = track.ctts else { return [Int32](repeating: 0, count: count) }
        var fields = MP4FieldReader(bytes: bytes, header: ctts.header, path: ctts.path)
        _ = try fields.fullBoxHeader()
        let entries = try fields.u32("entry_count")
        try fields.checkTable(count: UInt64(entries), entrySize: 8, "entry_count")
        var offsets: [Int32] = []
        offsets.reserveCapacity(count)
        for _ in 0..<entries where offsets.count < count {
            let run = Int(try fields.u32("sample_count"))
            let offset = try fields.i32("sample_offset")
            offsets.append(contentsOf: repeatElement(offset, count: min(run, count - offsets.count)))
        }
        if offsets.count < count { offsets.append(contentsOf: repeatElement(0, count: count - offsets.count)) }
        return offsets
    }

    /// `stss` (§8.6.2); `nil` when absent (every sample is a sync sample).
    private func syncSamples(_ track: MP4TrackBoxes, count: Int) throws(MP4ReadError) -> [Bool]? {
        guard let stss = track.stss else { return nil }
        var fields = MP4FieldReader(bytes: bytes, header: stss.header, path: stss.path)
        _ = try fields.fullBoxHeader()
        let entries = try fields.u32("entry_count")
        try fields.checkTable(count: UInt64(entries), entrySize: 4, "entry_count")
        var sync = [Bool](repeating: false, count: count)
        for _ in 0..<entries {
            let number = Int(try fields.u32("sample_number"))
            if number >= 1, number <= count { sync[number - 1] = true }
        }
        return sync
    }
}
