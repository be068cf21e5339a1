import Bitstream

/// Internal helpers that turn a whole NAL unit into its header and RBSP, wrap an RBSP parse into an
/// ``H264Error``, and build a NAL unit back.
enum H264RBSP {
    /// Splits a NAL unit into its header and RBSP, checking the type and emulation prevention.
    /// - Parameters:
    ///   - nalUnit: the NAL unit without start code.
    ///   - expected: the type the caller reads.
    /// - Returns: the parsed header and the RBSP (emulation-prevention bytes removed).
    /// - Throws: ``H264Error`` for a bad header, a wrong type or a missing emulation-prevention byte.
    static func split<Bytes: Collection>(
        _ nalUnit: Bytes, expecting expected: H264NALUnitType
    ) throws(H264Error) -> (header: H264NALUnitHeader, rbsp: [UInt8]) where Bytes.Element == UInt8 {
        let header = try H264NALUnitHeader(parsing: nalUnit)
        guard header.nalUnitType == expected else {
            throw .unexpectedNALUnitType(header.nalUnitType, expected: expected)
        }
        return (header, try rbsp(of: nalUnit, header: header))
    }

    /// Removes the header and the emulation-prevention bytes of a NAL unit.
    /// - Parameters:
    ///   - nalUnit: the NAL unit without start code.
    ///   - header: its parsed header.
    ///   - limit: at most this many payload bytes are converted (the rest is ignored).
    /// - Returns: the RBSP.
    /// - Throws: ``H264Error/missingEmulationPreventionByte(nalUnitType:byteOffset:)``.
    static func rbsp<Bytes: Collection>(
        of nalUnit: Bytes, header: H264NALUnitHeader, limit: Int = .max
    ) throws(H264Error) -> [UInt8] where Bytes.Element == UInt8 {
        do {
            return try EmulationPrevention.checkedRBSP(fromEBSP: nalUnit.dropFirst(header.length).prefix(limit))
        } catch {
            switch error {
            case let .missingEmulationPreventionByte(offset):
                throw .missingEmulationPreventionByte(nalUnitType: header.nalUnitType, byteOffset: offset + header.length)
            }
        }
    }

    /// Removes the header and the emulation-prevention bytes of a NAL unit into a reused buffer.
    /// - Parameters:
    ///   - nalUnit: the NAL unit without start code.
    ///   - header: its parsed header.
    ///   - limit: at most this many payload bytes are converted (the rest is ignored).
    ///   - buffer: receives the RBSP, replacing what it held; its storage is reused when it can be.
    /// - Throws: ``H264Error/missingEmulationPreventionByte(nalUnitType:byteOffset:)``.
    static func rbsp<Bytes: Collection>(
        of nalUnit: Bytes, header: H264NALUnitHeader, limit: Int = .max, into buffer: inout [UInt8]
    ) throws(H264Error) where Bytes.Element == UInt8 {
        do {
            try EmulationPrevention.checkedRBSP(fromEBSP: nalUnit.dropFirst(header.length), limit: limit, into: &buffer)
        } catch {
            switch error {
            case let .missingEmulationPreventionByte(offset):
                throw .missingEmulationPreventionByte(nalUnitType: header.nalUnitType, byteOffset: offset + header.length)
            }
        }
    }

    /// Runs an RBSP parse and wraps its ``SyntaxError`` with the NAL unit type.
    /// - Parameters:
    ///   - type: the NAL unit type being read, for the error.
    ///   - body: the parse.
    /// - Returns: what `body` returns.
    /// - Throws: ``H264Error/syntax(_:nalUnitType:)``.
    static func parse<T>(_ type: H264NALUnitType, _ body: () throws(SyntaxError) -> T) throws(H264Error) -> T {
        do {
            return try body()
        } catch {
            throw .syntax(error, nalUnitType: type)
        }
    }

    /// Builds a NAL unit: the header byte followed by the EBSP of `rbsp`.
    /// - Parameters:
    ///   - header: the NAL unit header (1-byte types only).
    ///   - rbsp: the RBSP.
    /// - Returns: the NAL unit bytes, without start code.
    static func nalUnit(header: H264NALUnitHeader, rbsp: [UInt8]) -> [UInt8] {
        var bytes = [header.byte]
        bytes.append(contentsOf: EmulationPrevention.ebsp(fromRBSP: rbsp))
        return bytes
    }
}

extension BitReader {
    /// Reads the end of an RBSP: checks that nothing but `rbsp_trailing_bits()` (§7.3.2.11) remains,
    /// then reads them. Zero bytes after the trailing bits are accepted (and not kept).
    /// - Throws: ``SyntaxError`` naming `rbsp_trailing_bits` if data is left or the bits are wrong.
    mutating func finishRBSP() throws(SyntaxError) {
        if hasMoreRBSPData() {
            throw SyntaxError(field: "rbsp_trailing_bits", bitOffset: bitPosition,
                              reason: .invalid("unexpected data after the last syntax element"))
        }
        try rbspTrailingBits()
    }

    /// Reads `u(1)` and checks it is 1 (for elements the specification fixes to 1).
    /// - Parameter field: the syntax element's name.
    /// - Throws: ``SyntaxError`` on end of data or a 0.
    mutating func one(_ field: StaticString) throws(SyntaxError) {
        let start = bitPosition
        guard try flag(field) else {
            throw SyntaxError(field: "\(field)", bitOffset: start, reason: .invalid("must be 1"))
        }
    }

    /// Reads `u(n)` into a `UInt8` (n ≤ 8) with an optional range check.
    /// - Parameters:
    ///   - count: 0…8.
    ///   - field: the syntax element's name.
    ///   - allowed: the values the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data or a value outside `allowed`.
    mutating func u8(_ count: Int, _ field: StaticString, allowed: ClosedRange<UInt32> = 0...255) throws(SyntaxError) -> UInt8 {
        UInt8(truncatingIfNeeded: try u(count, field, allowed: allowed))
    }

    /// Reads `ue(v)` and checks it lies in `range` (whose lower bound may be above 0).
    /// - Parameters:
    ///   - field: the syntax element's name.
    ///   - range: the values the specification permits.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` on end of data, an overlong code or a value outside `range`.
    mutating func ue(_ field: StaticString, range: ClosedRange<UInt32>) throws(SyntaxError) -> UInt32 {
        let start = bitPosition
        let value = try ue(field, max: range.upperBound)
        guard value >= range.lowerBound else {
            throw SyntaxError(field: "\(field)", bitOffset: start,
                              reason: .outOfRange(value: Int64(value),
                                                  allowed: Int64(range.lowerBound)...Int64(range.upperBound)))
        }
        return value
    }
}
