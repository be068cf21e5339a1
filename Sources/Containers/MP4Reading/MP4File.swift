import Bitstream
import MediaCore

/// An MP4 file (ISO/IEC 14496-12 base media file format, with the -14 MP4 and -15 AVC/HEVC sample entries)
/// opened for reading: its tracks, their formats, and every sample as a view into the file's bytes.
///
/// Classic files (`moov` with sample tables, before or after `mdat`, `stco` or `co64`) and fragmented ones
/// (`moov` + `mvex`, then `moof` + `mdat` pairs) read the same way. A file is memory-mapped (nothing is
/// copied, a sample's ``MP4FileSample/data`` points into the mapping) or given as bytes already in memory.
///
/// ```swift
/// let file = try MP4File(contentsOf: "movie.mp4")
/// for track in file.tracks { print(track.id, track.codec as Any, track.sampleCount) }
/// for sample in file.interleavedSamples() { consume(sample.data, sample.pts) }
/// ```
///
/// Hostile files get an ``MP4ReadError`` naming the box path and offset; the index the reader builds is
/// bounded by the file's size and by ``MP4ReaderLimits``.
public struct MP4File: Sendable {
    /// The whole file's bytes.
    public let bytes: ByteView
    /// The tracks, in `moov` order.
    public let tracks: [MP4Track]
    /// Ticks per second of the movie header's times (`mvhd`).
    public let movieTimescale: Int32
    /// The movie's duration (`mvhd`; for a fragmented file `mehd`, or the longest track when both are 0).
    public let duration: MediaTime
    /// The `ftyp` major brand, `nil` without `ftyp` (QuickTime files may lack it).
    public let majorBrand: String?
    /// The `ftyp` compatible brands.
    public let compatibleBrands: [String]
    /// The number of movie fragments (`moof`); 0 for a classic file.
    public let fragmentCount: Int
    /// Whether the file ends inside a box or a fragment (a recording cut off): the incomplete part is left out.
    public let isTruncated: Bool
    /// The top-level boxes, in file order.
    public let topLevelBoxes: [MP4BoxHeader]

    /// Whether the file is fragmented (`moov` has `mvex`, or fragments follow).
    public var isFragmented: Bool { fragmentCount > 0 || hasMovieExtends }
    private let hasMovieExtends: Bool

    /// Maps and reads a file.
    /// - Parameters:
    ///   - path: the file's path.
    ///   - limits: the hard caps for hostile files.
    /// - Throws: ``MP4ReadError/io(_:)`` when it cannot be opened or mapped, or the structural errors of
    ///   ``init(bytes:limits:)``.
    public init(contentsOf path: String, limits: MP4ReaderLimits = .default) throws(MP4ReadError) {
        let mapping: MappedFile
        do { mapping = try MappedFile(path: path) } catch { throw .io(error) }
        try self.init(bytes: mapping.view, limits: limits)
    }

