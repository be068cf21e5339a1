/// What an ``AdaptiveMediaSender`` did, when it is closed.
public struct MediaSendReport: Sendable, Hashable {
    /// Pictures sent.
    public var videoFramesSent = 0
    /// Audio frames sent.
    public var audioFramesSent = 0
    /// Payload bytes sent.
    public var bytesSent = 0
    /// Pictures dropped (each was reported as a ``SendQueueEvent/dropped(_:reason:)``).
    public var videoFramesDropped = 0
    /// Audio frames dropped.
    public var audioFramesDropped = 0
    /// Bitrate changes made.
    public var bitRateChanges = 0
    /// Reconnections made.
    public var reconnections = 0
    /// The target bitrate at the end (bits per second), when the sender adapted one.
    public var finalBitRate: Int?

    /// An empty report.
    public init() {}
}
