import MediaCore

/// Which message of a track something happened to: the track, the message's index in submission order
/// (from 0) and its presentation time.
public struct MediaPosition: Sendable, Hashable, CustomStringConvertible {
    /// Whether the message is a picture (else an audio frame).
    public var isVideo: Bool
    /// Its index among the track's submitted messages, from 0.
    public var index: Int
    /// Its presentation time.
    public var pts: MediaTime

    /// Creates a position.
    /// - Parameters:
    ///   - isVideo: whether it is a picture.
    ///   - index: its index in the track, from 0.
    ///   - pts: its presentation time.
    public init(isVideo: Bool, index: Int, pts: MediaTime) {
        self.isVideo = isVideo
        self.index = index
        self.pts = pts
    }

    /// "video frame #12 (pts 12/30)".
    public var description: String { "\(isVideo ? "video" : "audio") frame #\(index) (pts \(pts))" }
}
