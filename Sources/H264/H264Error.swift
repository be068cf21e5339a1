import Bitstream

/// Everything that can be wrong with H.264 input: each case says what and, where it can, where.
///
/// Syntax errors keep the ``SyntaxError`` of the Bitstream layer (the field name as ITU-T H.264
/// spells it, the bit offset in the RBSP after the NAL unit header, the reason) and add the type of
/// the NAL unit being read, so a message reads
/// `SPS: level_idc: value 99 is not a defined level (RBSP byte 2, bit 16)`.
public enum H264Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// A syntax element could not be read or lies outside the range the specification allows.
    case syntax(SyntaxError, nalUnitType: H264NALUnitType)
    /// The NAL unit has no bytes at all.
    case emptyNALUnit
    /// The NAL unit is shorter than its header (4 bytes for types 14, 20 and 21).
    case truncatedNALUnitHeader(nalUnitType: H264NALUnitType, byteCount: Int)
    /// `forbidden_zero_bit` of the NAL unit header is 1 (§7.4.1).
    case forbiddenZeroBitSet(nalUnitType: H264NALUnitType)
    /// The payload holds `00 00 0x` (x ≤ 2): an emulation-prevention byte is missing (§7.4.1).
    /// The offset counts from the first byte of the NAL unit (its header).
    case missingEmulationPreventionByte(nalUnitType: H264NALUnitType, byteOffset: Int)
    /// A NAL unit of another type was handed to a parser that reads `expected`.
    case unexpectedNALUnitType(H264NALUnitType, expected: H264NALUnitType)
    /// A PPS or slice refers to a sequence parameter set that was not stored.
    case unknownSequenceParameterSet(id: UInt32, referencedBy: H264NALUnitType)
    /// A slice refers to a picture parameter set that was not stored.
    case unknownPictureParameterSet(id: UInt32, referencedBy: H264NALUnitType)
    /// The input uses a feature this module does not read (the text names it).
    case unsupported(String, nalUnitType: H264NALUnitType)
    /// An `AVCDecoderConfigurationRecord` (avcC, ISO/IEC 14496-15 §5.3.3.1) is malformed.
    case decoderConfigurationRecord(field: String, byteOffset: Int, reason: String)

    /// A sentence that says what is wrong and where.
    public var description: String {
        switch self {
        case let .syntax(error, type):
            return "\(type): \(error)"
        case .emptyNALUnit:
            return "NAL unit is empty: no header byte"
        case let .truncatedNALUnitHeader(type, count):
            return "\(type): NAL unit of \(count) byte\(count == 1 ? "" : "s") is shorter than its \(type.headerLength)-byte header"
        case let .forbiddenZeroBitSet(type):
            return "\(type): forbidden_zero_bit is 1 (NAL unit header byte 0, bit 0)"
        case let .missingEmulationPreventionByte(type, offset):
            return "\(type): missing emulation-prevention byte: 00 00 followed by a byte below 03 at NAL unit byte \(offset)"
        case let .unexpectedNALUnitType(type, expected):
            return "NAL unit has type \(type.rawValue) (\(type)); expected \(expected.rawValue) (\(expected))"
        case let .unknownSequenceParameterSet(id, type):
            return "\(type): seq_parameter_set_id \(id) refers to an SPS that was never received"
        case let .unknownPictureParameterSet(id, type):
            return "\(type): pic_parameter_set_id \(id) refers to a PPS that was never received"
        case let .unsupported(what, type):
            return "\(type): not supported: \(what)"
        case let .decoderConfigurationRecord(field, offset, reason):
            return "avcC \(field): \(reason) (byte \(offset))"
        }
    }
}
