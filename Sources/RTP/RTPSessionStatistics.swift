/// What an ``RTPSessionReceiver`` saw: one ``RTPTrackStatistics`` per track, the audio's start against the video's
/// on the sender's clock, and the RTCP it could not read.
public struct RTPSessionStatistics: Sendable, Hashable {
    /// The video track's counts, if the session has video.
    public var video: RTPTrackStatistics?
    /// The audio track's counts, if the session has audio.
    public var audio: RTPTrackStatistics?
    /// The first audio packet's time minus the first video packet's, in seconds, on the common clock the sender
    /// reports set (RFC 3550 §6.4.1: each SR pairs an NTP time with an RTP timestamp); `nil` until both streams
    /// have a sender report.
    public var audioVideoStartOffset: Double?
    /// How the presentation times were placed.
    public var timing: RTPSessionReceiver.Timing?
    /// Datagrams parsed as RTP packets: one parse per datagram, whatever uses the packet afterwards (statistics,
    /// jitter buffer, depacketizer).
    public var datagramsParsed = 0
    /// RTCP datagrams that did not parse (RFC 3550 §6.1), ignored.
    public var controlPacketsMalformed = 0

    /// Empty statistics.
    public init() {}
}
