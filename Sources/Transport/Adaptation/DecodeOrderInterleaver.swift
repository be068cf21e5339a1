import MediaCore

/// Merges a stream's pictures and audio frames, which come from two encoders at their own pace, into one
/// sequence in decode-time order — what an FLV stream and an RTMP publish need (timestamps that never go
/// back). Each track must arrive in its own decode order.
///
/// A message is held until the other track has shown a later one, so the earlier of the two goes first;
/// when one track falls silent for longer than ``maximumLeadSeconds`` the other is not held any further.
public struct DecodeOrderInterleaver: Sendable {
    /// How far (in media seconds) one track may run ahead of a silent other before it is released anyway.
    public let maximumLeadSeconds: Double
    private let interleaves: Bool
    private var video: [OutgoingMedia] = []
    private var audio: [OutgoingMedia] = []

    /// Creates an interleaver.
    /// - Parameters:
    ///   - hasVideo: whether pictures will come.
    ///   - hasAudio: whether audio frames will come.
    ///   - maximumLeadSeconds: the most media time held for a silent track.
    public init(hasVideo: Bool, hasAudio: Bool, maximumLeadSeconds: Double = 2) {
        interleaves = hasVideo && hasAudio
        self.maximumLeadSeconds = maximumLeadSeconds
    }

    /// Takes one message and hands out what can go now.
    /// - Parameter media: a picture or an audio frame.
    /// - Returns: the messages that can be sent, in decode order.
    public mutating func push(_ media: OutgoingMedia) -> [OutgoingMedia] {
        guard interleaves else { return [media] }
        if media.isVideo { video.append(media) } else { audio.append(media) }
        var released: [OutgoingMedia] = []
        while let nextVideo = video.first, let nextAudio = audio.first {
            if nextAudio.decodeTime <= nextVideo.decodeTime {
                released.append(audio.removeFirst())
            } else {
                released.append(video.removeFirst())
            }
        }
        for track in [\Self.video, \Self.audio] {
            while let first = self[keyPath: track].first, let last = self[keyPath: track].last,
                  (last.decodeTime - first.decodeTime).seconds > maximumLeadSeconds {
                released.append(self[keyPath: track].removeFirst())
            }
        }
        return released
    }

    /// Hands out everything held, in decode order (at the end of the stream).
    /// - Returns: the held messages.
    public mutating func drain() -> [OutgoingMedia] {
        var released: [OutgoingMedia] = []
        while !video.isEmpty || !audio.isEmpty {
            if let nextVideo = video.first, let nextAudio = audio.first {
                if nextAudio.decodeTime <= nextVideo.decodeTime { released.append(audio.removeFirst()) } else { released.append(video.removeFirst()) }
            } else if !video.isEmpty {
                released.append(video.removeFirst())
            } else {
                released.append(audio.removeFirst())
            }
        }
        return released
    }
}
