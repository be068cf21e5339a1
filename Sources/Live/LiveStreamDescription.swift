import MediaCore

/// What a destination learns before the first frame: the formats of the stream's tracks and its frame rate —
/// enough for an SDP, an MP4 `moov`, RTMP's `onMetaData` and sequence headers.
public struct LiveStreamDescription: Sendable, Hashable {
    /// The video's format with its parameter sets, or `nil` for an audio-only stream.
    public var video: FormatDescription?
    /// The audio's format, or `nil` for a video-only stream.
    public var audio: AudioFormatDescription?
    /// The nominal frame rate (frames per second).
    public var frameRate: Double
    /// The video's average bit rate when the encoder has one (bits per second), for metadata.
    public var videoBitRate: Int?
    /// The audio's bit rate (bits per second), for metadata.
    public var audioBitRate: Int?

    /// Creates a description.
    /// - Parameters:
    ///   - video: the video format, if any.
    ///   - audio: the audio format, if any.
    ///   - frameRate: frames per second.
    ///   - videoBitRate: the video's average bit rate, if known.
    ///   - audioBitRate: the audio's bit rate, if known.
    public init(video: FormatDescription?, audio: AudioFormatDescription?, frameRate: Double,
                videoBitRate: Int? = nil, audioBitRate: Int? = nil) {
        self.video = video
        self.audio = audio
        self.frameRate = frameRate
        self.videoBitRate = videoBitRate
        self.audioBitRate = audioBitRate
    }
}
