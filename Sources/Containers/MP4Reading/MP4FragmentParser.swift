import Bitstream

/// Appends the samples of movie fragments (`moof`, ISO/IEC 14496-12 §8.8.4–§8.8.8) to the tracks' tables:
/// `tfhd` (base data offset, `default-base-is-moof`, sample defaults over those of `trex`), `tfdt` (the
/// fragment's first decode time), and each `trun` (data offset, first-sample flags, per-sample duration,
/// size, flags and composition offset, signed in version 1).
///
/// A `trun` whose sample count does not fit its box is refused before anything is allocated. A last fragment
/// whose samples run past the end of the file (a recording cut off mid-fragment) is dropped and reported as
/// truncation; an earlier one is an error.
struct MP4FragmentParser {
    let bytes: ByteView
    let limits: MP4ReaderLimits
    let extends: [UInt32: MP4TrackExtends]
    let trackIndices: [UInt32: Int]
    var tables: [MP4SampleIndex]
    /// The next decode time of each track (where a fragment without `tfdt` starts).
    var nextDecodeTimes: [Int64]
    var isTruncated = false

    init(bytes: ByteView, limits: MP4ReaderLimits, extends: [UInt32: MP4TrackExtends], trackIDs: [UInt32],
         tables: [MP4SampleIndex]) {
        self.bytes = bytes
        self.limits = limits
        self.extends = extends
        var indices: [UInt32: Int] = [:]
        for (index, id) in trackIDs.enumerated() { indices[id] = index }
        self.trackIndices = indices
        self.tables = tables
        self.nextDecodeTimes = tables.map { table in
            guard let last = table.decodeTimes.last, let duration = table.durations.last else { return 0 }
            return last + Int64(duration)
        }
    }

    /// Reads one fragment.
    /// - Parameters:
    ///   - moof: the fragment's header.
    ///   - index: its index among the file's fragments (for paths).
    ///   - isLast: whether no fragment follows (a cut-off last fragment is dropped rather than refused).
    mutating func parse(moof: MP4BoxHeader, index: Int, isLast: Bool) throws(MP4ReadError) {
        let counts = tables.map(\.count)
        let times = nextDecodeTimes
        do {
            try parseFragment(moof, path: "moof[\(index)]")
        } catch let error {
            guard isLast, case let .malformedBox(_, _, reason) = error, reason.contains("past the end of the file") else {
                throw error
            }
            for track in tables.indices where tables[track].count > counts[track] {
                tables[track].removeLast(tables[track].count - counts[track])
            }
            nextDecodeTimes = times
            isTruncated = true
        }
    }

    private mutating func parseFragment(_ moof: MP4BoxHeader, path: String) throws(MP4ReadError) {
        var children = MP4BoxIterator(bytes: bytes, range: moof.payloadRange, parentPath: path)
        var trafIndex = 0
        var previousDataEnd = moof.offset
        while let child = try children.next() {
            guard child.type == "traf" else { continue }
            previousDataEnd = try parseTrackFragment(child, path: children.path(of: child, index: trafIndex), moof: moof,
                                                     implicitBase: trafIndex == 0 ? moof.offset : previousDataEnd)
            trafIndex += 1
        }
    }

