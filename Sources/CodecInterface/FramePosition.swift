import MediaCore

/// Which frame of a session's input something happened to: its index (0 for the first picture or
/// frame given to the session, counting every one) and its presentation time.
public struct FramePosition: Sendable, Hashable, CustomStringConvertible {
    /// The frame's index in the order the session received it, from 0.
    public var index: Int
    /// The frame's presentation time.
    public var pts: MediaTime

    /// Creates a position.
    /// - Parameters:
    ///   - index: the frame's index in input order, from 0.
    ///   - pts: its presentation time.
    public init(index: Int, pts: MediaTime) {
        self.index = index
        self.pts = pts
    }

    /// "frame #12 (pts 12/30)".
    public var description: String { "frame #\(index) (pts \(pts))" }
}
