import MediaCore

/// One sample (access unit) to put in an MP4 track: its bytes as the track stores them (length-prefixed
/// NAL units for video, a raw access unit for AAC), and its times.
///
/// ``data`` is held, not copied: an `EncodedFrame`'s array is shared until the writer has written it.
public struct MP4Sample: Sendable {
    /// The sample's bytes.
    public var data: [UInt8]
    /// Decode time.
    public var dts: MediaTime
    /// Presentation time.
    public var pts: MediaTime
    /// How long the sample lasts (used for the last sample of a run; otherwise the next decode time decides).
    public var duration: MediaTime
    /// Whether the sample is a random-access point (a sync sample, ISO/IEC 14496-12 §8.6.2).
    public var isKeyFrame: Bool

    /// Creates a sample.
    /// - Parameters:
    ///   - data: the bytes as stored in the track.
    ///   - dts: decode time.
    ///   - pts: presentation time.
    ///   - duration: the sample's duration.
    ///   - isKeyFrame: whether it is a sync sample.
    public init(data: [UInt8], dts: MediaTime, pts: MediaTime, duration: MediaTime, isKeyFrame: Bool) {
        self.data = data
        self.dts = dts
        self.pts = pts
        self.duration = duration
        self.isKeyFrame = isKeyFrame
    }

    /// A video sample from a compressed picture.
    /// - Parameter frame: the picture, in AVCC form.
    public init(_ frame: EncodedFrame) {
        self.init(data: frame.data, dts: frame.dts, pts: frame.pts, duration: frame.duration, isKeyFrame: frame.isKeyFrame)
    }

    /// An audio sample from a raw AAC access unit; every AAC frame is a sync sample.
    /// - Parameter frame: the access unit.
    public init(_ frame: EncodedAudioFrame) {
        self.init(data: frame.data, dts: frame.pts, pts: frame.pts, duration: frame.duration, isKeyFrame: true)
    }
}
