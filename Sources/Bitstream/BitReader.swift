/// Reads bits most-significant first from an RBSP, as the syntax tables of ITU-T H.264 §7.2 and
/// ITU-T H.265 §7.2 describe.
///
/// Two families of reads:
/// - `readBits(_:)`, `readUnsignedExpGolomb()`, `readSignedExpGolomb()` move the position and return
///   `nil` past the end (they never trap);
/// - the descriptor forms `u(_:_:)`, `u64(_:_:)`, `flag(_:)`, `ue(_:max:)`, `se(_:range:)` name the
///   syntax element and throw a ``SyntaxError`` that says which field failed and where, with optional
///   range checks.
///
/// `peekBits(_:)` reads without moving. The reader works on RBSP bytes: remove emulation-prevention
/// bytes first (``EmulationPrevention/rbsp(fromEBSP:)``).
///
/// The reader borrows its input as a ``ByteView`` (an array or a view is never copied) and reads through
/// a 64-bit cache: one unaligned big-endian load of the 8 bytes at the position gives at least 57 bits,
/// so `u(n)` for n ≤ 57 is a load and two shifts, and `ue(v)` is a load, a leading-zero count and a shift.
public struct BitReader: Sendable {
    /// The bytes being read (shares the input's storage).
    public let view: ByteView
    /// The position of the next bit, counted from the first bit of ``view``.
    @usableFromInline var position: Int

    /// Creates a reader positioned at the first bit of `view`, reading its memory in place.
    /// - Parameter view: RBSP bytes (emulation prevention already removed).
    @inlinable
    public init(_ view: ByteView) {
        self.view = view
        self.position = 0
    }

    /// Creates a reader positioned at the first bit of `bytes`, sharing the array's buffer (no copy).
    /// - Parameter bytes: RBSP bytes (emulation prevention already removed).
    public init(_ bytes: [UInt8]) {
        self.init(ByteView(bytes))
    }

    /// Creates a reader over an array slice, sharing its buffer (no copy).
    /// - Parameter bytes: RBSP bytes (emulation prevention already removed).
    public init(_ bytes: ArraySlice<UInt8>) {
        self.init(ByteView(bytes))
    }

