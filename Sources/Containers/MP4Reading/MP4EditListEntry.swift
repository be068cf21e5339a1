/// One entry of an edit list (`elst`, ISO/IEC 14496-12 §8.6.6): a span of the movie timeline mapped onto
/// the track's media timeline.
public struct MP4EditListEntry: Sendable, Hashable {
    /// The span's length, in the movie's timescale (`mvhd`).
    public var segmentDuration: UInt64
    /// Where the span starts on the media timeline, in the track's timescale; -1 for an empty edit
    /// (nothing is shown for `segmentDuration`).
    public var mediaTime: Int64
    /// The playback rate (16.16 fixed point in the file); 1 for normal playback.
    public var mediaRate: Double

    /// Creates an entry.
    /// - Parameters:
    ///   - segmentDuration: the span's length in the movie timescale.
    ///   - mediaTime: its start on the media timeline, -1 for an empty edit.
    ///   - mediaRate: the playback rate.
    public init(segmentDuration: UInt64, mediaTime: Int64, mediaRate: Double = 1) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
        self.mediaRate = mediaRate
    }

    /// Whether the entry is an empty edit (`media_time` = -1).
    public var isEmpty: Bool { mediaTime == -1 }
}
