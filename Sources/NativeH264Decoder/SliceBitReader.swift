/// A bit reader over the RBSP of one slice for the macroblock layer (§7.3.5, §9.1, §9.2): the bytes
/// are held in memory the decoder owns with eight zero bytes of padding after them, so that a read
/// never leaves the buffer; reading past the end yields zeros and ``isOverrun`` tells it.
struct SliceBitReader {
    /// The RBSP bytes (with padding).
    let base: UnsafePointer<UInt8>
    /// Bits of RBSP data (without padding).
    let bitCount: Int
    /// The next bit to read.
    var position: Int

    /// Creates a reader at a bit position.
    /// - Parameters:
    ///   - base: the RBSP, followed by at least 8 readable zero bytes.
    ///   - bitCount: the RBSP's bits.
    ///   - position: the first bit to read.
    init(base: UnsafePointer<UInt8>, bitCount: Int, position: Int) {
        self.base = base
        self.bitCount = bitCount
        self.position = position
    }

    /// Whether reads went past the end of the data.
    @inline(__always) var isOverrun: Bool { position > bitCount }

    /// The next 32 bits, most significant first, without moving (zeros past the end).
    @inline(__always) func peek32() -> UInt32 {
        let byte = position >> 3
        if byte > bitCount >> 3 { return 0 }
        let p = base + byte
        let word = UInt64(p[0]) << 56 | UInt64(p[1]) << 48 | UInt64(p[2]) << 40 | UInt64(p[3]) << 32
            | UInt64(p[4]) << 24 | UInt64(p[5]) << 16 | UInt64(p[6]) << 8 | UInt64(p[7])
        return UInt32(truncatingIfNeeded: (word << UInt64(position & 7)) >> 32)
    }

    /// Reads `count` bits, 0…25 (u(n)).
    @inline(__always) mutating func bits(_ count: Int) -> UInt32 {
        if count == 0 { return 0 }
        let value = peek32() >> UInt32(32 - count)
        position &+= count
        return value
    }

    /// Reads one bit.
    @inline(__always) mutating func bit() -> Bool { bits(1) != 0 }

    /// Skips bits.
    @inline(__always) mutating func skip(_ count: Int) { position &+= count }

    /// ue(v) (§9.1), at most 32 leading zeros; a longer prefix reads as an overrun.
    @inline(__always) mutating func ue() throws(SliceDataError) -> UInt32 {
        let word = peek32()
        if word >= 0x0001_0000 {
            let zeros = word.leadingZeroBitCount
            position &+= 2 &* zeros &+ 1
            return (word >> UInt32(31 - 2 * zeros)) &- 1
        }
        var zeros = 0
        while !bit() {
            zeros &+= 1
            if zeros > 31 || isOverrun { throw SliceDataError(field: "exp-Golomb code longer than 32 bits") }
        }
        let suffix = zeros <= 16 ? UInt64(bits(zeros)) : (UInt64(bits(zeros - 16)) << 16 | UInt64(bits(16)))
        let value = (UInt64(1) << UInt64(zeros)) &- 1 &+ suffix
        guard value <= UInt64(UInt32.max - 1) else { throw SliceDataError(field: "exp-Golomb value beyond 32 bits") }
        return UInt32(value)
    }

    /// se(v) (§9.1.1).
    @inline(__always) mutating func se() throws(SliceDataError) -> Int32 {
        let k = Int64(try ue())
        return Int32(truncatingIfNeeded: (k & 1) == 1 ? (k + 1) >> 1 : -(k >> 1))
    }

    /// te(v) with the given largest value (§9.1): one inverted bit when it is 1, ue(v) otherwise.
    @inline(__always) mutating func te(max: Int) throws(SliceDataError) -> Int {
        if max == 1 { return bit() ? 0 : 1 }
        return Int(try ue())
    }

    /// Counts leading zero bits and the one after them (level_prefix, §9.2.2.1).
    @inline(__always) mutating func leadingZerosAndOne() throws(SliceDataError) -> Int {
        let word = peek32()
        if word != 0 {
            let zeros = word.leadingZeroBitCount
            position &+= zeros &+ 1
            return zeros
        }
        throw SliceDataError(field: "level_prefix longer than 31 bits")
    }
}
