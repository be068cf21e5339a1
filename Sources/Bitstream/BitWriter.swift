/// Writes bits most-significant first into an RBSP, the mirror of ``BitReader``.
///
/// The descriptor forms `u(_:_:)`, `u64(_:_:)`, `flag(_:)`, `ue(_:)`, `se(_:)` follow the syntax tables of
/// ITU-T H.264 §7.2 / H.265 §7.2, so a writer reads like the table it implements. Add emulation
/// prevention with ``EmulationPrevention/ebsp(fromRBSP:)`` before putting the result in a NAL unit.
///
/// Bits gather in a 64-bit cache that goes to the byte array 8 bytes at a time, so a write is a shift
/// and an or; `ue(v)` is one write of `2·len − 1` bits (the leading zeros come from the value's width).
public struct BitWriter: Sendable {
    /// Whole bytes already written out of the cache: the first `byteCount` bytes; the rest is zeroed room.
    @usableFromInline var storage: [UInt8] = []
    /// How many bytes of `storage` are written.
    @usableFromInline var byteCount = 0
    /// The last `cachedBitCount` bits written, right-aligned (higher bits are zero).
    @usableFromInline var cache: UInt64 = 0
    /// How many bits `cache` holds: 0 through 63.
    @usableFromInline var cachedBitCount: Int = 0

    /// Creates an empty writer.
    public init() {}

    /// Creates an empty writer with room for `byteCount` bytes before it reallocates.
    /// - Parameter byteCount: the expected output size.
    public init(reservingCapacity byteCount: Int) {
        storage = [UInt8](repeating: 0, count: byteCount)
    }

    /// The bytes written so far; a partial last byte is padded with zero bits.
    ///
    /// Each read makes a copy of what was written: read it once when done.
    public var bytes: [UInt8] {
        var output = Array(storage[0..<byteCount])
        guard cachedBitCount > 0 else { return output }
        let aligned = cache &<< UInt64(truncatingIfNeeded: 64 &- cachedBitCount)
        for index in 0..<((cachedBitCount &+ 7) &>> 3) {
            output.append(UInt8(truncatingIfNeeded: aligned &>> UInt64(truncatingIfNeeded: 56 &- 8 &* index)))
        }
        return output
    }

    /// The number of bits written.
    @inlinable public var bitCount: Int { byteCount &* 8 &+ cachedBitCount }

    /// Whether the next bit starts a new byte.
    @inlinable public var isByteAligned: Bool { cachedBitCount & 7 == 0 }

    /// Appends the low `count` bits of `value`, most significant first.
    /// - Parameters:
    ///   - value: the bits; bits above `count` are ignored.
    ///   - count: 0 through 64.
    @inlinable
    public mutating func writeBits(_ value: UInt64, count: Int) {
        precondition(count >= 0 && count <= 64, "writeBits writes 0...64 bits")
        let bits = count == 64 ? value : value & ((1 &<< UInt64(truncatingIfNeeded: count)) &- 1)
        let free = 64 &- cachedBitCount
        if count < free {
            cache = cache &<< UInt64(truncatingIfNeeded: count) | bits
            cachedBitCount &+= count
            return
        }
        // The cache fills up: write out 64 bits, keep the rest of `value`.
        let rest = count &- free
        let full = (free == 64 ? 0 : cache &<< UInt64(truncatingIfNeeded: free)) | bits &>> UInt64(truncatingIfNeeded: rest)
        flush(full)
        cache = rest == 0 ? 0 : bits & ((1 &<< UInt64(truncatingIfNeeded: rest)) &- 1)
        cachedBitCount = rest
    }

    /// Appends 64 bits to the byte array, big-endian.
    @usableFromInline
    mutating func flush(_ word: UInt64) {
        if byteCount &+ 8 > storage.count { grow(by: 8) }
        let offset = byteCount
        storage.withUnsafeMutableBytes { $0.storeBytes(of: word.bigEndian, toByteOffset: offset, as: UInt64.self) }
        byteCount &+= 8
    }

    /// Doubles the room (at least `count` more bytes), zero-filled.
    @usableFromInline
    mutating func grow(by count: Int) {
        storage.append(contentsOf: repeatElement(0, count: Swift.max(count, storage.count, 64)))
    }

    /// Writes `u(n)`.
    /// - Parameters:
    ///   - count: the number of bits, 0 through 32.
    ///   - value: the value; bits above `count` are ignored.
    @inlinable
    public mutating func u(_ count: Int, _ value: UInt32) {
        writeBits(UInt64(value), count: count)
    }

    /// Writes `u(n)` for fields of up to 64 bits.
    /// - Parameters:
    ///   - count: the number of bits, 0 through 64.
    ///   - value: the value; bits above `count` are ignored.
    @inlinable
    public mutating func u64(_ count: Int, _ value: UInt64) {
        writeBits(value, count: count)
    }

    /// Writes a flag as `u(1)`.
    /// - Parameter value: `true` writes 1.
    @inlinable
    public mutating func flag(_ value: Bool) {
        writeBits(value ? 1 : 0, count: 1)
    }

    /// Writes an unsigned Exp-Golomb code `ue(v)` (§9.1).
    /// - Parameter value: 0 through 2^32 − 2 (2^32 − 1 is written too, as a 65-bit code).
    @inlinable
    public mutating func ue(_ value: UInt32) {
        writeExpGolomb(UInt64(value))
    }

    /// Writes a signed Exp-Golomb code `se(v)` (§9.1.1).
    /// - Parameter value: the value; positive values map to odd codes.
    @inlinable
    public mutating func se(_ value: Int32) {
        let wide = Int64(value)
        writeExpGolomb(UInt64(truncatingIfNeeded: wide > 0 ? 2 &* wide &- 1 : 0 &- 2 &* wide))
    }

    /// Writes the Exp-Golomb code of `codeNum`: `len − 1` zeros, then `codeNum + 1` in `len` bits.
    @inlinable @inline(__always)
    mutating func writeExpGolomb(_ codeNum: UInt64) {
        let code = codeNum &+ 1
        let length = 64 &- code.leadingZeroBitCount
        let total = 2 &* length &- 1
        if total <= 64 {
            writeBits(code, count: total)  // the high `length − 1` of the `total` bits are the zeros
        } else {
            writeBits(0, count: length &- 1)
            writeBits(code, count: length)
        }
    }

    /// Writes `rbsp_trailing_bits()` (§7.3.2.11): a 1, then zeros to the byte boundary.
    @inlinable
    public mutating func rbspTrailingBits() {
        flag(true)
        alignWithZeros()
    }

    /// Writes zero bits up to the next byte boundary.
    @inlinable
    public mutating func alignWithZeros() {
        writeBits(0, count: (8 &- cachedBitCount & 7) & 7)
    }

    /// Appends whole bytes; the writer must be byte aligned.
    /// - Parameter data: the bytes to append.
    public mutating func writeBytes<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 {
        precondition(isByteAligned, "writeBytes needs a byte-aligned writer")
        storage.removeSubrange(byteCount...)
        while cachedBitCount > 0 {
            cachedBitCount &-= 8
            storage.append(UInt8(truncatingIfNeeded: cache &>> UInt64(truncatingIfNeeded: cachedBitCount)))
        }
        cache = 0
        storage.append(contentsOf: data)
        byteCount = storage.count
    }
}
