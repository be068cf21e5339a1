import RTP

/// Which tracks of a received stream a source takes: both by default, or the video or the audio alone (an RTSP
/// source then sets up only that media section).
public struct ReceivedTracks: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: Int

    /// Creates a set from its bits.
    /// - Parameter rawValue: the bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The video track.
    public static let video = ReceivedTracks(rawValue: 1)
    /// The audio track.
    public static let audio = ReceivedTracks(rawValue: 2)
    /// Both tracks.
    public static let all: ReceivedTracks = [.video, .audio]

    /// The session receiver for the tracks of a description this set takes.
    /// - Parameters:
    ///   - description: the SDP.
    ///   - configuration: the receiver's limits.
    /// - Returns: the receiver.
    /// - Throws: ``RTPSessionError`` when no wanted track can be received.
    func receiver(for description: SessionDescription, configuration: RTPSessionReceiver.Configuration) throws(RTPSessionError) -> RTPSessionReceiver {
        let all = try RTPSessionReceiver(description: description, configuration: configuration)
        if self == .all { return all }
        let video = contains(.video) ? all.video : nil, audio = contains(.audio) ? all.audio : nil
        guard video != nil || audio != nil else {
            throw .noSupportedTrack(encodings: description.media.map(\.media))
        }
        return try RTPSessionReceiver(video: video, audio: audio, configuration: configuration)
    }
}
