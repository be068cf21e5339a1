/// Sequence-number arithmetic modulo 2^16 (RFC 3550 §A.1): which of two sequence numbers is newer and by how
/// many packets, across the wrap from 65535 to 0.
public enum RTPSequenceNumber {
    /// The signed distance from `earlier` to `later`, in −32768…32767: positive when `later` follows
    /// `earlier` (RFC 3550 §A.1 treats a difference below 2^15 as forward).
    /// - Parameters:
    ///   - earlier: the reference sequence number.
    ///   - later: the other sequence number.
    /// - Returns: how many packets `later` is ahead of `earlier` (negative when behind).
    @inlinable
    public static func distance(from earlier: UInt16, to later: UInt16) -> Int {
        Int(Int16(bitPattern: later &- earlier))
    }

    /// Whether `candidate` is newer than `reference` (ahead by 1…32767, modulo 2^16).
    /// - Parameters:
    ///   - candidate: the sequence number to classify.
    ///   - reference: the sequence number it is compared with.
    /// - Returns: `true` when `candidate` follows `reference`.
    @inlinable
    public static func isNewer(_ candidate: UInt16, than reference: UInt16) -> Bool {
        distance(from: reference, to: candidate) > 0
    }
}
