/// Emulation prevention (ITU-T H.264 §7.4.1, H.265 §7.4.2): the conversion between the RBSP and the
/// encapsulated byte sequence (EBSP) carried in a NAL unit.
///
/// Inside a NAL unit the patterns `00 00 00`, `00 00 01`, `00 00 02` and `00 00 03` may not appear;
/// an encoder inserts `emulation_prevention_three_byte` (0x03) after two zero bytes whenever the
/// next byte is 0x00–0x03, and a decoder removes it.
public enum EmulationPrevention {
    /// An EBSP that breaks the rules of emulation prevention.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `00 00 0x` (x ≤ 2) inside the payload: an emulation-prevention byte is missing.
        case missingEmulationPreventionByte(byteOffset: Int)

        /// What is wrong and where.
        public var description: String {
            switch self {
            case let .missingEmulationPreventionByte(offset):
                return "missing emulation-prevention byte: 00 00 followed by a byte below 03 at byte \(offset)"
            }
        }
    }

    /// Removes emulation-prevention bytes, leniently: every 0x03 after two zero bytes is dropped and
    /// nothing else is checked (what decoders such as FFmpeg do).
    /// - Parameter ebsp: the NAL unit payload (or the whole NAL unit).
    /// - Returns: the RBSP.
    public static func rbsp<Bytes: Collection>(fromEBSP ebsp: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8]()
        _ = convert(ebsp, limit: .max, checked: false, into: &out)
        return out
    }

    /// Removes emulation-prevention bytes and rejects an EBSP in which one is missing.
    /// - Parameter ebsp: the NAL unit payload.
    /// - Returns: the RBSP.
    /// - Throws: ``Failure/missingEmulationPreventionByte(byteOffset:)`` naming the offset, within
    ///   `ebsp`, of the byte after the two zeros.
    public static func checkedRBSP<Bytes: Collection>(fromEBSP ebsp: Bytes) throws(Failure) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8]()
        if let offset = convert(ebsp, limit: .max, checked: true, into: &out) {
            throw .missingEmulationPreventionByte(byteOffset: offset)
        }
        return out
    }

    /// Inserts emulation-prevention bytes: after two zero bytes, a 0x03 before any byte 0x00–0x03,
    /// and after a payload that ends in two zero bytes (a trailing `cabac_zero_word`, written `00 00 03`).
    /// - Parameter rbsp: the RBSP.
    /// - Returns: the EBSP to put in a NAL unit.
    @inlinable
    public static func ebsp<Bytes: Collection>(fromRBSP rbsp: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(rbsp.count + rbsp.count / 64 + 2)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 0x03 {
                out.append(0x03)
                zeros = 0
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        if zeros >= 2 { out.append(0x03) }
        return out
    }
}
