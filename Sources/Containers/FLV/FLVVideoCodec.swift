import MediaCore

/// The codec a video tag names: a legacy `CodecID` (FLV specification v10.1, E.4.3.1) or an Enhanced RTMP
/// FourCC (veovera enhanced-rtmp v1).
public enum FLVVideoCodec: Sendable, Hashable, CustomStringConvertible {
    /// A legacy `CodecID` of 4 bits: 2 Sorenson H.263, 3 screen video, 4 On2 VP6, 5 VP6 with alpha,
    /// 6 screen video v2, 7 AVC.
    case legacy(codecID: UInt8)
    /// An Enhanced RTMP codec (`IsExHeader` set).
    case enhanced(FLVFourCC)

    /// H.264 with the legacy header (`CodecID` 7): what every FLV reader and RTMP server understands.
    public static let avc = FLVVideoCodec.legacy(codecID: 7)

    /// Whether the body has the AVC packet layout (packet type, composition time) of E.4.3.2: legacy
    /// `CodecID` 7, and the unofficial 12 that some Chinese CDNs use for HEVC before Enhanced RTMP.
    var hasAVCPacketLayout: Bool {
        if case let .legacy(id) = self { return id == 7 || id == 12 }
        return false
    }

    /// The StreamKit codec, for H.264 and H.265; `nil` for the others.
    public var codecType: CodecType? {
        switch self {
        case .legacy(7), .enhanced(.avc1): return .h264
        case .legacy(12), .enhanced(.hvc1): return .hevc
        default: return nil
        }
    }

    /// `AVC (7)`, `hvc1`, `CodecID 4` …
    public var description: String {
        switch self {
        case .legacy(7): return "AVC (7)"
        case let .legacy(id): return "CodecID \(id)"
        case let .enhanced(fourCC): return fourCC.description
        }
    }
}
