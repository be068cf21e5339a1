// The BitReader of Bitstream before the 64-bit cache (commit fb8a954), kept verbatim except for its name and
// access level, so the benchmark times "before" and "after" in one process. Not used anywhere else.
import Bitstream

/// Reads bits most-significant first from an RBSP, as the syntax tables of ITU-T H.264 §7.2 and
/// ITU-T H.265 §7.2 describe.
///
/// Two families of reads:
/// - `readBits(_:)`, `readUnsignedExpGolomb()`, `readSignedExpGolomb()` move the position and return
///   `nil` past the end (they never trap);
/// - the descriptor forms `u(_:_:)`, `flag(_:)`, `ue(_:max:)`, `se(_:range:)` name the syntax element
///   and throw a ``SyntaxError`` that says which field failed and where, with optional range checks.
///
/// `peekBits(_:)` reads without moving. The reader works on RBSP bytes: remove emulation-prevention
/// bytes first (``EmulationPrevention/rbsp(fromEBSP:)``).
struct LegacyBitReader: Sendable {
    /// The bytes being read.
    let bytes: [UInt8]
    /// The position of the next bit to read, counted from the first bit of `bytes`.
    private(set) var bitPosition: Int

    /// Creates a reader positioned at the first bit of `bytes`.
    /// - Parameter bytes: RBSP bytes (emulation prevention already removed).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.bitPosition = 0
    }

    /// Creates a reader over a copy of any byte collection.
    /// - Parameter bytes: RBSP bytes (emulation prevention already removed).
    init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(Array(bytes))
    }

    /// The total number of bits in the input.
    var bitCount: Int { bytes.count &* 8 }

    /// The number of bits not yet read.
    var bitsRemaining: Int { bitCount &- bitPosition }

    /// Whether the position is on a byte boundary (`byte_aligned()` of §7.2).
    var isByteAligned: Bool { bitPosition & 7 == 0 }

    /// Returns the next `count` bits without moving, or `nil` if fewer remain.
    /// - Parameter count: 0 through 64.
    /// - Returns: the bits as an unsigned integer, first bit most significant.
    func peekBits(_ count: Int) -> UInt64? {
        precondition(count >= 0 && count <= 64, "peekBits reads 0...64 bits")
        guard count <= bitsRemaining else { return nil }
        var value: UInt64 = 0
        var position = bitPosition
        var left = count
        while left > 0 {
            let byte = bytes[position >> 3]
            let bitInByte = position & 7
            let available = 8 - bitInByte
            let take = min(available, left)
            let shifted = (UInt64(byte) >> UInt64(available - take)) & ((1 << UInt64(take)) - 1)
            value = (value << UInt64(take)) | shifted
            position += take
            left -= take
        }
        return value
    }

    /// Reads `count` bits and moves past them, or returns `nil` (without moving) if fewer remain.
    /// - Parameter count: 0 through 64.
    /// - Returns: the bits as an unsigned integer, first bit most significant.
    mutating func readBits(_ count: Int) -> UInt64? {
        guard let value = peekBits(count) else { return nil }
        bitPosition += count
        return value
    }

    /// Reads an unsigned Exp-Golomb code `ue(v)` (§9.1), or returns `nil` (without moving) at the end
    /// of data or when the code has more than 32 leading zeros.
    /// - Returns: the decoded value, 0 through 2^32 − 2.
    mutating func readUnsignedExpGolomb() -> UInt64? {
        let start = bitPosition
        var leadingZeros = 0
        while true {
            guard let bit = readBits(1) else { bitPosition = start; return nil }
            if bit == 1 { break }
            leadingZeros += 1
            if leadingZeros > 32 { bitPosition = start; return nil }
        }
        guard let suffix = readBits(leadingZeros) else { bitPosition = start; return nil }
        return (UInt64(1) << UInt64(leadingZeros)) - 1 + suffix
    }

    /// Reads a signed Exp-Golomb code `se(v)` (§9.1.1), or returns `nil` (without moving) on failure.
    /// - Returns: the decoded value: codes 1, 2, 3, 4 … map to 1, −1, 2, −2 ….
    mutating func readSignedExpGolomb() -> Int64? {
        guard let code = readUnsignedExpGolomb() else { return nil }
        let magnitude = Int64((code + 1) / 2)
        return code & 1 == 1 ? magnitude : -magnitude
    }

    /// Moves the position forward by `count` bits, or returns `false` (without moving) if fewer remain.
    /// - Parameter count: the number of bits to skip.
    /// - Returns: whether the bits were there.
    @discardableResult
    mutating func skipBits(_ count: Int) -> Bool {
        guard count >= 0, count <= bitsRemaining else { return false }
        bitPosition += count
        return true
    }

    /// Moves to the next byte boundary (no-op when already aligned).
    mutating func alignToByte() {
        bitPosition = min(bitCount, (bitPosition + 7) & ~7)
    }

    /// `more_rbsp_data()` (§7.2): whether anything but the `rbsp_trailing_bits` remains.
    ///
    /// Trailing zero bytes after the stop bit (for example `cabac_zero_word`s) are ignored.
    /// - Returns: `true` if a syntax element follows before the final `rbsp_stop_one_bit`.
    func hasMoreRBSPData() -> Bool {
        guard let lastOne = positionOfLastOneBit() else { return false }
        return bitPosition < lastOne
    }

    /// The bit position of the last bit equal to 1 in the input (the `rbsp_stop_one_bit`), if any.
    func positionOfLastOneBit() -> Int? {
        var index = bytes.count - 1
        while index >= 0 && bytes[index] == 0 { index -= 1 }
        guard index >= 0 else { return nil }
        let byte = bytes[index]
        return index * 8 + 7 - byte.trailingZeroBitCount
    }

    // MARK: - Descriptor forms (§7.2): named fields, typed errors

    /// Reads `u(n)`: an unsigned integer of `count` bits.
    /// - Parameters:
    ///   - count: 0 through 32.
    ///   - field: the syntax element's name, used in the error.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` if fewer bits remain.
    mutating func u(_ count: Int, _ field: StaticString) throws(SyntaxError) -> UInt32 {
        guard let value = readBits(count) else {
            throw SyntaxError(field: "\(field)", bitOffset: bitPosition, reason: .endOfData)
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Reads `u(n)` and checks it lies in `allowed`.
    /// - Parameters:
    ///   - count: 0 through 32.
    ///   - field: the syntax element's name, used in the error.
    ///   - allowed: the range the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data or a value outside `allowed`.
    mutating func u(_ count: Int, _ field: StaticString, allowed: ClosedRange<UInt32>) throws(SyntaxError) -> UInt32 {
        let start = bitPosition
        let value = try u(count, field)
        guard allowed.contains(value) else {
            throw SyntaxError(field: "\(field)", bitOffset: start,
                              reason: .outOfRange(value: Int64(value), allowed: Int64(allowed.lowerBound)...Int64(allowed.upperBound)))
        }
        return value
    }

    /// Reads `u(1)` as a flag.
    /// - Parameter field: the syntax element's name, used in the error.
    /// - Returns: `true` for 1.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` at the end of the data.
    mutating func flag(_ field: StaticString) throws(SyntaxError) -> Bool {
        try u(1, field) == 1
    }

    /// Reads `ue(v)` and checks it is at most `max`.
    /// - Parameters:
    ///   - field: the syntax element's name, used in the error.
    ///   - max: the largest value the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code, or a value above `max`.
    mutating func ue(_ field: StaticString, max: UInt32 = UInt32.max - 1) throws(SyntaxError) -> UInt32 {
        let start = bitPosition
        guard let value = readUnsignedExpGolomb() else {
            throw SyntaxError(field: "\(field)", bitOffset: start, reason: expGolombFailureReason(at: start))
        }
        guard value <= UInt64(max) else {
            throw SyntaxError(field: "\(field)", bitOffset: start,
                              reason: .outOfRange(value: Int64(value), allowed: 0...Int64(max)))
        }
        return UInt32(value)
    }

    /// Reads `se(v)` and checks it lies in `range`.
    /// - Parameters:
    ///   - field: the syntax element's name, used in the error.
    ///   - range: the values the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code, or a value outside `range`.
    mutating func se(_ field: StaticString, range: ClosedRange<Int32> = Int32.min...Int32.max) throws(SyntaxError) -> Int32 {
        let start = bitPosition
        guard let value = readSignedExpGolomb() else {
            throw SyntaxError(field: "\(field)", bitOffset: start, reason: expGolombFailureReason(at: start))
        }
        guard value >= Int64(range.lowerBound), value <= Int64(range.upperBound) else {
            throw SyntaxError(field: "\(field)", bitOffset: start,
                              reason: .outOfRange(value: value, allowed: Int64(range.lowerBound)...Int64(range.upperBound)))
        }
        return Int32(value)
    }

    /// Skips `count` bits that belong to a named element.
    /// - Parameters:
    ///   - count: the number of bits.
    ///   - field: the syntax element's name, used in the error.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` if fewer bits remain.
    mutating func skip(_ count: Int, _ field: StaticString) throws(SyntaxError) {
        guard skipBits(count) else {
            throw SyntaxError(field: "\(field)", bitOffset: bitPosition, reason: .endOfData)
        }
    }

    /// Reads `rbsp_trailing_bits()` (§7.3.2.11): a stop bit equal to 1, then zero bits to the byte boundary.
    /// - Throws: ``SyntaxError`` if the stop bit is missing or the alignment bits are not zero.
    mutating func rbspTrailingBits() throws(SyntaxError) {
        let start = bitPosition
        guard try flag("rbsp_stop_one_bit") else {
            throw SyntaxError(field: "rbsp_stop_one_bit", bitOffset: start, reason: .invalid("expected 1"))
        }
        while !isByteAligned {
            let at = bitPosition
            if try flag("rbsp_alignment_zero_bit") {
                throw SyntaxError(field: "rbsp_alignment_zero_bit", bitOffset: at, reason: .invalid("expected 0"))
            }
        }
    }

    private func expGolombFailureReason(at start: Int) -> SyntaxError.Reason {
        var probe = self
        var zeros = 0
        while let bit = probe.readBits(1), bit == 0 { zeros += 1 }
        return zeros > 32 ? .expGolombOverflow : .endOfData
    }
}
