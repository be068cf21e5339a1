/// How the audio bit rate moves when a ``LivePipeline`` adapts the video's to a slow link.
///
/// Sound is what a viewer misses first and costs little, so it keeps its configured rate while the video
/// adapts — HaishinKit and FFmpeg users expect the audio they set to be the audio they get. Only when the
/// adaptation has pushed the video below a floor (by default a quarter of its configured rate: the link
/// carries little more than the audio) does the audio step down, once, to a rate that still sounds like
/// speech and music — 32 kbit/s mono, 48 kbit/s for two channels or more (never above what was configured),
/// where the native AAC encoder and FFmpeg's `aac` score about 4.1–4.2 on Zimtohrli's MOS. It steps back up to
/// the configured rate once the video has climbed a quarter above the floor again (the margin keeps a link
/// hovering at the floor from switching the audio on every suggestion).
///
/// The pipeline has one audio encoder for every destination, so a recording's audio follows too.
public struct AudioAdaptation: Sendable, Hashable {
    /// The share of the video's configured rate below which the audio steps down (0 … 1).
    public var videoFloorFraction: Double
    /// The audio rate when stepped down, for one channel (bits per second).
    public var minimumMonoBitRate: Int
    /// The audio rate when stepped down, for two channels or more (bits per second).
    public var minimumStereoBitRate: Int

    /// Creates the rule.
    /// - Parameters:
    ///   - videoFloorFraction: the share of the configured video rate below which the audio steps down.
    ///   - minimumMonoBitRate: the stepped-down rate of mono audio.
    ///   - minimumStereoBitRate: the stepped-down rate of audio with two channels or more.
    public init(videoFloorFraction: Double = 0.25, minimumMonoBitRate: Int = 32_000, minimumStereoBitRate: Int = 48_000) {
        self.videoFloorFraction = videoFloorFraction
        self.minimumMonoBitRate = minimumMonoBitRate
        self.minimumStereoBitRate = minimumStereoBitRate
    }

    /// The audio rate to use after the video's rate changed.
    /// - Parameters:
    ///   - video: the video rate just chosen (bits per second).
    ///   - videoConfigured: the video's configured rate.
    ///   - audioConfigured: the audio's configured rate.
    ///   - audioCurrent: the audio rate in force now.
    ///   - channelCount: the audio's channels.
    /// - Returns: the audio rate (bits per second): the configured one, or the stepped-down one.
    public func bitRate(video: Int, videoConfigured: Int, audioConfigured: Int, audioCurrent: Int, channelCount: Int) -> Int {
        let lowered = min(audioConfigured, channelCount > 1 ? minimumStereoBitRate : minimumMonoBitRate)
        let floor = Double(videoConfigured) * videoFloorFraction
        let isDown = audioCurrent < audioConfigured
        // Down below the floor; back up only a quarter above it.
        if Double(video) < floor { return lowered }
        if isDown, Double(video) < floor * 1.25 { return lowered }
        return audioConfigured
    }
}
