// The descriptor forms of `BitReader` (§7.2 of H.264 and H.265): each read names its syntax element,
// and a failure throws a `SyntaxError` with the field's name, the bit where it starts, and why.
// The reads are inlinable; building an error is not (it stays out of the callers' hot paths).

extension BitReader {
    /// Reads `u(n)`: an unsigned integer of `count` bits.
    /// - Parameters:
    ///   - count: 0 through 32 (wider fields: ``u64(_:_:)``).
    ///   - field: the syntax element's name, used in the error.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` if fewer bits remain, or `.invalid` if `count`
    ///   is not 0...32 (a wider value would not fit the result).
    @inlinable @inline(__always)
    public mutating func u(_ count: Int, _ field: StaticString) throws(SyntaxError) -> UInt32 {
        guard count <= 32, let value = readBits(count) else { throw failure(field, count: count, limit: 32) }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Reads `u(n)` for fields of up to 64 bits (for example a 33-bit PCR base or a 64-bit timestamp).
    /// - Parameters:
    ///   - count: 0 through 64.
    ///   - field: the syntax element's name, used in the error.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` if fewer bits remain, or `.invalid` if `count`
    ///   is not 0...64.
    @inlinable
    public mutating func u64(_ count: Int, _ field: StaticString) throws(SyntaxError) -> UInt64 {
        guard let value = readBits(count) else { throw failure(field, count: count, limit: 64) }
        return value
    }

    /// Reads `u(n)` and checks it lies in `allowed`.
    /// - Parameters:
    ///   - count: 0 through 32.
    ///   - field: the syntax element's name, used in the error.
    ///   - allowed: the range the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data or a value outside `allowed`.
    @inlinable
    public mutating func u(_ count: Int, _ field: StaticString, allowed: ClosedRange<UInt32>) throws(SyntaxError) -> UInt32 {
        let start = position
        let value = try u(count, field)
        guard allowed.contains(value) else {
            throw Self.outOfRange(field, at: start, value: Int64(value),
                                  allowed: Int64(allowed.lowerBound)...Int64(allowed.upperBound))
        }
        return value
    }

    /// Reads `u(1)` as a flag.
    /// - Parameter field: the syntax element's name, used in the error.
    /// - Returns: `true` for 1.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` at the end of the data.
    @inlinable @inline(__always)
    public mutating func flag(_ field: StaticString) throws(SyntaxError) -> Bool {
        guard let bit = readBits(1) else { throw failure(field, count: 1, limit: 1) }
        return bit == 1
    }

    /// Reads `ue(v)` and checks it is at most `max`.
    /// - Parameters:
    ///   - field: the syntax element's name, used in the error.
    ///   - max: the largest value the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code, or a value above `max`.
    @inlinable @inline(__always)
    public mutating func ue(_ field: StaticString, max: UInt32 = UInt32.max - 1) throws(SyntaxError) -> UInt32 {
        let start = position
        guard let value = readUnsignedExpGolomb() else { throw expGolombFailure(field) }
        guard value <= UInt64(max) else {
            throw Self.outOfRange(field, at: start, value: Int64(value), allowed: 0...Int64(max))
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Reads `se(v)` and checks it lies in `range`.
    /// - Parameters:
    ///   - field: the syntax element's name, used in the error.
    ///   - range: the values the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code, or a value outside `range`.
    @inlinable @inline(__always)
    public mutating func se(_ field: StaticString, range: ClosedRange<Int32> = Int32.min...Int32.max) throws(SyntaxError) -> Int32 {
        let start = position
        guard let value = readSignedExpGolomb() else { throw expGolombFailure(field) }
        guard value >= Int64(range.lowerBound), value <= Int64(range.upperBound) else {
            throw Self.outOfRange(field, at: start, value: value,
                                  allowed: Int64(range.lowerBound)...Int64(range.upperBound))
        }
        return Int32(truncatingIfNeeded: value)
    }

    /// Skips `count` bits that belong to a named element.
    /// - Parameters:
    ///   - count: the number of bits.
    ///   - field: the syntax element's name, used in the error.
    /// - Throws: ``SyntaxError`` with reason `.endOfData` if fewer bits remain.
    @inlinable
    public mutating func skip(_ count: Int, _ field: StaticString) throws(SyntaxError) {
        guard skipBits(count) else { throw failure(field, count: Swift.max(count, 0), limit: .max) }
    }

    /// Reads `rbsp_trailing_bits()` (§7.3.2.11): a stop bit equal to 1, then zero bits to the byte boundary.
    /// - Throws: ``SyntaxError`` if the stop bit is missing or the alignment bits are not zero.
    public mutating func rbspTrailingBits() throws(SyntaxError) {
        let start = position
        guard try flag("rbsp_stop_one_bit") else {
            throw SyntaxError(field: "rbsp_stop_one_bit", bitOffset: start, reason: .invalid("expected 1"))
        }
        while !isByteAligned {
            let at = position
            if try flag("rbsp_alignment_zero_bit") {
                throw SyntaxError(field: "rbsp_alignment_zero_bit", bitOffset: at, reason: .invalid("expected 0"))
            }
        }
    }

    // MARK: - Errors (out of line)

    /// The error of a fixed-length read of `count` bits that failed at the current position.
    @usableFromInline
    func failure(_ field: StaticString, count: Int, limit: Int) -> SyntaxError {
        guard count >= 0, count <= limit else {
            return SyntaxError(field: "\(field)", bitOffset: position,
                               reason: .invalid("u(\(count)) is not a read of 0...\(limit) bits"))
        }
        return SyntaxError(field: "\(field)", bitOffset: position, reason: .endOfData)
    }

    /// The error of an Exp-Golomb read that failed at the current position: an overlong code or the end of data.
    @usableFromInline
    func expGolombFailure(_ field: StaticString) -> SyntaxError {
        let zeros = leadingZerosOfCode() ?? 0
        return SyntaxError(field: "\(field)", bitOffset: position,
                           reason: zeros > 32 ? .expGolombOverflow : .endOfData)
    }

    /// The error of a value outside the range the specification allows.
    @usableFromInline
    static func outOfRange(_ field: StaticString, at bit: Int, value: Int64, allowed: ClosedRange<Int64>) -> SyntaxError {
        SyntaxError(field: "\(field)", bitOffset: bit, reason: .outOfRange(value: value, allowed: allowed))
    }
}
