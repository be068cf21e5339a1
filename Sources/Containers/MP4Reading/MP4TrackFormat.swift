import MediaCore

/// What a track's sample description (`stsd`, ISO/IEC 14496-12 §8.5.2) says about its samples.
public enum MP4TrackFormat: Sendable, Hashable {
    /// H.264 (`avc1`/`avc3` + `avcC`, ISO/IEC 14496-15 §5.4) or H.265 (`hvc1`/`hev1` + `hvcC`, §8.4): the
    /// samples are length-prefixed NAL units as ``FormatDescription/nalUnitLengthSize`` says.
    case video(FormatDescription)
    /// AAC (`mp4a` + `esds` with an AudioSpecificConfig, ISO/IEC 14496-14 §5.6): each sample is one raw
    /// access unit.
    case audio(AudioFormatDescription)
    /// A sample entry this reader does not decode; the samples are still handed out.
    case unsupported(sampleEntry: String)

    /// The codec, `nil` for an unsupported sample entry.
    public var codec: CodecType? {
        switch self {
        case let .video(format): return format.codec
        case let .audio(format): return format.codec
        case .unsupported: return nil
        }
    }
}
