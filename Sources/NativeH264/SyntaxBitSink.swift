import Bitstream

/// Where the macroblock layer's syntax elements go: a ``BitWriter`` (the slice data) or a
/// ``SyntaxBitCounter`` (the same elements counted, for a mode decision's rate, without writing).
/// The writers of the macroblock layer are generic over it, so the count is exactly the bits the
/// writer would write (§7.2 descriptors u(n), ue(v), se(v); me(v) is a ue(v) of a mapped codeNum).
protocol SyntaxBitSink {
    /// u(n): `count` bits of `value`.
    mutating func u(_ count: Int, _ value: UInt32)
    /// ue(v) (§9.1).
    mutating func ue(_ value: UInt32)
    /// se(v) (§9.1.1).
    mutating func se(_ value: Int32)
}

extension BitWriter: SyntaxBitSink {}

/// Counts the bits the syntax elements written to it would take (§9.1: ue(v) of codeNum k is
/// 2·⌊log2(k + 1)⌋ + 1 bits).
struct SyntaxBitCounter: SyntaxBitSink {
    /// The bits counted so far.
    var bitCount = 0

    mutating func u(_ count: Int, _ value: UInt32) { bitCount &+= count }

    mutating func ue(_ value: UInt32) { bitCount &+= Self.golombBits(UInt64(value)) }

    mutating func se(_ value: Int32) {
        let wide = Int64(value)
        bitCount &+= Self.golombBits(UInt64(truncatingIfNeeded: wide > 0 ? 2 &* wide &- 1 : 0 &- 2 &* wide))
    }

    @inline(__always)
    static func golombBits(_ codeNum: UInt64) -> Int {
        2 &* (64 &- (codeNum &+ 1).leadingZeroBitCount) &- 1
    }
}
