/// The `stream_type` of an elementary stream in a program map (ISO/IEC 13818-1 §2.4.4.9, Table 2-34), for the
/// codecs StreamKit carries in a transport stream; other values are kept as they are and reported as unsupported.
public struct TSStreamType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The coded value.
    public var rawValue: UInt8

    /// Wraps a coded value.
    /// - Parameter rawValue: the `stream_type` byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// PES packets with private data: Opus when the stream registers "Opus" (``TSOpusMapping``).
    public static let privateData = TSStreamType(rawValue: 0x06)
    /// ISO/IEC 13818-7 audio with ADTS transport syntax (AAC in ADTS).
    public static let adtsAAC = TSStreamType(rawValue: 0x0F)
    /// AVC video (ITU-T H.264), Annex B byte stream.
    public static let h264 = TSStreamType(rawValue: 0x1B)
    /// HEVC video (ITU-T H.265), Annex B byte stream.
    public static let hevc = TSStreamType(rawValue: 0x24)

    /// Whether the stream is video StreamKit reads (H.264 or H.265).
    public var isVideo: Bool { self == .h264 || self == .hevc }

    /// A name for people: the codec, or the hexadecimal value.
    public var description: String {
        switch self {
        case .adtsAAC: return "AAC (ADTS)"
        case .privateData: return "PES private data"
        case .h264: return "H.264"
        case .hevc: return "H.265"
        default: return "stream_type 0x" + String(rawValue, radix: 16)
        }
    }
}
