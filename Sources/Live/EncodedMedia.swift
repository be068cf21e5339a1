import MediaCore

/// One frame an ``EncodedMediaSource`` gives: a compressed picture or a compressed audio frame.
public enum EncodedMedia: Sendable, Hashable {
    /// A picture, in decode order.
    case video(EncodedFrame)
    /// An audio frame.
    case audio(EncodedAudioFrame)

    /// The decode time: a picture's dts, an audio frame's pts.
    public var decodeTime: MediaTime {
        switch self {
        case let .video(frame): return frame.dts
        case let .audio(frame): return frame.pts
        }
    }
}
