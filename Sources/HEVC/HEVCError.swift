import Bitstream

/// Everything that can be wrong with HEVC input: each case says what and, where it can, where.
///
/// Syntax errors keep the ``SyntaxError`` of the Bitstream layer (field name as ITU-T H.265 spells
/// it, bit offset in the RBSP, reason) and add the type of the NAL unit being read.
public enum HEVCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A syntax element could not be read or lies outside the range the specification allows.
    case syntax(SyntaxError, nalUnitType: HEVCNALUnitType)
    /// The NAL unit is shorter than its 2-byte header.
    case truncatedNALUnitHeader(byteCount: Int)
    /// `forbidden_zero_bit` of the NAL unit header is 1 (§7.4.2.2).
    case forbiddenZeroBitSet(nalUnitType: HEVCNALUnitType)
    /// `nuh_temporal_id_plus1` is 0, which §7.4.2.2 forbids.
    case zeroTemporalIDPlus1(nalUnitType: HEVCNALUnitType)
    /// The payload holds `00 00 0x` (x ≤ 2): an emulation-prevention byte is missing (§7.4.2).
    case missingEmulationPreventionByte(byteOffset: Int, nalUnitType: HEVCNALUnitType)
    /// A NAL unit of another type was handed to a parser that reads `expected`.
    case unexpectedNALUnitType(HEVCNALUnitType, expected: String)
    /// A parameter set or slice refers to a video parameter set that was not stored.
    case unknownVideoParameterSet(id: Int)
    /// A parameter set or slice refers to a sequence parameter set that was not stored.
    case unknownSequenceParameterSet(id: Int)
    /// A slice refers to a picture parameter set that was not stored.
    case unknownPictureParameterSet(id: Int)
    /// A value that is valid on its own contradicts the parameter set it depends on.
    case inconsistentParameterSets(field: String, reason: String)
    /// The input uses a feature this module does not read (the text names it).
    case unsupported(String)
    /// An `HEVCDecoderConfigurationRecord` (hvcC) is malformed.
    case decoderConfigurationRecord(field: String, byteOffset: Int, reason: String)

    /// A sentence that says what is wrong and where.
    public var description: String {
        switch self {
        case let .syntax(error, type):
            return "HEVC \(type): \(error)"
        case let .truncatedNALUnitHeader(count):
            return "HEVC NAL unit of \(count) byte\(count == 1 ? "" : "s") is shorter than its 2-byte header"
        case let .forbiddenZeroBitSet(type):
            return "HEVC \(type): forbidden_zero_bit is 1 (NAL unit header byte 0, bit 0)"
        case let .zeroTemporalIDPlus1(type):
            return "HEVC \(type): nuh_temporal_id_plus1 is 0, must be 1...7 (NAL unit header byte 1, bits 13-15)"
        case let .missingEmulationPreventionByte(offset, type):
            return "HEVC \(type): missing emulation-prevention byte: 00 00 followed by a byte below 03 at payload byte \(offset)"
        case let .unexpectedNALUnitType(type, expected):
            return "HEVC NAL unit has type \(type) (\(type.rawValue)); expected \(expected)"
        case let .unknownVideoParameterSet(id):
            return "HEVC video parameter set \(id) is referenced but was never received"
        case let .unknownSequenceParameterSet(id):
            return "HEVC sequence parameter set \(id) is referenced but was never received"
        case let .unknownPictureParameterSet(id):
            return "HEVC picture parameter set \(id) is referenced but was never received"
        case let .inconsistentParameterSets(field, reason):
            return "HEVC \(field): \(reason)"
        case let .unsupported(what):
            return "HEVC: not supported: \(what)"
        case let .decoderConfigurationRecord(field, offset, reason):
            return "HEVC hvcC \(field): \(reason) (byte \(offset))"
        }
    }
}
