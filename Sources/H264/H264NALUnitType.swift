/// `nal_unit_type`: what a NAL unit carries (ITU-T H.264 §7.4.1, Table 7-1).
///
/// All 32 values are named, including the reserved and unspecified ones, so the type can be built from
/// any header byte without failing.
public enum H264NALUnitType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0: unspecified.
    case unspecified0 = 0
    /// 1: coded slice of a non-IDR picture.
    case nonIDRSlice = 1
    /// 2: coded slice data partition A.
    case sliceDataPartitionA = 2
    /// 3: coded slice data partition B.
    case sliceDataPartitionB = 3
    /// 4: coded slice data partition C.
    case sliceDataPartitionC = 4
    /// 5: coded slice of an IDR picture.
    case idrSlice = 5
    /// 6: supplemental enhancement information (SEI).
    case supplementalEnhancementInformation = 6
    /// 7: sequence parameter set (SPS).
    case sequenceParameterSet = 7
    /// 8: picture parameter set (PPS).
    case pictureParameterSet = 8
    /// 9: access unit delimiter (AUD).
    case accessUnitDelimiter = 9
    /// 10: end of sequence.
    case endOfSequence = 10
    /// 11: end of stream.
    case endOfStream = 11
    /// 12: filler data.
    case fillerData = 12
    /// 13: sequence parameter set extension.
    case sequenceParameterSetExtension = 13
    /// 14: prefix NAL unit (Annex G/H); its header is 4 bytes long.
    case prefix = 14
    /// 15: subset sequence parameter set (Annex G/H/I/J).
    case subsetSequenceParameterSet = 15
    /// 16: depth parameter set (Annex J).
    case depthParameterSet = 16
    /// 17: reserved.
    case reserved17 = 17
    /// 18: reserved.
    case reserved18 = 18
    /// 19: coded slice of an auxiliary coded picture without partitioning.
    case auxiliarySlice = 19
    /// 20: coded slice extension (Annex G/H); its header is 4 bytes long.
    case sliceExtension = 20
    /// 21: coded slice extension for a depth view or a 3D-AVC texture view (Annex I/J); 4-byte header.
    case depthSliceExtension = 21
    /// 22: reserved.
    case reserved22 = 22
    /// 23: reserved.
    case reserved23 = 23
    /// 24: unspecified.
    case unspecified24 = 24
    /// 25: unspecified.
    case unspecified25 = 25
    /// 26: unspecified.
    case unspecified26 = 26
    /// 27: unspecified.
    case unspecified27 = 27
    /// 28: unspecified.
    case unspecified28 = 28
    /// 29: unspecified.
    case unspecified29 = 29
    /// 30: unspecified.
    case unspecified30 = 30
    /// 31: unspecified.
    case unspecified31 = 31

    /// Creates the type from the low five bits of a NAL unit header byte.
    /// - Parameter headerByte: the first byte of a NAL unit; its top three bits are ignored.
    public init(headerByte: UInt8) {
        self = Self(rawValue: headerByte & 0x1F) ?? .unspecified0
    }

    /// Whether the type is a VCL NAL unit of the base specification (types 1 through 5, Table 7-1,
    /// "Annex A" column). Types 20 and 21 are VCL only for the multi-layer decoders of Annexes G–J.
    public var isVCL: Bool { (1...5).contains(rawValue) }

    /// Whether the NAL unit starts with a slice header (types 1, 2 and 5).
    public var carriesSliceHeader: Bool { self == .nonIDRSlice || self == .idrSlice || self == .sliceDataPartitionA }

    /// The length of the NAL unit header in bytes: 4 for types 14, 20 and 21 (the 1-byte header is
    /// followed by a 3-byte SVC, MVC or 3D-AVC extension), 1 otherwise (§7.3.1).
    public var headerLength: Int {
        switch self {
        case .prefix, .sliceExtension, .depthSliceExtension: return 4
        default: return 1
        }
    }

    /// A short human name, for example "IDR slice", "SPS" or "reserved (17)".
    public var name: String {
        switch self {
        case .nonIDRSlice: return "non-IDR slice"
        case .sliceDataPartitionA: return "slice data partition A"
        case .sliceDataPartitionB: return "slice data partition B"
        case .sliceDataPartitionC: return "slice data partition C"
        case .idrSlice: return "IDR slice"
        case .supplementalEnhancementInformation: return "SEI"
        case .sequenceParameterSet: return "SPS"
        case .pictureParameterSet: return "PPS"
        case .accessUnitDelimiter: return "AUD"
        case .endOfSequence: return "end of sequence"
        case .endOfStream: return "end of stream"
        case .fillerData: return "filler"
        case .sequenceParameterSetExtension: return "SPS extension"
        case .prefix: return "prefix NAL"
        case .subsetSequenceParameterSet: return "subset SPS"
        case .depthParameterSet: return "depth parameter set"
        case .auxiliarySlice: return "auxiliary slice"
        case .sliceExtension: return "slice extension"
        case .depthSliceExtension: return "depth/3D-AVC slice extension"
        case .reserved17, .reserved18, .reserved22, .reserved23: return "reserved (\(rawValue))"
        case .unspecified0, .unspecified24, .unspecified25, .unspecified26, .unspecified27,
             .unspecified28, .unspecified29, .unspecified30, .unspecified31:
            return "unspecified (\(rawValue))"
        }
    }

    /// The same as ``name``.
    public var description: String { name }
}
