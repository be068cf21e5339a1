import RTP

/// What a received stream (``RTSPSource``, ``RTPSource``, ``RTMPSource``) saw so far, as a value a program prints or
/// checks: frames good, lost and withheld per track, and for RTP the packets (lost, reordered, duplicated), jitter
/// and the audio's start against the video's on the sender's clock.
public struct ReceivedStreamStatistics: Sendable, Hashable {
    /// The most frame losses ``losses`` keeps (the counts go on).
    public static let maximumLossReports = 10_000

    /// Video frames handed on.
    public var videoFramesGood = 0
    /// Video frames lost (packets missing or malformed).
    public var videoFramesLost = 0
    /// Whole video frames withheld until the next key frame.
    public var videoFramesWithheld = 0
    /// Audio frames handed on.
    public var audioFramesGood = 0
    /// Audio frames lost.
    public var audioFramesLost = 0
    /// The RTP session's packet counts, jitter and A/V offset (RTSP and RTP sources only).
    public var rtp: RTPSessionStatistics?
    /// Each frame not handed on, in order (the first ``maximumLossReports``).
    public var losses: [ReceivedFrameLoss] = []

    /// Empty statistics.
    public init() {}

    /// The counts in sentences, one a line: frames, then packets and jitter per track, then the A/V start offset.
    public var summaryLines: [String] {
        var lines: [String] = []
        let hasVideo = rtp.map { $0.video != nil } ?? (videoFramesGood + videoFramesLost + videoFramesWithheld > 0)
        let hasAudio = rtp.map { $0.audio != nil } ?? (audioFramesGood + audioFramesLost > 0)
        if hasVideo {
            lines.append("video frames: \(videoFramesGood) good, \(videoFramesLost) lost, \(videoFramesWithheld) withheld")
            if let track = rtp?.video { lines.append(Self.packetLine("video", track)) }
        }
        if hasAudio {
            lines.append("audio frames: \(audioFramesGood) good, \(audioFramesLost) lost")
            if let track = rtp?.audio { lines.append(Self.packetLine("audio", track)) }
        }
        if let offset = rtp?.audioVideoStartOffset {
            lines.append("a/v start: the first audio packet is \(Self.milliseconds(offset)) ms after the first video packet "
                + "on the sender-report clock")
        } else if rtp?.video != nil, rtp?.audio != nil {
            lines.append("a/v start: unknown (no sender report of both streams)")
        }
        return lines
    }

    private static func packetLine(_ name: String, _ track: RTPTrackStatistics) -> String {
        "\(name) packets: \(track.packetsReceived) received, \(track.packetsLost) lost, \(track.packetsReordered) reordered, "
            + "\(track.packetsDuplicated) duplicated, \(track.packetsLate) late, \(track.packetsMalformed + track.payloadsMalformed) malformed; "
            + "jitter \(milliseconds(track.jitterSeconds)) ms"
    }

    private static func milliseconds(_ seconds: Double) -> String {
        let tenths = (seconds * 10_000).rounded() / 10
        return "\(tenths)"
    }
}
