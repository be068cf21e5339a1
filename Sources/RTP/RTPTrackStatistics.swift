/// What one track of an ``RTPSessionReceiver`` saw, as a value a program can print or check: packets
/// (RFC 3550 §6.4.1 reception report fields — loss, the interarrival jitter of §A.8 — plus what the jitter buffer
/// saw: reordered, duplicated, late) and frames (good, lost, withheld until a key frame).
public struct RTPTrackStatistics: Sendable, Hashable {
    /// The track's SSRC, once a packet has come.
    public var ssrc: UInt32?
    /// RTP packets received (duplicates included).
    public var packetsReceived = 0
    /// Packets that never arrived in time (the jitter buffer gave them up).
    public var packetsLost = 0
    /// Packets that arrived after a later one, still in time.
    public var packetsReordered = 0
    /// Packets received twice.
    public var packetsDuplicated = 0
    /// Packets that arrived after their turn, dropped.
    public var packetsLate = 0
    /// Datagrams that were not RTP packets (RFC 3550 §5.1), or carried another payload type.
    public var packetsMalformed = 0
    /// Packets whose payload was malformed (RFC 6184, RFC 7798 or RFC 3640 syntax).
    public var payloadsMalformed = 0
    /// The interarrival jitter (RFC 3550 §6.4.1, §A.8) in seconds.
    public var jitterSeconds = 0.0
    /// Frames handed on.
    public var framesGood = 0
    /// Frames reported lost.
    public var framesLost = 0
    /// Frames withheld until a key frame (video only).
    public var framesWithheld = 0

    /// Empty statistics.
    public init() {}
}
