import MediaCore

/// What an ``RTMPPublisher`` sends and how it copes with the network.
public struct RTMPPublisherConfiguration: Sendable {
    /// Whether the stream has pictures.
    public var hasVideo: Bool
    /// Whether the stream has audio.
    public var hasAudio: Bool
    /// The video codec: ``CodecType/h264`` (legacy FLV AVC) or ``CodecType/hevc`` (Enhanced RTMP `hvc1`,
    /// announced in `connect`'s `fourCcList`).
    public var videoCodec: CodecType
    /// The frame rate `onMetaData` announces, if known.
    public var frameRate: Double?
    /// The video bitrate `onMetaData` announces (bits per second), if known.
    public var videoBitRate: Int?
    /// The audio bitrate `onMetaData` announces (bits per second), if known.
    public var audioBitRate: Int?
    /// The send queue's bounds and policy: ``SendQueueLimits/Policy/drop`` for live sources,
    /// ``SendQueueLimits/Policy/wait`` for a file sent as fast as possible.
    public var queueLimits: SendQueueLimits
    /// How the target bitrate follows the queue (`nil`: the bitrate cannot change, as for a file).
    public var adaptation: BitRateAdaptation?
    /// What to do when the connection drops.
    public var reconnectPolicy: ReconnectPolicy
    /// Which server certificates an `rtmps://` connection accepts (verification is on by default: the system's
    /// certificate authorities, and the certificate must name the URL's host).
    public var tlsTrust: TLSTrust = .systemRoots

    /// Creates a configuration.
    /// - Parameters:
    ///   - hasVideo: whether pictures are sent.
    ///   - hasAudio: whether audio is sent.
    ///   - videoCodec: H.264 or H.265.
    ///   - frameRate: the frame rate for `onMetaData`.
    ///   - queueLimits: the send queue's bounds.
    ///   - adaptation: the bitrate rules, if the encoder's bitrate can change.
    ///   - reconnectPolicy: reconnection after a lost connection.
    public init(hasVideo: Bool = true, hasAudio: Bool = true, videoCodec: CodecType = .h264, frameRate: Double? = nil,
                queueLimits: SendQueueLimits = SendQueueLimits(), adaptation: BitRateAdaptation? = nil,
                reconnectPolicy: ReconnectPolicy = ReconnectPolicy()) {
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.videoCodec = videoCodec
        self.frameRate = frameRate
        self.videoBitRate = adaptation?.initialBitRate
        self.audioBitRate = nil
        self.queueLimits = queueLimits
        self.adaptation = adaptation
        self.reconnectPolicy = reconnectPolicy
    }
}
