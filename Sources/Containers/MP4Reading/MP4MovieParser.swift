import Bitstream

/// Reads `moov` (ISO/IEC 14496-12 §8.2–§8.8): the movie header, each track's boxes and the fragment defaults.
struct MP4MovieParser {
    let bytes: ByteView
    let limits: MP4ReaderLimits
    var movieTimescale: UInt32 = 0
    var movieDuration: UInt64 = 0
    var fragmentDuration: UInt64?
    var tracks: [MP4TrackBoxes] = []
    var extends: [UInt32: MP4TrackExtends] = [:]
    var hasMovieExtends = false

    init(bytes: ByteView, limits: MP4ReaderLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func parse(moov: MP4BoxHeader) throws(MP4ReadError) {
        var counter = MP4BoxIterator(bytes: bytes, range: moov.payloadRange, parentPath: "moov")
        var trackCount = 0
        while let child = try counter.next() {
            guard child.type == "trak" else { continue }
            guard trackCount < limits.maxTrackCount else {
                throw .limitExceeded(path: counter.path(of: child, index: trackCount), byteOffset: child.offset,
                                     limit: "the limit of \(limits.maxTrackCount) tracks")
            }
            trackCount += 1
        }
        var children = MP4BoxIterator(bytes: bytes, range: moov.payloadRange, parentPath: "moov")
        var sawHeader = false
        while let child = try children.next() {
            switch child.type {
            case "mvhd":
                var fields = MP4FieldReader(bytes: bytes, header: child, path: children.path(of: child))
                let (version, _) = try fields.fullBoxHeader()
                _ = try fields.versioned(version, "creation_time")
                _ = try fields.versioned(version, "modification_time")
                movieTimescale = try fields.u32("timescale")
                movieDuration = try fields.versioned(version, "duration")
                sawHeader = true
            case "trak":
                guard tracks.count < limits.maxTrackCount else {
                    throw .limitExceeded(path: children.path(of: child, index: tracks.count), byteOffset: child.offset,
                                         limit: "the limit of \(limits.maxTrackCount) tracks")
                }
                var track = MP4TrackBoxes()
                track.path = children.path(of: child, index: tracks.count)
                try parseTrack(child, into: &track)
                tracks.append(track)
            case "mvex":
                hasMovieExtends = true
                try parseMovieExtends(child, path: children.path(of: child))
            default:
                continue
            }
        }
        guard sawHeader else { throw .missingBox(path: "moov", box: "mvhd") }
    }

    private mutating func parseMovieExtends(_ mvex: MP4BoxHeader, path: String) throws(MP4ReadError) {
        var children = MP4BoxIterator(bytes: bytes, range: mvex.payloadRange, parentPath: path)
        while let child = try children.next() {
            var fields = MP4FieldReader(bytes: bytes, header: child, path: children.path(of: child))
            switch child.type {
            case "trex":
                _ = try fields.fullBoxHeader()
                let id = try fields.u32("track_ID")
                extends[id] = MP4TrackExtends(sampleDescriptionIndex: try fields.u32("default_sample_description_index"),
                                              sampleDuration: try fields.u32("default_sample_duration"),
                                              sampleSize: try fields.u32("default_sample_size"),
                                              sampleFlags: try fields.u32("default_sample_flags"))
            case "mehd":
                let (version, _) = try fields.fullBoxHeader()
                fragmentDuration = try fields.versioned(version, "fragment_duration")
            default:
                continue
            }
        }
    }

    private func parseTrack(_ trak: MP4BoxHeader, into track: inout MP4TrackBoxes) throws(MP4ReadError) {
        var children = MP4BoxIterator(bytes: bytes, range: trak.payloadRange, parentPath: track.path)
        var sawHeader = false, sawMedia = false
        while let child = try children.next() {
            let path = children.path(of: child)
            switch child.type {
            case "tkhd":
                var fields = MP4FieldReader(bytes: bytes, header: child, path: path)
                let (version, _) = try fields.fullBoxHeader()
                _ = try fields.versioned(version, "creation_time")
                _ = try fields.versioned(version, "modification_time")
                track.trackID = try fields.u32("track_ID")
                sawHeader = true
            case "edts":
                var edits = MP4BoxIterator(bytes: bytes, range: child.payloadRange, parentPath: path)
                while let edit = try edits.next() {
                    guard edit.type == "elst" else { continue }
                    track.editList = try parseEditList(edit, path: edits.path(of: edit))
                }
            case "mdia":
                sawMedia = true
                try parseMedia(child, path: path, into: &track)
            default:
                continue
            }
        }
        guard sawHeader else { throw .missingBox(path: track.path, box: "tkhd") }
        guard sawMedia else { throw .missingBox(path: track.path, box: "mdia") }
    }

    /// `elst` (§8.6.6).
    private func parseEditList(_ elst: MP4BoxHeader, path: String) throws(MP4ReadError) -> [MP4EditListEntry] {
        var fields = MP4FieldReader(bytes: bytes, header: elst, path: path)
        let (version, _) = try fields.fullBoxHeader()
        let count = try fields.u32("entry_count")
        try fields.checkTable(count: UInt64(count), entrySize: version == 1 ? 20 : 12, "entry_count")
        var entries: [MP4EditListEntry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let duration = try fields.versioned(version, "segment_duration")
            let mediaTime = version == 1 ? Int64(bitPattern: try fields.u64("media_time")) : Int64(try fields.i32("media_time"))
            let rateInteger = Int16(bitPattern: try fields.u16("media_rate_integer"))
            let rateFraction = Int16(bitPattern: try fields.u16("media_rate_fraction"))
            entries.append(MP4EditListEntry(segmentDuration: duration, mediaTime: mediaTime,
                                            mediaRate: Double(rateInteger) + Double(rateFraction) / 65536))
        }
        return entries
    }

    private func parseMedia(_ mdia: MP4BoxHeader, path: String, into track: inout MP4TrackBoxes) throws(MP4ReadError) {
        var children = MP4BoxIterator(bytes: bytes, range: mdia.payloadRange, parentPath: path)
        var sawHeader = false
        while let child = try children.next() {
            let childPath = children.path(of: child)
            var fields = MP4FieldReader(bytes: bytes, header: child, path: childPath)
            switch child.type {
            case "mdhd":
                let (version, _) = try fields.fullBoxHeader()
                _ = try fields.versioned(version, "creation_time")
                _ = try fields.versioned(version, "modification_time")
                track.timescale = try fields.u32("timescale")
                guard track.timescale > 0, track.timescale <= UInt32(Int32.max) else {
                    throw fields.failure("timescale \(track.timescale) is not 1…\(Int32.max)")
                }
                _ = try fields.versioned(version, "duration")
                track.language = Self.language(try fields.u16("language"))
                sawHeader = true
            case "hdlr":
                _ = try fields.fullBoxHeader()
                _ = try fields.u32("pre_defined")
                track.handler = try fields.u32("handler_type")
            case "minf":
                var media = MP4BoxIterator(bytes: bytes, range: child.payloadRange, parentPath: childPath)
                while let box = try media.next() {
                    guard box.type == "stbl" else { continue }
                    try parseSampleTableBoxes(box, path: media.path(of: box), into: &track)
                }
            default:
                continue
            }
        }
        guard sawHeader else { throw .missingBox(path: path, box: "mdhd") }
    }

    private func parseSampleTableBoxes(_ stbl: MP4BoxHeader, path: String, into track: inout MP4TrackBoxes) throws(MP4ReadError) {
        track.stblPath = path
        var children = MP4BoxIterator(bytes: bytes, range: stbl.payloadRange, parentPath: path)
        while let child = try children.next() {
            let found = (header: child, path: children.path(of: child))
            switch child.type {
            case "stsd": track.stsd = found
            case "stts": track.stts = found
            case "ctts": track.ctts = found
            case "stss": track.stss = found
            case "stsz": track.stsz = found
            case "stz2": track.stz2 = found
            case "stsc": track.stsc = found
            case "stco": track.stco = found
            case "co64": track.co64 = found
            default: continue
            }
        }
    }

    /// The packed ISO 639-2/T code of `mdhd` (three 5-bit letters, each + 0x60).
    static func language(_ packed: UInt16) -> String {
        guard packed != 0 else { return "und" }
        let letters = [(packed >> 10) & 0x1F, (packed >> 5) & 0x1F, packed & 0x1F]
        let text = String(letters.map { Character(UnicodeScalar(UInt8($0) + 0x60)) })
        return text.allSatisfy({ $0 >= "a" && $0 <= "z" }) ? text : "und"
    }
}
