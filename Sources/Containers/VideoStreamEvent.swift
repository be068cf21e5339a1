import MediaCore

/// What ``VideoStreamAnalyzer`` hands out while it reads a stream, in stream order.
///
/// Events are delivered as soon as they are certain, so a caller can print or store them as the stream
/// goes by instead of keeping every frame: the analyser itself holds only the frame being assembled.
public enum VideoStreamEvent: Sendable, Hashable {
    /// The stream's properties, once, when its first sequence parameter set has been read (always
    /// before the first frame that uses it).
    case properties(VideoStreamProperties)
    /// A NAL unit (only when the analyser was created with `reportsNALUnits`).
    case nalUnit(NALUnitSummary)
    /// A complete frame (access unit, or complementary field pair), in decode order.
    case frame(FrameSummary)
    /// A problem, as soon as it is found.
    case issue(StreamIssue)
}

/// The stream-wide facts taken from the first sequence parameter set.
public struct VideoStreamProperties: Sendable, Hashable {
    /// ``CodecType/h264`` or ``CodecType/hevc``.
    public var codec: CodecType
    /// The profile name, as ffprobe prints it.
    public var profile: String?
    /// The level name, for example "3.1".
    public var level: String?
    /// The width after cropping.
    public var width: Int
    /// The height after cropping.
    public var height: Int
    /// The frame rate signalled in the VUI, if any.
    public var frameRate: Double?

    /// Creates the properties.
    /// - Parameters:
    ///   - codec: the codec.
    ///   - profile: the profile name.
    ///   - level: the level name.
    ///   - width: the cropped width.
    ///   - height: the cropped height.
    ///   - frameRate: the VUI frame rate.
    public init(codec: CodecType, profile: String?, level: String?, width: Int, height: Int, frameRate: Double?) {
        self.codec = codec
        self.profile = profile
        self.level = level
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}
