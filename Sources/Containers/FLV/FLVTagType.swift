/// An FLV tag's `TagType` (FLV specification v10.1, E.4.1): 8 audio, 9 video, 18 script data — the same
/// numbers as the RTMP message types that carry them.
public struct FLVTagType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 5-bit type.
    public var rawValue: UInt8

    /// A type from its number.
    /// - Parameter rawValue: the 5-bit type.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 8: audio (`AUDIODATA`).
    public static let audio = FLVTagType(rawValue: 8)
    /// 9: video (`VIDEODATA`).
    public static let video = FLVTagType(rawValue: 9)
    /// 18: script data (`SCRIPTDATA`, AMF0 values such as `onMetaData`).
    public static let scriptData = FLVTagType(rawValue: 18)

    /// `audio`, `video`, `script data`, or `type N`.
    public var description: String {
        switch self {
        case .audio: return "audio"
        case .video: return "video"
        case .scriptData: return "script data"
        default: return "type \(rawValue)"
        }
    }
}
