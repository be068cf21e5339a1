/// Extends 32-bit RTP timestamps (RFC 3550 §5.1, which wrap) to 64 bits counted from the first one seen: each
/// timestamp is taken at its signed 32-bit distance from the previous one, so reordered packets step back and a
/// wrap steps forward.
struct RTPTimestampUnwrapper: Sendable, Hashable {
    private var last: UInt32?
    private var extended: Int64 = 0

    /// The first timestamp seen, if any.
    private(set) var first: UInt32?

    /// The timestamp's distance from the first one seen, in clock units.
    /// - Parameter timestamp: an RTP timestamp of the stream.
    /// - Returns: the extended distance (0 for the first).
    mutating func unwrap(_ timestamp: UInt32) -> Int64 {
        guard let last else {
            first = timestamp
            self.last = timestamp
            return 0
        }
        extended += Int64(Int32(bitPattern: timestamp &- last))
        self.last = timestamp
        return extended
    }
}
