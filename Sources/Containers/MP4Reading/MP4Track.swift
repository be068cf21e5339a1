import MediaCore

/// One track of an ``MP4File``: its identity, timescale, format, edit list and sample index.
public struct MP4Track: Sendable {
    /// The `track_ID` (`tkhd`).
    public let id: UInt32
    /// The index of the track in ``MP4File/tracks``.
    public let index: Int
    /// Video, audio or another handler.
    public let kind: MP4TrackKind
    /// Ticks per second of the track's times (`mdhd`).
    public let timescale: Int32
    /// The format of the samples (the first sample description).
    public let format: MP4TrackFormat
    /// The four-character code of the sample entry (`avc1`, `hev1`, `mp4a` …).
    public let sampleEntryType: String
    /// The width and height in the visual sample entry (0 for audio).
    public let codedWidth: Int, codedHeight: Int
    /// The edit list (empty without `edts`).
    public let editList: [MP4EditListEntry]
    /// What is added to media times to give presentation times, in the track's timescale: the leading
    /// empty edits minus the first edit's `media_time` (ISO/IEC 14496-12 §8.6.6). 0 without an edit list.
    public let presentationOffset: Int64
    /// The ISO 639-2/T language (`mdhd`), `und` when unset.
    public let language: String
    /// Every NAL unit of the `avcC` / `hvcC` record in record order (SPS, PPS; or VPS, SPS, PPS and any SEI
    /// arrays): what an Annex B stream of the track carries before each key frame. Empty for audio.
    public let decoderConfigurationNALUnits: [[UInt8]]
    let table: MP4SampleIndex

    init(id: UInt32, index: Int, kind: MP4TrackKind, timescale: Int32, format: MP4TrackFormat, sampleEntryType: String,
         codedWidth: Int, codedHeight: Int, editList: [MP4EditListEntry], presentationOffset: Int64, language: String,
         decoderConfigurationNALUnits: [[UInt8]], table: MP4SampleIndex) {
        self.id = id
        self.index = index
        self.kind = kind
        self.timescale = timescale
        self.format = format
        self.sampleEntryType = sampleEntryType
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.editList = editList
        self.presentationOffset = presentationOffset
        self.language = language
        self.decoderConfigurationNALUnits = decoderConfigurationNALUnits
        self.table = table
    }

    /// The number of samples.
    public var sampleCount: Int { table.count }
    /// The number of sync samples (key frames).
    public var keyFrameCount: Int { table.syncFlags.reduce(0) { $0 + ($1 ? 1 : 0) } }
    /// The sum of the sample sizes in bytes.
    public var totalSampleBytes: Int { table.sizes.reduce(0) { $0 + Int($1) } }
    /// The sum of the sample durations (the media duration), in the track's timescale.
    public var mediaDuration: MediaTime {
        MediaTime(value: table.durations.reduce(Int64(0)) { $0 + Int64($1) }, timescale: timescale)
    }
    /// The codec, `nil` for an unsupported sample entry.
    public var codec: CodecType? { format.codec }
    /// The average bit rate in bits per second over the media duration (0 for an empty track).
    public var averageBitRate: Double {
        let seconds = mediaDuration.seconds
        return seconds > 0 ? Double(totalSampleBytes) * 8 / seconds : 0
    }
}