    /// One `traf`; returns the end of its last sample's data (the implicit base of the next `traf`, §8.8.7.1).
    private mutating func parseTrackFragment(_ traf: MP4BoxHeader, path: String, moof: MP4BoxHeader,
                                             implicitBase: Int) throws(MP4ReadError) -> Int {
        var children = MP4BoxIterator(bytes: bytes, range: traf.payloadRange, parentPath: path)
        guard let tfhd = try children.next(), tfhd.type == "tfhd" else {
            throw .missingBox(path: path, box: "tfhd (first in traf)")
        }
        var fields = MP4FieldReader(bytes: bytes, header: tfhd, path: children.path(of: tfhd))
        let (_, flags) = try fields.fullBoxHeader()
        let trackID = try fields.u32("track_ID")
        guard let track = trackIndices[trackID] else {
            throw fields.failure("track_ID \(trackID) names no track of moov")
        }
        let defaults = extends[trackID] ?? MP4TrackExtends()
        var base = implicitBase
        if flags & 0x01 != 0 {
            let value = try fields.u64("base_data_offset")
            guard value <= UInt64(bytes.count) else {
                throw fields.failure("base_data_offset \(value) lies past the end of the file (\(bytes.count) bytes)")
            }
            base = Int(value)
        } else if flags & 0x2_0000 != 0 {
            base = moof.offset
        }
        if flags & 0x02 != 0 { _ = try fields.u32("sample_description_index") }
        let defaultDuration = flags & 0x08 != 0 ? try fields.u32("default_sample_duration") : defaults.sampleDuration
        let defaultSize = flags & 0x10 != 0 ? try fields.u32("default_sample_size") : defaults.sampleSize
        let defaultFlags = flags & 0x20 != 0 ? try fields.u32("default_sample_flags") : defaults.sampleFlags

        var decodeTime = nextDecodeTimes[track]
        var dataEnd = base
        var runIndex = 0
        while let child = try children.next() {
            let childPath = children.path(of: child, index: child.type == "trun" ? runIndex : nil)
            var box = MP4FieldReader(bytes: bytes, header: child, path: childPath)
            switch child.type {
            case "tfdt":
                let (version, _) = try box.fullBoxHeader()
                let time = try box.versioned(version, "baseMediaDecodeTime")
                guard time <= UInt64(Int64.max) else { throw box.failure("baseMediaDecodeTime \(time) is out of range") }
                decodeTime = Int64(time)
            case "trun":
                let (_, runFlags) = try box.fullBoxHeader()
                let countOffset = box.position
                let count = try box.u32("sample_count")
                var position = dataEnd
                if runFlags & 0x01 != 0 {
                    let offset = Int(try box.i32("data_offset"))
                    position = base + offset
                }
                let firstFlags: UInt32? = runFlags & 0x04 != 0 ? try box.u32("first_sample_flags") : nil
                let hasDuration = runFlags & 0x100 != 0, hasSize = runFlags & 0x200 != 0
                let hasFlags = runFlags & 0x400 != 0, hasOffset = runFlags & 0x800 != 0
                let entrySize = 4 * [hasDuration, hasSize, hasFlags, hasOffset].filter { $0 }.count
                try box.checkTable(count: UInt64(count), entrySize: entrySize, "sample_count")
                guard Int(count) <= limits.maxSampleCountPerTrack - tables[track].count else {
                    throw .limitExceeded(path: childPath, byteOffset: countOffset,
                                         limit: "the limit of \(limits.maxSampleCountPerTrack) samples a track")
                }
                // Every sample, even one of 0 bytes, counts as at least one byte of the file: a trun without
                // per-sample fields cannot make the reader index more samples than the file has bytes.
                guard Int(count) <= bytes.count else {
                    throw box.failure("sample_count \(count) exceeds the file's \(bytes.count) bytes", at: countOffset)
                }
                guard position >= 0, position <= bytes.count else {
                    throw box.failure("data offset \(position) lies past the end of the file (\(bytes.count) bytes)", at: child.offset)
                }
                tables[track].reserve(tables[track].count + Int(count))
                for sample in 0..<Int(count) {
                    let duration = hasDuration ? try box.u32("sample_duration") : defaultDuration
                    let size = hasSize ? try box.u32("sample_size") : defaultSize
                    let sampleFlags = hasFlags ? try box.u32("sample_flags") : (sample == 0 ? firstFlags ?? defaultFlags : defaultFlags)
                    let rawOffset = hasOffset ? try box.u32("sample_composition_time_offset") : 0
                    // Version 0 offsets are unsigned in the spec; read as signed like version 1, as players do.
                    let compositionOffset = Int32(bitPattern: rawOffset)
                    guard Int(size) <= bytes.count - position else {
                        throw box.failure("sample \(sample) (\(size) bytes at offset \(position)) lies past the end of the file "
                                          + "(\(bytes.count) bytes)", at: child.offset)
                    }
                    // §8.8.3.1: bit 16 of the sample flags is sample_is_non_sync_sample.
                    tables[track].append(offset: position, size: size, decodeTime: decodeTime, duration: duration,
                                         compositionOffset: compositionOffset, isSync: sampleFlags & 0x1_0000 == 0)
                    position += Int(size)
                    decodeTime &+= Int64(duration)
                }
                dataEnd = position
                runIndex += 1
            default:
                continue
            }
        }
        nextDecodeTimes[track] = decodeTime
        return dataEnd
    }
}
