import MediaCore

/// One track of an MP4 file to write: its format and the clock its samples are counted in
/// (the `mdhd` timescale, ISO/IEC 14496-12 §8.4.2).
public struct MP4TrackDescription: Sendable, Hashable {
    /// What the track carries.
    public enum Media: Sendable, Hashable {
        /// H.264 or H.265 video.
        case video(FormatDescription)
        /// AAC audio.
        case audio(AudioFormatDescription)
    }

    /// The track's media and format.
    public var media: Media
    /// Units per second of the track's sample times.
    public var timescale: Int32
    /// For H.265: write an `hev1` sample entry, with the parameter sets repeated in band before
    /// every key frame (ISO/IEC 14496-15 §8.4.1), instead of `hvc1` (parameter sets only in `hvcC`).
    public var carriesParameterSetsInBand: Bool
    /// The average bit rate, for the `btrt` box (ISO/IEC 14496-12 §8.5.2.2); `nil` to measure it
    /// (classic files) or leave the box out (fragmented files).
    public var averageBitRate: Int?
    /// The `media_time` of the edit that starts presentation (ISO/IEC 14496-12 §8.6.6), in ``timescale`` ticks on
    /// the written track's media timeline, whose first decode time is 0; `nil` lets the writer choose (the B-frame
    /// delay for video, the encoder delay for audio, so that presentation starts at 0); 0 writes no edit list.
    /// A remux sets it to keep the input's timeline to the tick.
    public var editMediaTime: Int64? = nil

    /// A video track.
    /// - Parameters:
    ///   - format: the stream's format description (codec, size, parameter sets).
    ///   - timescale: units per second of the sample times; 90 000 by default.
    ///   - carriesParameterSetsInBand: for H.265, `hev1` instead of `hvc1`.
    /// - Returns: the description.
    public static func video(_ format: FormatDescription, timescale: Int32 = 90_000,
                             carriesParameterSetsInBand: Bool = false) -> MP4TrackDescription {
        MP4TrackDescription(media: .video(format), timescale: timescale, carriesParameterSetsInBand: carriesParameterSetsInBand,
                            averageBitRate: nil)
    }

    /// An audio track counted in samples (the timescale is the sample rate).
    /// - Parameter format: the stream's format description (its AudioSpecificConfig and encoder delay).
    /// - Returns: the description.
    public static func audio(_ format: AudioFormatDescription) -> MP4TrackDescription {
        MP4TrackDescription(media: .audio(format), timescale: Int32(clamping: max(1, format.sampleRate)),
                            carriesParameterSetsInBand: false, averageBitRate: nil)
    }

    /// Whether the track is video.
    public var isVideo: Bool {
        if case .video = media { return true }
        return false
    }
}
