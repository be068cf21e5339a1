import RTP

/// Which tracks of a received stream a source takes: both by default, or the video or the audio alone (an RTSP
/// source then sets up only that media section).
public typealias ReceivedTracks = LiveTracks

extension LiveTracks {
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
