import MediaCore

/// RTMP message timestamps for a publish: milliseconds from the first message's decode time, never going back
/// (RTMP timestamps are 32 bits of milliseconds that only grow, RTMP 1.0 §5.3.1.2.1; FLV E.4.1).
struct RTMPTimestampClock: Sendable {
    private var origin: MediaTime?
    private var last: UInt32 = 0

    /// The timestamp of a message.
    /// - Parameter decodeTime: its decode time.
    /// - Returns: milliseconds since the first message's decode time, at least the previous timestamp.
    mutating func timestamp(for decodeTime: MediaTime) -> UInt32 {
        let origin = self.origin ?? decodeTime
        self.origin = origin
        let milliseconds = ((decodeTime - origin).seconds * 1000).rounded()
        let value = UInt32(clamping: Int64(max(0, min(Double(UInt32.max), milliseconds))))
        last = max(last, value)
        return last
    }
}
