/// An MPEG-4 audio object type (ISO/IEC 14496-3 §1.5.1.1, Table 1.1).
///
/// The value is the number that `GetAudioObjectType()` (§1.6.2.1) decodes: 1 through 30 in five bits,
/// 32 through 95 through the escape value 31 followed by six more bits. Types the standard has not named
/// (or added after the edition this table follows) are still representable through ``init(rawValue:)``.
///
/// In an ADTS header the two-bit `profile_ObjectType` holds the object type minus one, so only
/// ``aacMain``, ``aacLC``, ``aacSSR`` and ``aacLTP`` can appear there.
public struct AudioObjectType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The object type number.
    public let rawValue: UInt8

    /// The largest value `GetAudioObjectType()` can produce: 32 + 63.
    public static let largestValue: UInt8 = 95

    /// The five-bit value that announces a six-bit extension (`audioObjectTypeExt`).
    public static let escapeValue: UInt8 = 31

    /// Creates an object type from its number.
    /// - Parameter rawValue: 1 through 95, except the escape value 31; 0 ("Null") is rejected.
    public init?(rawValue: UInt8) {
        guard rawValue != 0, rawValue != Self.escapeValue, rawValue <= Self.largestValue else { return nil }
        self.rawValue = rawValue
    }

    private init(known rawValue: UInt8) { self.rawValue = rawValue }

    /// 1: AAC Main.
    public static let aacMain = AudioObjectType(known: 1)
    /// 2: AAC LC (low complexity), what hardware encoders produce.
    public static let aacLC = AudioObjectType(known: 2)
    /// 3: AAC SSR (scalable sample rate).
    public static let aacSSR = AudioObjectType(known: 3)
    /// 4: AAC LTP (long-term prediction).
    public static let aacLTP = AudioObjectType(known: 4)
    /// 5: SBR (spectral band replication), HE-AAC.
    public static let sbr = AudioObjectType(known: 5)
    /// 6: AAC scalable.
    public static let aacScalable = AudioObjectType(known: 6)
    /// 7: TwinVQ.
    public static let twinVQ = AudioObjectType(known: 7)
    /// 8: CELP.
    public static let celp = AudioObjectType(known: 8)
    /// 9: HVXC.
    public static let hvxc = AudioObjectType(known: 9)
    /// 12: TTSI (text-to-speech interface).
    public static let ttsi = AudioObjectType(known: 12)
    /// 13: Main synthetic.
    public static let mainSynthetic = AudioObjectType(known: 13)
    /// 14: Wavetable synthesis.
    public static let wavetableSynthesis = AudioObjectType(known: 14)
    /// 15: General MIDI.
    public static let generalMIDI = AudioObjectType(known: 15)
    /// 16: Algorithmic synthesis and audio effects.
    public static let algorithmicSynthesis = AudioObjectType(known: 16)
    /// 17: ER AAC LC (error resilient).
    public static let erAACLC = AudioObjectType(known: 17)
    /// 19: ER AAC LTP.
    public static let erAACLTP = AudioObjectType(known: 19)
    /// 20: ER AAC scalable.
    public static let erAACScalable = AudioObjectType(known: 20)
    /// 21: ER TwinVQ.
    public static let erTwinVQ = AudioObjectType(known: 21)
    /// 22: ER BSAC (bit-sliced arithmetic coding).
    public static let erBSAC = AudioObjectType(known: 22)
    /// 23: ER AAC LD (low delay).
    public static let erAACLD = AudioObjectType(known: 23)
    /// 24: ER CELP.
    public static let erCELP = AudioObjectType(known: 24)
    /// 25: ER HVXC.
    public static let erHVXC = AudioObjectType(known: 25)
    /// 26: ER HILN.
    public static let erHILN = AudioObjectType(known: 26)
    /// 27: ER Parametric.
    public static let erParametric = AudioObjectType(known: 27)
    /// 28: SSC (sinusoidal coding).
    public static let ssc = AudioObjectType(known: 28)
    /// 29: PS (parametric stereo), HE-AAC v2.
    public static let ps = AudioObjectType(known: 29)
    /// 30: MPEG Surround.
    public static let mpegSurround = AudioObjectType(known: 30)
    /// 32: Layer-1.
    public static let layer1 = AudioObjectType(known: 32)
    /// 33: Layer-2.
    public static let layer2 = AudioObjectType(known: 33)
    /// 34: Layer-3.
    public static let layer3 = AudioObjectType(known: 34)
    /// 35: DST (direct stream transfer).
    public static let dst = AudioObjectType(known: 35)
    /// 36: ALS (audio lossless).
    public static let als = AudioObjectType(known: 36)
    /// 37: SLS (scalable lossless).
    public static let sls = AudioObjectType(known: 37)
    /// 38: SLS non-core.
    public static let slsNonCore = AudioObjectType(known: 38)
    /// 39: ER AAC ELD (enhanced low delay).
    public static let erAACELD = AudioObjectType(known: 39)
    /// 40: SMR simple.
    public static let smrSimple = AudioObjectType(known: 40)
    /// 41: SMR main.
    public static let smrMain = AudioObjectType(known: 41)
    /// 42: USAC (unified speech and audio coding, ISO/IEC 23003-3), xHE-AAC.
    public static let usac = AudioObjectType(known: 42)
    /// 43: SAOC.
    public static let saoc = AudioObjectType(known: 43)
    /// 44: LD MPEG Surround.
    public static let ldMPEGSurround = AudioObjectType(known: 44)

    /// Whether `AudioSpecificConfig` carries a `GASpecificConfig` for this type (§1.6.2.1: types 1–4,
    /// 6, 7, 17 and 19–23).
    public var usesGASpecificConfig: Bool {
        switch rawValue {
        case 1...4, 6, 7, 17, 19...23: return true
        default: return false
        }
    }

    /// Whether this is an error-resilient type, which carries `epConfig` in `AudioSpecificConfig`
    /// (§1.6.2.1: types 17, 19–27 and 39).
    public var isErrorResilient: Bool {
        switch rawValue {
        case 17, 19...27, 39: return true
        default: return false
        }
    }

    /// The profile name as FFmpeg (and so `ffprobe -show_streams`) prints it, or `nil` for types
    /// FFmpeg has no profile name for.
    ///
    /// SBR maps to `"HE-AAC"` and PS to `"HE-AACv2"`, as FFmpeg names the profiles that use them.
    public var profileName: String? {
        switch rawValue {
        case 1: return "Main"
        case 2: return "LC"
        case 3: return "SSR"
        case 4: return "LTP"
        case 5: return "HE-AAC"
        case 29: return "HE-AACv2"
        case 23: return "LD"
        case 39: return "ELD"
        case 42: return "xHE-AAC"
        default: return nil
        }
    }

    /// The name of the object type as Table 1.1 of ISO/IEC 14496-3 spells it.
    public var name: String {
        switch rawValue {
        case 1: return "AAC Main"
        case 2: return "AAC LC"
        case 3: return "AAC SSR"
        case 4: return "AAC LTP"
        case 5: return "SBR"
        case 6: return "AAC scalable"
        case 7: return "TwinVQ"
        case 8: return "CELP"
        case 9: return "HVXC"
        case 12: return "TTSI"
        case 13: return "Main synthetic"
        case 14: return "Wavetable synthesis"
        case 15: return "General MIDI"
        case 16: return "Algorithmic Synthesis and Audio FX"
        case 17: return "ER AAC LC"
        case 19: return "ER AAC LTP"
        case 20: return "ER AAC scalable"
        case 21: return "ER TwinVQ"
        case 22: return "ER BSAC"
        case 23: return "ER AAC LD"
        case 24: return "ER CELP"
        case 25: return "ER HVXC"
        case 26: return "ER HILN"
        case 27: return "ER Parametric"
        case 28: return "SSC"
        case 29: return "PS"
        case 30: return "MPEG Surround"
        case 32: return "Layer-1"
        case 33: return "Layer-2"
        case 34: return "Layer-3"
        case 35: return "DST"
        case 36: return "ALS"
        case 37: return "SLS"
        case 38: return "SLS non-core"
        case 39: return "ER AAC ELD"
        case 40: return "SMR Simple"
        case 41: return "SMR Main"
        case 42: return "USAC"
        case 43: return "SAOC"
        case 44: return "LD MPEG Surround"
        default: return "reserved (\(rawValue))"
        }
    }

    /// The name and number, for example `AAC LC (2)`.
    public var description: String { "\(name) (\(rawValue))" }
}
