import Bitstream

/// Internal helpers that turn a whole NAL unit into its header and RBSP, and an RBSP parse into
/// an ``HEVCError``.
enum NALUnitPayload {
    /// Splits a NAL unit into its header and RBSP, checking the type and emulation prevention.
    /// - Parameters:
    ///   - nalUnit: the NAL unit without start code.
    ///   - expected: the types the caller reads.
    ///   - name: how to name the expected types in an error.
    /// - Returns: the parsed header and the RBSP (emulation-prevention bytes removed).
    /// - Throws: ``HEVCError`` for a bad header, a wrong type or a missing emulation-prevention byte.
    static func split<Bytes: Collection>(
        _ nalUnit: Bytes, expecting expected: Set<HEVCNALUnitType>, name: String
    ) throws(HEVCError) -> (header: HEVCNALUnitHeader, rbsp: [UInt8]) where Bytes.Element == UInt8 {
        let header = try HEVCNALUnitHeader(parsing: nalUnit)
        guard expected.contains(header.type) else {
            throw .unexpectedNALUnitType(header.type, expected: name)
        }
        do {
            let rbsp = try EmulationPrevention.checkedRBSP(fromEBSP: nalUnit.dropFirst(HEVCNALUnitHeader.byteCount))
            return (header, rbsp)
        } catch {
            switch error {
            case let .missingEmulationPreventionByte(offset):
                throw .missingEmulationPreventionByte(byteOffset: offset, nalUnitType: header.type)
            }
        }
    }

    /// Runs an RBSP parse and wraps its ``SyntaxError`` with the NAL unit type.
    /// - Parameters:
    ///   - type: the NAL unit type being read, for the error.
    ///   - body: the parse.
    /// - Returns: what `body` returns.
    /// - Throws: ``HEVCError/syntax(_:nalUnitType:)``.
    static func parse<T>(_ type: HEVCNALUnitType, _ body: () throws(SyntaxError) -> T) throws(HEVCError) -> T {
        do {
            return try body()
        } catch {
            throw .syntax(error, nalUnitType: type)
        }
    }

    /// Builds a NAL unit: the header followed by the EBSP of `rbsp`.
    /// - Parameters:
    ///   - header: the NAL unit header.
    ///   - rbsp: the RBSP.
    /// - Returns: the NAL unit bytes, without start code.
    static func build(header: HEVCNALUnitHeader, rbsp: [UInt8]) -> [UInt8] {
        header.bytes + EmulationPrevention.ebsp(fromRBSP: rbsp)
    }
}
