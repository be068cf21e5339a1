import Bitstream

/// Range-checked reads that return `Int`, and the end-of-RBSP check, for the HEVC parsers.
extension BitReader {
    /// Reads the end of an RBSP: checks that nothing but `rbsp_trailing_bits()` (§7.3.2.11) remains,
    /// then reads them.
    /// - Throws: ``SyntaxError`` naming `rbsp_trailing_bits` if data is left or the bits are wrong.
    mutating func finishRBSP() throws(SyntaxError) {
        if hasMoreRBSPData() {
            throw SyntaxError(field: "rbsp_trailing_bits", bitOffset: bitPosition,
                              reason: .invalid("unexpected data before the rbsp_stop_one_bit"))
        }
        try rbspTrailingBits()
    }

    /// Reads `u(n)` as an `Int` with a range check.
    /// - Parameters:
    ///   - count: the number of bits, 0…32.
    ///   - field: the syntax element's name.
    ///   - range: the allowed values.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data or a value outside `range`.
    mutating func uInt(_ count: Int, _ field: StaticString, range: ClosedRange<Int>) throws(SyntaxError) -> Int {
        Int(try u(count, field, allowed: UInt32(range.lowerBound)...UInt32(range.upperBound)))
    }

    /// Reads `ue(v)` as an `Int` with a range check.
    /// - Parameters:
    ///   - field: the syntax element's name.
    ///   - range: the allowed values (the lower bound may be above 0).
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code or a value outside `range`.
    mutating func ueInt(_ field: StaticString, range: ClosedRange<Int>) throws(SyntaxError) -> Int {
        let start = bitPosition
        let value = Int(try ue(field))
        guard range.contains(value) else {
            throw SyntaxError(field: "\(field)", bitOffset: start,
                              reason: .outOfRange(value: Int64(value),
                                                  allowed: Int64(range.lowerBound)...Int64(range.upperBound)))
        }
        return value
    }

    /// Reads `se(v)` as an `Int` with a range check.
    /// - Parameters:
    ///   - field: the syntax element's name.
    ///   - range: the allowed values.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code or a value outside `range`.
    mutating func seInt(_ field: StaticString, range: ClosedRange<Int>) throws(SyntaxError) -> Int {
        Int(try se(field, range: Int32(clamping: range.lowerBound)...Int32(clamping: range.upperBound)))
    }
}
