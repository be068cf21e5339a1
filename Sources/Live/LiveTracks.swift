/// A set of the two tracks of a live stream, video and audio: which tracks a received stream's source takes (an RTSP
/// source sets up only those media sections), or which ones a destination takes (``LiveDestination/tracks``: an
/// `.aac` file the audio alone).
public struct LiveTracks: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: Int

    /// Creates a set from its bits.
    /// - Parameter rawValue: the bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The video track.
    public static let video = LiveTracks(rawValue: 1)
    /// The audio track.
    public static let audio = LiveTracks(rawValue: 2)
    /// Both tracks.
    public static let all: LiveTracks = [.video, .audio]
}
