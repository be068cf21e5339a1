import Bitstream
import MediaCore

/// One sample of an ``MP4Track``: a view of its bytes in the file (no copy) and its times.
///
/// Times are in the track's timescale on the presentation timeline (the edit list applied through
/// ``MP4Track/presentationOffset``, as players and ffprobe show them); ``decodeTime`` may be negative when
/// B-frames delay the first presentation.
public struct MP4FileSample: Sendable {
    /// The sample's bytes: a view into the file's bytes.
    public let data: ByteView
    /// The index of the track in ``MP4File/tracks``.
    public let trackIndex: Int
    /// The sample's index in its track, in decode order.
    public let index: Int
    /// The sample's byte offset in the file.
    public let offset: Int
    /// Decode time, in ``timescale`` ticks.
    public let decodeTime: Int64
    /// Presentation (composition) time, in ``timescale`` ticks.
    public let presentationTime: Int64
    /// Duration, in ``timescale`` ticks.
    public let duration: Int64
    /// The track's timescale.
    public let timescale: Int32
    /// Whether the sample is a sync sample (a key frame: IDR / IRAP).
    public let isKeyFrame: Bool

    /// The decode time as a ``MediaTime``.
    public var dts: MediaTime { MediaTime(value: decodeTime, timescale: timescale) }
    /// The presentation time as a ``MediaTime``.
    public var pts: MediaTime { MediaTime(value: presentationTime, timescale: timescale) }
    /// The duration as a ``MediaTime``.
    public var durationTime: MediaTime { MediaTime(value: duration, timescale: timescale) }

    /// The sample as an ``EncodedFrame`` (its bytes copied once), for a decompression session.
    /// - Parameter format: the track's video format.
    /// - Returns: the frame.
    public func encodedFrame(format: FormatDescription) -> EncodedFrame {
        EncodedFrame(data: Array(data), isKeyFrame: isKeyFrame, pts: pts, dts: dts, duration: durationTime, format: format)
    }

    /// The sample as an ``EncodedAudioFrame`` (its bytes copied once).
    /// - Parameter format: the track's audio format.
    /// - Returns: the frame.
    public func encodedAudioFrame(format: AudioFormatDescription) -> EncodedAudioFrame {
        EncodedAudioFrame(data: Array(data), pts: pts, duration: durationTime, format: format)
    }
}
