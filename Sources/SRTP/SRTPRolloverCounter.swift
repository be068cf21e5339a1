/// The rollover counter of one RTP stream and the index estimate of RFC 3711 §3.3.1: the 48-bit packet index
/// `i = 2^16 × ROC + SEQ`, guessed from the sequence number and the highest one seen.
public struct SRTPRolloverCounter: Sendable, Hashable {
    /// The rollover counter (ROC): how many times the sequence number has wrapped.
    public private(set) var rollover: UInt32
    /// The highest sequence number seen (`s_l`); `nil` before the first packet.
    public private(set) var highestSequence: UInt16?

    /// A counter for a stream that starts with `rollover` (0 for a new stream, RFC 3711 §3.3.1).
    /// - Parameter rollover: the initial ROC.
    public init(rollover: UInt32 = 0) {
        self.rollover = rollover
        self.highestSequence = nil
    }

    /// The estimated index of a packet with sequence number `sequence` (RFC 3711 §3.3.1, the rule of Appendix A).
    /// - Parameter sequence: the packet's SEQ.
    /// - Returns: the guessed ROC `v` and the index `2^16 × v + SEQ`.
    public func estimate(_ sequence: UInt16) -> (rollover: UInt32, index: UInt64) {
        guard let last = highestSequence else {
            return (rollover, UInt64(rollover) << 16 | UInt64(sequence))
        }
        var guess = Int64(rollover)
        if last < 0x8000 {
            if Int(sequence) - Int(last) > 0x8000 { guess -= 1 }
        } else if Int(last) - 0x8000 > Int(sequence) {
            guess += 1
        }
        // Before the first wrap there is no ROC − 1; beyond 2^32 − 1 the stream is exhausted (the caller checks).
        let clamped = UInt32(clamping: max(0, guess))
        return (clamped, UInt64(clamped) << 16 | UInt64(sequence))
    }

    /// Records an authenticated packet: the ROC and `s_l` move forward when its index is the highest yet
    /// (RFC 3711 §3.3.1, updated only after authentication).
    /// - Parameter index: the packet's index from ``estimate(_:)``.
    public mutating func update(index: UInt64) {
        let sequence = UInt16(truncatingIfNeeded: index)
        let roc = UInt32(truncatingIfNeeded: index >> 16)
        guard let last = highestSequence else {
            rollover = roc
            highestSequence = sequence
            return
        }
        let current = UInt64(rollover) << 16 | UInt64(last)
        if index > current {
            rollover = roc
            highestSequence = sequence
        }
    }
}
