// The BitWriter of Bitstream before the 64-bit cache (commit fb8a954), kept verbatim except for its name and
// access level, so the benchmark times "before" and "after" in one process. Not used anywhere else.

/// Writes bits most-significant first into an RBSP, the mirror of ``LegacyBitReader``.
///
/// The descriptor forms `u(_:_:)`, `flag(_:)`, `ue(_:)`, `se(_:)` follow the syntax tables of
/// ITU-T H.264 §7.2 / H.265 §7.2, so a writer reads like the table it implements. Add emulation
/// prevention with ``EmulationPrevention/ebsp(fromRBSP:)`` before putting the result in a NAL unit.
struct LegacyBitWriter: Sendable {
    /// The bytes written so far; a partial last byte is padded with zero bits.
    private(set) var bytes: [UInt8] = []
    /// The number of bits written.
    private(set) var bitCount: Int = 0

    /// Creates an empty writer.
    init() {}

    /// Whether the next bit starts a new byte.
    var isByteAligned: Bool { bitCount & 7 == 0 }

    /// Appends the low `count` bits of `value`, most significant first.
    /// - Parameters:
    ///   - value: the bits; bits above `count` are ignored.
    ///   - count: 0 through 64.
    mutating func writeBits(_ value: UInt64, count: Int) {
        precondition(count >= 0 && count <= 64, "writeBits writes 0...64 bits")
        var left = count
        while left > 0 {
            let bitInByte = bitCount & 7
            if bitInByte == 0 { bytes.append(0) }
            let space = 8 - bitInByte
            let take = min(space, left)
            let chunk = UInt8(truncatingIfNeeded: (value >> UInt64(left - take)) & ((1 << UInt64(take)) - 1))
            bytes[bytes.count - 1] |= chunk << UInt8(space - take)
            bitCount += take
            left -= take
        }
    }

    /// Writes `u(n)`.
    /// - Parameters:
    ///   - count: the number of bits, 0 through 32.
    ///   - value: the value; bits above `count` are ignored.
    mutating func u(_ count: Int, _ value: UInt32) {
        writeBits(UInt64(value), count: count)
    }

    /// Writes a flag as `u(1)`.
    /// - Parameter value: `true` writes 1.
    mutating func flag(_ value: Bool) {
        writeBits(value ? 1 : 0, count: 1)
    }

    /// Writes an unsigned Exp-Golomb code `ue(v)` (§9.1).
    /// - Parameter value: 0 through 2^32 − 2.
    mutating func ue(_ value: UInt32) {
        let codeNum = UInt64(value) + 1
        let length = 64 - codeNum.leadingZeroBitCount
        writeBits(0, count: length - 1)
        writeBits(codeNum, count: length)
    }

    /// Writes a signed Exp-Golomb code `se(v)` (§9.1.1).
    /// - Parameter value: the value; positive values map to odd codes.
    mutating func se(_ value: Int32) {
        let wide = Int64(value)
        let code = wide > 0 ? 2 * wide - 1 : -2 * wide
        ue(UInt32(code))
    }

    /// Writes `rbsp_trailing_bits()` (§7.3.2.11): a 1, then zeros to the byte boundary.
    mutating func rbspTrailingBits() {
        flag(true)
        alignWithZeros()
    }

    /// Writes zero bits up to the next byte boundary.
    mutating func alignWithZeros() {
        let pad = (8 - bitCount & 7) & 7
        writeBits(0, count: pad)
    }

    /// Appends whole bytes; the writer must be byte aligned.
    /// - Parameter data: the bytes to append.
    mutating func writeBytes<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 {
        precondition(isByteAligned, "writeBytes needs a byte-aligned writer")
        for byte in data {
            bytes.append(byte)
            bitCount += 8
        }
    }
}
