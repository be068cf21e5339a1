import MediaCore

/// One media message waiting in a publisher's send queue: a compressed picture or audio frame, numbered
/// per track in the order it was submitted (from 0), so a drop can say which one it was.
public enum OutgoingMedia: Sendable, Hashable {
    /// A picture, in decode order, and its index among the submitted pictures.
    case video(EncodedFrame, index: Int)
    /// An audio frame and its index among the submitted audio frames.
    case audio(EncodedAudioFrame, index: Int)

    /// The payload size in bytes (what the queue's byte bound counts).
    public var byteCount: Int {
        switch self {
        case let .video(frame, _): return frame.data.count
        case let .audio(frame, _): return frame.data.count
        }
    }

    /// The decode time: a picture's dts, an audio frame's pts (audio is not reordered).
    public var decodeTime: MediaTime {
        switch self {
        case let .video(frame, _): return frame.dts
        case let .audio(frame, _): return frame.pts
        }
    }

    /// How long the message plays.
    public var duration: MediaTime {
        switch self {
        case let .video(frame, _): return frame.duration
        case let .audio(frame, _): return frame.duration
        }
    }

    /// Whether this is a picture.
    public var isVideo: Bool {
        if case .video = self { return true }
        return false
    }

    /// Whether this is a key frame (audio frames are not).
    public var isKeyFrame: Bool {
        if case let .video(frame, _) = self { return frame.isKeyFrame }
        return false
    }

    /// Where the message sits in its track: index and presentation time.
    public var position: MediaPosition {
        switch self {
        case let .video(frame, index): return MediaPosition(isVideo: true, index: index, pts: frame.pts)
        case let .audio(frame, index): return MediaPosition(isVideo: false, index: index, pts: frame.pts)
        }
    }
}
