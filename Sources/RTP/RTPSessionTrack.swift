import MediaCore

/// One media section of an RTP session that an ``RTPSessionReceiver`` takes: its index in the SDP (the track number
/// RTSP and the SDP's ports use), payload type, RTP clock rate and format (RFC 8866 §5.14 `m=`, §6.6 `a=rtpmap`,
/// `a=fmtp`).
public struct RTPSessionTrack: Sendable, Hashable {
    /// What the track carries.
    public enum Media: Sendable, Hashable {
        /// H.264 (RFC 6184) or H.265 (RFC 7798) video; the format when the SDP carries the parameter sets
        /// (`sprop-parameter-sets`, `sprop-vps/sps/pps`), `nil` when they travel in band only.
        case video(RTPVideoReceiver.Codec, FormatDescription?)
        /// AAC (RFC 3640 `mpeg4-generic`) with its AudioSpecificConfig and AU-header field sizes.
        case audio(AudioFormatDescription, SDPMPEG4GenericParameters)
    }

    /// The media section's index in the SDP.
    public var index: Int
    /// The payload type the track's packets carry.
    public var payloadType: UInt8
    /// The RTP clock rate in Hz (90000 for video, the sample rate for AAC).
    public var clockRate: Int
    /// What the track carries.
    public var media: Media
    /// The nominal frame rate (`a=framerate`), for video when the SDP gives one.
    public var frameRate: Double?

    /// Creates a track.
    /// - Parameters:
    ///   - index: the media section's index.
    ///   - payloadType: the payload type.
    ///   - clockRate: the RTP clock rate in Hz.
    ///   - media: what the track carries.
    ///   - frameRate: the nominal frame rate, if any.
    public init(index: Int, payloadType: UInt8, clockRate: Int, media: Media, frameRate: Double? = nil) {
        self.index = index
        self.payloadType = payloadType
        self.clockRate = clockRate
        self.media = media
        self.frameRate = frameRate
    }
}
