/// `channelConfiguration` / `channel_configuration`: the loudspeaker layouts an AAC stream can name by
/// number (ISO/IEC 14496-3 §1.6.3.5, Table 1.19; ISO/IEC 13818-7 §8.5).
///
/// Value 0 means the layout is given in the stream by a `program_config_element()` (PCE). ADTS codes
/// the value in three bits (0…7); `AudioSpecificConfig` in four, where later editions of 14496-3 also
/// define 11…14. Values 8…10 and 15 are reserved.
public struct ChannelConfiguration: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The configuration number.
    public let rawValue: UInt8

    /// Creates a configuration from its number.
    /// - Parameter rawValue: 0 through 7, or 11 through 14.
    public init?(rawValue: UInt8) {
        guard rawValue <= 7 || (11...14).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known rawValue: UInt8) { self.rawValue = rawValue }

    /// 0: the layout is defined in the stream by a program config element.
    public static let definedInStream = ChannelConfiguration(known: 0)
    /// 1: one channel (center).
    public static let mono = ChannelConfiguration(known: 1)
    /// 2: two channels (left, right).
    public static let stereo = ChannelConfiguration(known: 2)
    /// 3: three channels (center; left, right).
    public static let threeChannels = ChannelConfiguration(known: 3)
    /// 4: four channels (center; left, right; rear center).
    public static let fourChannels = ChannelConfiguration(known: 4)
    /// 5: five channels (center; left, right; left surround, right surround).
    public static let fiveChannels = ChannelConfiguration(known: 5)
    /// 6: 5.1 (five channels plus LFE).
    public static let fivePointOne = ChannelConfiguration(known: 6)
    /// 7: 7.1 (seven channels plus LFE).
    public static let sevenPointOne = ChannelConfiguration(known: 7)

    /// The configuration that carries exactly `count` channels, if there is one among 1…7.
    /// - Parameter count: 1–6 or 8.
    public init?(channelCount count: Int) {
        switch count {
        case 1...6: self.init(known: UInt8(count))
        case 8: self.init(known: 7)
        default: return nil
        }
    }

    /// The number of channels, or `nil` for 0 (defined by the stream's program config element).
    public var channelCount: Int? {
        switch rawValue {
        case 0: return nil
        case 1...6: return Int(rawValue)
        case 7: return 8
        case 11: return 7
        case 12: return 8
        case 13: return 24
        case 14: return 8
        default: return nil
        }
    }

    /// The number, and the channel count when known.
    public var description: String {
        if let count = channelCount { return "\(rawValue) (\(count) channels)" }
        return "\(rawValue) (defined by PCE)"
    }
}