    /// Creates a reader over a copy of any byte sequence.
    /// - Parameter bytes: RBSP bytes (emulation prevention already removed).
    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(ByteView(copying: bytes))
    }

    /// The bytes being read, as an array (the input array itself when the reader was made from one,
    /// otherwise a copy).
    public var bytes: [UInt8] {
        if case let .array(array) = view.owner, array.count == view.count { return array }
        return Array(view)
    }

    /// The position of the next bit to read, counted from the first bit of ``bytes``.
    @inlinable public var bitPosition: Int { position }

    /// The total number of bits in the input.
    @inlinable public var bitCount: Int { view.count &* 8 }

    /// The number of bits not yet read.
    @inlinable public var bitsRemaining: Int { bitCount &- position }

    /// Whether the position is on a byte boundary (`byte_aligned()` of §7.2).
    @inlinable public var isByteAligned: Bool { position & 7 == 0 }

    /// The 64 bits that start at bit `at`, first bit most significant; bits past the end are zero.
    /// At least `64 − at % 8` (57 or more) of them are input bits (fewer near the end).
    /// - Parameter at: a bit position inside the input.
    @inlinable @inline(__always)
    func cache(at bit: Int) -> UInt64 {
        let byte = bit &>> 3
        let base = view.base.unsafelyUnwrapped
        let word: UInt64
        if byte &+ 8 <= view.count {
            word = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: byte, as: UInt64.self))
        } else {
            word = tailCache(at: byte)
        }
        return word &<< UInt64(truncatingIfNeeded: bit & 7)
    }

    /// The last fewer-than-8 bytes from `byte` on, left-aligned and zero-padded.
    @usableFromInline
    func tailCache(at byte: Int) -> UInt64 {
        guard let base = view.base else { return 0 }
        var word: UInt64 = 0
        var shift: UInt64 = 56
        var index = byte
        while index < view.count {
            word |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) &<< shift
            shift &-= 8
            index &+= 1
        }
        return word
    }

    /// Returns the next `count` bits without moving, or `nil` if fewer remain or `count` is not 0...64.
    /// - Parameter count: 0 through 64.
    /// - Returns: the bits as an unsigned integer, first bit most significant.
    @inlinable @inline(__always)
    public func peekBits(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 64, count <= bitsRemaining else { return nil }
        return bits(count, at: position)
    }

    /// `count` bits at `at`, which the caller has checked are all inside the input.
    @inlinable @inline(__always)
    func bits(_ count: Int, at bit: Int) -> UInt64 {
        if count == 0 { return 0 }
        if count <= 57 {
            return cache(at: bit) &>> UInt64(truncatingIfNeeded: 64 &- count)
        }
        let high = cache(at: bit) &>> 32
        let lowCount = count &- 32
        let low = cache(at: bit &+ 32) &>> UInt64(truncatingIfNeeded: 64 &- lowCount)
        return high &<< UInt64(truncatingIfNeeded: lowCount) | low
    }

    /// Reads `count` bits and moves past them, or returns `nil` (without moving) if fewer remain.
    /// - Parameter count: 0 through 64.
    /// - Returns: the bits as an unsigned integer, first bit most significant.
    @inlinable @inline(__always)
    public mutating func readBits(_ count: Int) -> UInt64? {
        guard let value = peekBits(count) else { return nil }
        position &+= count
        return value
    }

    /// Reads an unsigned Exp-Golomb code `ue(v)` (§9.1), or returns `nil` (without moving) at the end
    /// of data or when the code has more than 32 leading zeros.
    /// - Returns: the decoded value, 0 through 2^33 − 2.
    @inlinable @inline(__always)
    public mutating func readUnsignedExpGolomb() -> UInt64? {
        let remaining = bitsRemaining
        guard remaining > 0 else { return nil }
        let word = cache(at: position)
        let zeros = word.leadingZeroBitCount
        if zeros <= 28 {
            // The whole code (zeros, the 1, as many suffix bits) is inside the 57 bits the cache holds.
            let length = zeros &* 2 &+ 1
            guard length <= remaining else { return nil }
            position &+= length
            return (word &>> UInt64(truncatingIfNeeded: 64 &- length)) &- 1
        }
        return readLongUnsignedExpGolomb()
    }

    /// `ue(v)` with 29 or more leading zeros: longer than one cache.
    @usableFromInline
    mutating func readLongUnsignedExpGolomb() -> UInt64? {
        guard let zeros = leadingZerosOfCode(), zeros <= 32 else { return nil }
        let length = zeros &* 2 &+ 1
        guard length <= bitsRemaining else { return nil }
        let value = bits(zeros &+ 1, at: position &+ zeros) &- 1
        position &+= length
        return value
    }

    /// The number of zero bits before the next 1, counting at most 33; `nil` if the input ends first.
    @usableFromInline
    func leadingZerosOfCode() -> Int? {
        let probe = min(33, bitsRemaining)
        guard probe > 0 else { return nil }
        let value = bits(probe, at: position)
        if value == 0 { return probe == 33 ? 33 : nil }
        return value.leadingZeroBitCount &- (64 &- probe)
    }

    /// Reads a signed Exp-Golomb code `se(v)` (§9.1.1), or returns `nil` (without moving) on failure.
    /// - Returns: the decoded value: codes 1, 2, 3, 4 … map to 1, −1, 2, −2 ….
    @inlinable @inline(__always)
    public mutating func readSignedExpGolomb() -> Int64? {
        guard let code = readUnsignedExpGolomb() else { return nil }
        let magnitude = Int64(truncatingIfNeeded: (code &+ 1) &>> 1)
        return code & 1 == 1 ? magnitude : 0 &- magnitude
    }

    /// Moves the position forward by `count` bits, or returns `false` (without moving) if fewer remain.
    /// - Parameter count: the number of bits to skip.
    /// - Returns: whether the bits were there.
    @inlinable @discardableResult
    public mutating func skipBits(_ count: Int) -> Bool {
        guard count >= 0, count <= bitsRemaining else { return false }
        position &+= count
        return true
    }

    /// Moves to the next byte boundary (no-op when already aligned).
    @inlinable
    public mutating func alignToByte() {
        position = min(bitCount, (position &+ 7) & ~7)
    }

    /// `more_rbsp_data()` (§7.2): whether anything but the `rbsp_trailing_bits` remains.
    ///
    /// Trailing zero bytes after the stop bit (for example `cabac_zero_word`s) are ignored.
    /// - Returns: `true` if a syntax element follows before the final `rbsp_stop_one_bit`.
    public func hasMoreRBSPData() -> Bool {
        guard let lastOne = positionOfLastOneBit() else { return false }
        return position < lastOne
    }

    /// The bit position of the last bit equal to 1 in the input (the `rbsp_stop_one_bit`), if any.
    /// - Returns: the position, counted from the first bit of the input.
    public func positionOfLastOneBit() -> Int? {
        guard let base = view.base else { return nil }
        var index = view.count - 1
        while index >= 0 && base.load(fromByteOffset: index, as: UInt8.self) == 0 { index -= 1 }
        guard index >= 0 else { return nil }
        let byte = base.load(fromByteOffset: index, as: UInt8.self)
        return index * 8 + 7 - byte.trailingZeroBitCount
    }
}
