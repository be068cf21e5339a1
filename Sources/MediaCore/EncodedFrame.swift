import Bitstream

/// One compressed picture as a compression session hands it out — StreamKit's `CMSampleBuffer`.
///
/// ``data`` holds the picture's NAL units in AVCC form: each preceded by its big-endian length of
/// ``FormatDescription/nalUnitLengthSize`` bytes, exactly as VideoToolbox delivers them. Annex B
/// exists only at file and stream edges.
public struct EncodedFrame: Sendable, Hashable {
    /// The length-prefixed NAL units of the picture.
    public var data: [UInt8]
    /// Whether the picture is a random-access point (IDR for H.264, IRAP for H.265);
    /// the opposite of `kCMSampleAttachmentKey_NotSync`.
    public var isKeyFrame: Bool
    /// Presentation time.
    public var pts: MediaTime
    /// Decode time (earlier than `pts` when pictures are reordered).
    public var dts: MediaTime
    /// How long the picture is shown.
    public var duration: MediaTime
    /// The stream's format, with the parameter sets in force for this picture.
    public var format: FormatDescription

    /// Creates a frame.
    /// - Parameters:
    ///   - data: length-prefixed NAL units.
    ///   - isKeyFrame: whether it is a random-access point.
    ///   - pts: presentation time.
    ///   - dts: decode time.
    ///   - duration: display duration.
    ///   - format: the stream's format description.
    public init(data: [UInt8], isKeyFrame: Bool, pts: MediaTime, dts: MediaTime, duration: MediaTime, format: FormatDescription) {
        self.data = data
        self.isKeyFrame = isKeyFrame
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.format = format
    }

    /// The codec of the picture.
    public var codec: CodecType { format.codec }

    /// The ranges of the NAL units in ``data`` (length prefixes excluded). A malformed length ends the list.
    ///
    /// The framing is read by `AVCC.forEachNALUnit(in:lengthSize:_:)` of Bitstream, the
    /// one implementation of length-prefixed NAL units in StreamKit.
    public var nalUnitRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        data.withUnsafeBytes { buffer in
            // A malformed prefix ends the list: the units before it are kept, the error is dropped.
            try? AVCC.forEachNALUnit(in: buffer, lengthSize: format.nalUnitLengthSize) { ranges.append($0) }
        }
        return ranges
    }
}

/// One compressed audio frame (a raw AAC access unit, no ADTS header).
public struct EncodedAudioFrame: Sendable, Hashable {
    /// The raw access unit.
    public var data: [UInt8]
    /// Presentation time.
    public var pts: MediaTime
    /// The frame's duration (1024 samples for AAC-LC).
    public var duration: MediaTime
    /// The stream's format.
    public var format: AudioFormatDescription

    /// Creates a frame.
    /// - Parameters:
    ///   - data: the raw access unit.
    ///   - pts: presentation time.
    ///   - duration: duration.
    ///   - format: the stream's format description.
    public init(data: [UInt8], pts: MediaTime, duration: MediaTime, format: AudioFormatDescription) {
        self.data = data
        self.pts = pts
        self.duration = duration
        self.format = format
    }
}
