import RTP

/// One frame a received stream could not hand on as good, and why: what ``ReceivedStreamStatistics/losses`` lists.
public struct ReceivedFrameLoss: Sendable, Hashable, CustomStringConvertible {
    /// The frame's track.
    public enum Track: Sendable, Hashable {
        /// The video.
        case video
        /// The audio.
        case audio
    }

    /// What became of the frame.
    public enum Fate: Sendable, Hashable {
        /// Packets of it were lost or malformed.
        case lost
        /// It was whole, but withheld until the next key frame because an earlier one was lost.
        case withheld
    }

    /// The frame's track.
    public var track: Track
    /// What became of it.
    public var fate: Fate
    /// Which frame (RTP time, packets) and the reason.
    public var loss: RTPFrameLoss

    /// Creates a report.
    /// - Parameters:
    ///   - track: the frame's track.
    ///   - fate: lost or withheld.
    ///   - loss: which frame and why.
    public init(track: Track, fate: Fate, loss: RTPFrameLoss) {
        self.track = track
        self.fate = fate
        self.loss = loss
    }

    /// The report in words: "video withheld: frame at RTP time …".
    public var description: String {
        "\(track == .video ? "video" : "audio") \(fate == .lost ? "lost" : "withheld"): \(loss)"
    }
}