    /// Reads a file already in memory.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - limits: the hard caps for hostile files.
    /// - Throws: ``MP4ReadError`` naming the box path and byte offset of what is malformed, missing or too large.
    public init(bytes: ByteView, limits: MP4ReaderLimits = .default) throws(MP4ReadError) {
        self.bytes = bytes
        var boxes: [MP4BoxHeader] = []
        var iterator = MP4BoxIterator(bytes: bytes)
        var truncated = false
        var moov: MP4BoxHeader?
        var fragments: [MP4BoxHeader] = []
        var brand: String?
        var brands: [String] = []
        var validator = MP4BoxTreeValidator(bytes: bytes, limits: limits)
        while true {
            let header: MP4BoxHeader?
            do { header = try iterator.next() } catch {
                // A recording cut off inside its last box (mdat or a fragment) keeps what came before it.
                guard moov != nil, case .malformedBox(_, _, let reason) = error, reason.contains("larger than its parent")
                    || reason.contains("cut off") || reason.contains("too few") else { throw error }
                truncated = true
                break
            }
            guard let header else { break }
            boxes.append(header)
            try validator.validate(header, path: header.type, depth: 1)
            switch header.type {
            case "ftyp":
                var fields = MP4FieldReader(bytes: bytes, header: header, path: "ftyp")
                brand = MP4FourCC.string(try fields.u32("major_brand"))
                _ = try fields.u32("minor_version")
                while fields.remaining >= 4 { brands.append(MP4FourCC.string(try fields.u32("compatible_brands"))) }
            case "moov":
                guard moov == nil else { throw .malformedBox(path: "moov", byteOffset: header.offset, reason: "a second moov box") }
                moov = header
            case "moof":
                guard fragments.count < limits.maxFragmentCount else {
                    throw .limitExceeded(path: "moof[\(fragments.count)]", byteOffset: header.offset,
                                         limit: "the limit of \(limits.maxFragmentCount) fragments")
                }
                fragments.append(header)
            default:
                continue
            }
        }
        guard let moov else { throw .missingBox(path: "", box: "moov") }
        var movie = MP4MovieParser(bytes: bytes, limits: limits)
        try movie.parse(moov: moov)
        guard movie.movieTimescale > 0, movie.movieTimescale <= UInt32(Int32.max) else {
            throw .malformedBox(path: "moov/mvhd", byteOffset: moov.offset, reason: "timescale \(movie.movieTimescale) is not 1…\(Int32.max)")
        }
        let builder = MP4SampleTableBuilder(bytes: bytes, limits: limits)
        var tables: [MP4SampleIndex] = []
        for track in movie.tracks { tables.append(try builder.build(track)) }
        if !fragments.isEmpty {
            var fragmentParser = MP4FragmentParser(bytes: bytes, limits: limits, extends: movie.extends,
                                                   trackIDs: movie.tracks.map(\.trackID), tables: tables)
            for (index, fragment) in fragments.enumerated() {
                try fragmentParser.parse(moof: fragment, index: index, isLast: index == fragments.count - 1)
            }
            tables = fragmentParser.tables
            truncated = truncated || fragmentParser.isTruncated
        }
        let movieTimescale = Int32(movie.movieTimescale)
        var tracks: [MP4Track] = []
        let entries = MP4SampleEntryParser(bytes: bytes)
        for (index, boxes) in movie.tracks.enumerated() {
            guard let stsd = boxes.stsd else { throw .missingBox(path: boxes.stblPath.isEmpty ? boxes.path : boxes.stblPath, box: "stsd") }
            let entry = try entries.parse(stsd: stsd.header, path: stsd.path)
            let kind: MP4TrackKind = switch MP4FourCC.string(boxes.handler) {
            case "vide": .video
            case "soun": .audio
            case let other: .other(other)
            }
            let timescale = Int32(boxes.timescale)
            tracks.append(MP4Track(id: boxes.trackID, index: index, kind: kind, timescale: timescale, format: entry.format,
                                   sampleEntryType: entry.type, codedWidth: entry.width, codedHeight: entry.height,
                                   editList: boxes.editList,
                                   presentationOffset: Self.presentationOffset(boxes.editList, movieTimescale: movieTimescale,
                                                                               trackTimescale: timescale),
                                   language: boxes.language,
                                   decoderConfigurationNALUnits: entry.configurationNALUnits, table: tables[index]))
        }
        self.tracks = tracks
        self.movieTimescale = movieTimescale
        let declared = movie.movieDuration != 0 ? movie.movieDuration : movie.fragmentDuration ?? 0
        if declared != 0, declared <= UInt64(Int64.max) {
            duration = MediaTime(value: Int64(declared), timescale: movieTimescale)
        } else {
            duration = tracks.map(\.mediaDuration).max() ?? .zero
        }
        majorBrand = brand
        compatibleBrands = brands
        fragmentCount = fragments.count
        isTruncated = truncated
        topLevelBoxes = boxes
        hasMovieExtends = movie.hasMovieExtends
    }

    /// Reads a file already in memory.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - limits: the hard caps for hostile files.
    /// - Throws: see ``init(bytes:limits:)``.
    public init(bytes: [UInt8], limits: MP4ReaderLimits = .default) throws(MP4ReadError) {
        try self.init(bytes: ByteView(bytes), limits: limits)
    }

    /// The presentation offset an edit list gives (ISO/IEC 14496-12 §8.6.6): the leading empty edits, in the
    /// track's timescale, minus the `media_time` of the first edit that shows media.
    static func presentationOffset(_ edits: [MP4EditListEntry], movieTimescale: Int32, trackTimescale: Int32) -> Int64 {
        var empty: UInt64 = 0
        for edit in edits {
            if edit.isEmpty {
                empty &+= edit.segmentDuration
                continue
            }
            let product = empty.multipliedFullWidth(by: UInt64(trackTimescale))
            let divisor = UInt64(max(movieTimescale, 1))
            let emptyInTrack = product.high < divisor ? Int64(clamping: divisor.dividingFullWidth(product).quotient) : Int64.max
            let (offset, overflow) = emptyInTrack.subtractingReportingOverflow(edit.mediaTime)
            return overflow ? 0 : offset
        }
        return 0
    }

    /// The samples of one track, in decode order.
    /// - Parameter track: a track of this file.
    /// - Returns: a random-access collection of its samples.
    public func samples(of track: MP4Track) -> MP4TrackSamples {
        MP4TrackSamples(bytes: bytes, track: track)
    }

    /// Every sample of every track, interleaved by decode time (ties in track order): the order a demuxer
    /// hands packets to a player.
    /// - Returns: the sequence.
    public func interleavedSamples() -> MP4InterleavedSamples {
        MP4InterleavedSamples(tracks: tracks.map { samples(of: $0) })
    }

    /// The first track of a kind.
    /// - Parameter kind: video or audio.
    /// - Returns: the track, `nil` when there is none.
    public func firstTrack(_ kind: MP4TrackKind) -> MP4Track? {
        tracks.first { $0.kind == kind }
    }
}
