import AAC

/// `dwChannelMask` of a `WAVE_FORMAT_EXTENSIBLE` header: which loudspeaker each channel feeds.
///
/// The channels of the `data` chunk are, in order, the speakers whose bits are set, lowest bit first
/// (Microsoft, "Multiple channel audio data and WAVE files"). An empty mask assigns no positions.
public struct WAVChannelMask: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The mask as stored.
    public let rawValue: UInt32

    /// Creates a mask from its stored value.
    /// - Parameter rawValue: `dwChannelMask`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `SPEAKER_FRONT_LEFT`.
    public static let frontLeft = WAVChannelMask(rawValue: 0x1)
    /// `SPEAKER_FRONT_RIGHT`.
    public static let frontRight = WAVChannelMask(rawValue: 0x2)
    /// `SPEAKER_FRONT_CENTER`.
    public static let frontCenter = WAVChannelMask(rawValue: 0x4)
    /// `SPEAKER_LOW_FREQUENCY`.
    public static let lowFrequency = WAVChannelMask(rawValue: 0x8)
    /// `SPEAKER_BACK_LEFT`.
    public static let backLeft = WAVChannelMask(rawValue: 0x10)
    /// `SPEAKER_BACK_RIGHT`.
    public static let backRight = WAVChannelMask(rawValue: 0x20)
    /// `SPEAKER_FRONT_LEFT_OF_CENTER`.
    public static let frontLeftOfCenter = WAVChannelMask(rawValue: 0x40)
    /// `SPEAKER_FRONT_RIGHT_OF_CENTER`.
    public static let frontRightOfCenter = WAVChannelMask(rawValue: 0x80)
    /// `SPEAKER_BACK_CENTER`.
    public static let backCenter = WAVChannelMask(rawValue: 0x100)
    /// `SPEAKER_SIDE_LEFT`.
    public static let sideLeft = WAVChannelMask(rawValue: 0x200)
    /// `SPEAKER_SIDE_RIGHT`.
    public static let sideRight = WAVChannelMask(rawValue: 0x400)

    /// Mono: front center.
    public static let mono: WAVChannelMask = [.frontCenter]
    /// Stereo: front left, front right.
    public static let stereo: WAVChannelMask = [.frontLeft, .frontRight]
    /// 5.1: front left, right, center, LFE, back left, back right (0x3F).
    public static let fivePointOne: WAVChannelMask = [.frontLeft, .frontRight, .frontCenter, .lowFrequency, .backLeft, .backRight]

    /// The number of speakers the mask assigns.
    public var speakerCount: Int { rawValue.nonzeroBitCount }

    /// The mask in hexadecimal, as `0x3F`.
    public var description: String { "0x" + String(rawValue, radix: 16, uppercase: true) }

    /// The speakers of an AAC channel configuration (ISO/IEC 14496-3 Table 1.19), in the order a
    /// decoder that outputs WAV channel order (FFmpeg's does) delivers them:
    /// 1 → C; 2 → L R; 3 → L R C (0x7); 4 → L R C, back C (0x107); 5 → L R C, back L R (0x37);
    /// 6 → 5.1 (0x3F); 7 → 7.1: L R C LFE, back L R, side L R (0x63F — the table's "outside front"
    /// pair lands, as FFmpeg 5.1 and 9 label it, on the side speakers).
    /// - Parameter configuration: the stream's channel configuration.
    /// - Returns: the mask, or `nil` for 0 (layout in a program config element) and for the
    ///   configurations (11…14) whose speaker order no decoder here has been checked against.
    public init?(aacChannelConfiguration configuration: ChannelConfiguration) {
        switch configuration.rawValue {
        case 1: self = .mono
        case 2: self = .stereo
        case 3: self = [.stereo, .frontCenter]
        case 4: self = [.stereo, .frontCenter, .backCenter]
        case 5: self = [.stereo, .frontCenter, .backLeft, .backRight]
        case 6: self = .fivePointOne
        case 7: self = [.fivePointOne, .sideLeft, .sideRight]
        default: return nil
        }
    }
}

extension WAVFormat {
    /// The speakers of an extensible format's `dwChannelMask`; `nil` for a plain format.
    public var speakers: WAVChannelMask? { channelMask.map(WAVChannelMask.init(rawValue:)) }
}
