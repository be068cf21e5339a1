/// The type of an HEVC NAL unit: `nal_unit_type` of ITU-T H.265 Table 7-1.
///
/// Every value 0…63 has a case. Cases are named after the specification's mnemonics
/// (`TRAIL_N` → ``trailN``); ``description`` gives the mnemonic back. Values 48…63 are
/// "unspecified" in H.265 itself; transports give them meanings (RFC 7798 uses 48, 49 and 50 for
/// aggregation packets, fragmentation units and PACI), which this type does not model.
public enum HEVCNALUnitType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `TRAIL_N` (0): coded slice segment of a non-TSA, non-STSA trailing picture, sub-layer non-reference.
    case trailN = 0
    /// `TRAIL_R` (1): coded slice segment of a non-TSA, non-STSA trailing picture, sub-layer reference.
    case trailR = 1
    /// `TSA_N` (2): coded slice segment of a temporal sub-layer access picture, sub-layer non-reference.
    case tsaN = 2
    /// `TSA_R` (3): coded slice segment of a temporal sub-layer access picture, sub-layer reference.
    case tsaR = 3
    /// `STSA_N` (4): coded slice segment of a step-wise temporal sub-layer access picture, non-reference.
    case stsaN = 4
    /// `STSA_R` (5): coded slice segment of a step-wise temporal sub-layer access picture, reference.
    case stsaR = 5
    /// `RADL_N` (6): coded slice segment of a random access decodable leading picture, non-reference.
    case radlN = 6
    /// `RADL_R` (7): coded slice segment of a random access decodable leading picture, reference.
    case radlR = 7
    /// `RASL_N` (8): coded slice segment of a random access skipped leading picture, non-reference.
    case raslN = 8
    /// `RASL_R` (9): coded slice segment of a random access skipped leading picture, reference.
    case raslR = 9
    /// `RSV_VCL_N10` (10): reserved non-IRAP sub-layer non-reference VCL type.
    case reservedVCLN10 = 10
    /// `RSV_VCL_R11` (11): reserved non-IRAP sub-layer reference VCL type.
    case reservedVCLR11 = 11
    /// `RSV_VCL_N12` (12): reserved non-IRAP sub-layer non-reference VCL type.
    case reservedVCLN12 = 12
    /// `RSV_VCL_R13` (13): reserved non-IRAP sub-layer reference VCL type.
    case reservedVCLR13 = 13
    /// `RSV_VCL_N14` (14): reserved non-IRAP sub-layer non-reference VCL type.
    case reservedVCLN14 = 14
    /// `RSV_VCL_R15` (15): reserved non-IRAP sub-layer reference VCL type.
    case reservedVCLR15 = 15
    /// `BLA_W_LP` (16): broken link access picture that may have leading pictures.
    case blaWLP = 16
    /// `BLA_W_RADL` (17): broken link access picture that may have RADL but no RASL pictures.
    case blaWRADL = 17
    /// `BLA_N_LP` (18): broken link access picture without leading pictures.
    case blaNLP = 18
    /// `IDR_W_RADL` (19): instantaneous decoding refresh picture that may have RADL pictures.
    case idrWRADL = 19
    /// `IDR_N_LP` (20): instantaneous decoding refresh picture without leading pictures.
    case idrNLP = 20
    /// `CRA_NUT` (21): clean random access picture.
    case craNUT = 21
    /// `RSV_IRAP_VCL22` (22): reserved IRAP VCL type.
    case reservedIRAPVCL22 = 22
    /// `RSV_IRAP_VCL23` (23): reserved IRAP VCL type.
    case reservedIRAPVCL23 = 23
    /// `RSV_VCL24` (24): reserved non-IRAP VCL type.
    case reservedVCL24 = 24
    /// `RSV_VCL25` (25): reserved non-IRAP VCL type.
    case reservedVCL25 = 25
    /// `RSV_VCL26` (26): reserved non-IRAP VCL type.
    case reservedVCL26 = 26
    /// `RSV_VCL27` (27): reserved non-IRAP VCL type.
    case reservedVCL27 = 27
    /// `RSV_VCL28` (28): reserved non-IRAP VCL type.
    case reservedVCL28 = 28
    /// `RSV_VCL29` (29): reserved non-IRAP VCL type.
    case reservedVCL29 = 29
    /// `RSV_VCL30` (30): reserved non-IRAP VCL type.
    case reservedVCL30 = 30
    /// `RSV_VCL31` (31): reserved non-IRAP VCL type.
    case reservedVCL31 = 31
    /// `VPS_NUT` (32): video parameter set.
    case vps = 32
    /// `SPS_NUT` (33): sequence parameter set.
    case sps = 33
    /// `PPS_NUT` (34): picture parameter set.
    case pps = 34
    /// `AUD_NUT` (35): access unit delimiter.
    case accessUnitDelimiter = 35
    /// `EOS_NUT` (36): end of sequence.
    case endOfSequence = 36
    /// `EOB_NUT` (37): end of bitstream.
    case endOfBitstream = 37
    /// `FD_NUT` (38): filler data.
    case fillerData = 38
    /// `PREFIX_SEI_NUT` (39): supplemental enhancement information before the VCL NAL units it applies to.
    case prefixSEI = 39
    /// `SUFFIX_SEI_NUT` (40): supplemental enhancement information after the VCL NAL units it applies to.
    case suffixSEI = 40
    /// `RSV_NVCL41` (41): reserved non-VCL type.
    case reservedNVCL41 = 41
    /// `RSV_NVCL42` (42): reserved non-VCL type.
    case reservedNVCL42 = 42
    /// `RSV_NVCL43` (43): reserved non-VCL type.
    case reservedNVCL43 = 43
    /// `RSV_NVCL44` (44): reserved non-VCL type.
    case reservedNVCL44 = 44
    /// `RSV_NVCL45` (45): reserved non-VCL type.
    case reservedNVCL45 = 45
    /// `RSV_NVCL46` (46): reserved non-VCL type.
    case reservedNVCL46 = 46
    /// `RSV_NVCL47` (47): reserved non-VCL type.
    case reservedNVCL47 = 47
    /// `UNSPEC48` (48): unspecified non-VCL type (RFC 7798 aggregation packet).
    case unspecified48 = 48
    /// `UNSPEC49` (49): unspecified non-VCL type (RFC 7798 fragmentation unit).
    case unspecified49 = 49
    /// `UNSPEC50` (50): unspecified non-VCL type (RFC 7798 PACI packet).
    case unspecified50 = 50
    /// `UNSPEC51` (51): unspecified non-VCL type.
    case unspecified51 = 51
    /// `UNSPEC52` (52): unspecified non-VCL type.
    case unspecified52 = 52
    /// `UNSPEC53` (53): unspecified non-VCL type.
    case unspecified53 = 53
    /// `UNSPEC54` (54): unspecified non-VCL type.
    case unspecified54 = 54
    /// `UNSPEC55` (55): unspecified non-VCL type.
    case unspecified55 = 55
    /// `UNSPEC56` (56): unspecified non-VCL type.
    case unspecified56 = 56
    /// `UNSPEC57` (57): unspecified non-VCL type.
    case unspecified57 = 57
    /// `UNSPEC58` (58): unspecified non-VCL type.
    case unspecified58 = 58
    /// `UNSPEC59` (59): unspecified non-VCL type.
    case unspecified59 = 59
    /// `UNSPEC60` (60): unspecified non-VCL type.
    case unspecified60 = 60
    /// `UNSPEC61` (61): unspecified non-VCL type.
    case unspecified61 = 61
    /// `UNSPEC62` (62): unspecified non-VCL type.
    case unspecified62 = 62
    /// `UNSPEC63` (63): unspecified non-VCL type.
    case unspecified63 = 63

    /// All 64 types in numeric order, so `table[value]` is the type of `value`.
    private static let table: [HEVCNALUnitType] = allCases.sorted { $0.rawValue < $1.rawValue }

    /// Creates the type from the low six bits of `value` (the width of `nal_unit_type`).
    /// - Parameter value: a number; bits above the sixth are ignored.
    public init(sixBits value: UInt8) {
        self = Self.table[Int(value & 0x3F)]
    }

    /// Whether NAL units of this type carry coded slice segments (`nal_unit_type` 0…31, §7.4.2.2).
    public var isVCL: Bool { rawValue < 32 }

    /// Whether this is an intra random access point type (16…23: BLA, IDR, CRA and two reserved).
    public var isIRAP: Bool { (16...23).contains(rawValue) }

    /// Whether this is `IDR_W_RADL` or `IDR_N_LP`.
    public var isIDR: Bool { self == .idrWRADL || self == .idrNLP }

    /// Whether this is `BLA_W_LP`, `BLA_W_RADL` or `BLA_N_LP`.
    public var isBLA: Bool { (16...18).contains(rawValue) }

    /// Whether this is `CRA_NUT`.
    public var isCRA: Bool { self == .craNUT }

    /// Whether this is `RASL_N` or `RASL_R`.
    public var isRASL: Bool { self == .raslN || self == .raslR }

    /// Whether this is `RADL_N` or `RADL_R`.
    public var isRADL: Bool { self == .radlN || self == .radlR }

    /// Whether pictures of this type are sub-layer non-reference pictures: the even types 0…14
    /// (`TRAIL_N`, `TSA_N`, `STSA_N`, `RADL_N`, `RASL_N`, `RSV_VCL_N10/12/14`), §7.4.2.2.
    public var isSubLayerNonReference: Bool { rawValue <= 14 && rawValue & 1 == 0 }

    /// Whether this type is reserved by ITU-T H.265 (22…31 and 41…47).
    public var isReserved: Bool { (10...15).contains(rawValue) || (22...31).contains(rawValue) || (41...47).contains(rawValue) }

    /// The mnemonic of Table 7-1, for example `IDR_W_RADL` or `PREFIX_SEI_NUT`.
    public var description: String {
        switch self {
        case .trailN: return "TRAIL_N"
        case .trailR: return "TRAIL_R"
        case .tsaN: return "TSA_N"
        case .tsaR: return "TSA_R"
        case .stsaN: return "STSA_N"
        case .stsaR: return "STSA_R"
        case .radlN: return "RADL_N"
        case .radlR: return "RADL_R"
        case .raslN: return "RASL_N"
        case .raslR: return "RASL_R"
        case .blaWLP: return "BLA_W_LP"
        case .blaWRADL: return "BLA_W_RADL"
        case .blaNLP: return "BLA_N_LP"
        case .idrWRADL: return "IDR_W_RADL"
        case .idrNLP: return "IDR_N_LP"
        case .craNUT: return "CRA_NUT"
        case .vps: return "VPS_NUT"
        case .sps: return "SPS_NUT"
        case .pps: return "PPS_NUT"
        case .accessUnitDelimiter: return "AUD_NUT"
        case .endOfSequence: return "EOS_NUT"
        case .endOfBitstream: return "EOB_NUT"
        case .fillerData: return "FD_NUT"
        case .prefixSEI: return "PREFIX_SEI_NUT"
        case .suffixSEI: return "SUFFIX_SEI_NUT"
        default:
            switch rawValue {
            case 10...15: return "RSV_VCL_\(rawValue & 1 == 0 ? "N" : "R")\(rawValue)"
            case 22...23: return "RSV_IRAP_VCL\(rawValue)"
            case 24...31: return "RSV_VCL\(rawValue)"
            case 41...47: return "RSV_NVCL\(rawValue)"
            default: return "UNSPEC\(rawValue)"
            }
        }
    }
}
