/// One destination's numbers, as a snapshot (``LivePipeline/statistics``) or at the end (``LiveReport``).
public struct DestinationStatistics: Sendable, Hashable, CustomStringConvertible {
    /// The destination's name.
    public var name: String
    /// Whether it is a live link (its speed may lower the bit rate).
    public var isLive: Bool
    /// Pictures sent.
    public var videoFramesSent = 0
    /// Audio frames sent.
    public var audioFramesSent = 0
    /// Payload bytes sent.
    public var bytesSent = 0
    /// Frames its queue dropped (pictures and audio).
    public var framesDropped = 0
    /// Seconds of media waiting in its queue now.
    public var queuedSeconds = 0.0
    /// Times its connection was restored.
    public var reconnections = 0
    /// Why it failed, if it did.
    public var failure: String?

    /// Creates empty statistics.
    /// - Parameters:
    ///   - name: the destination's name.
    ///   - isLive: whether it is a live link.
    public init(name: String, isLive: Bool) {
        self.name = name
        self.isLive = isLive
    }

    /// A sentence a person reads — the one wording of a destination's numbers, which `streamkit` prints too:
    /// "sent 150 video frames and 235 audio frames (1048576 bytes) to rtmp://host/app/key; dropped 3 frames;
    /// 1 reconnection; failed: …" (the last three parts only when they happened).
    public var description: String {
        var text = "sent \(videoFramesSent) video frames and \(audioFramesSent) audio frames (\(bytesSent) bytes) to \(name)"
        if framesDropped > 0 { text += "; dropped \(framesDropped) frame\(framesDropped == 1 ? "" : "s")" }
        if reconnections > 0 { text += "; \(reconnections) reconnection\(reconnections == 1 ? "" : "s")" }
        if let failure { text += "; failed: \(failure)" }
        return text
    }
}
