/// The compressed formats StreamKit produces and reads (`CMVideoCodecType` / `AudioFormatID`).
public enum CodecType: String, Sendable, Hashable, CaseIterable {
    /// ITU-T H.264 / MPEG-4 AVC.
    case h264
    /// ITU-T H.265 / HEVC.
    case hevc
    /// MPEG-4 AAC.
    case aac
    /// Opus (RFC 6716), always coded at 48 kHz.
    case opus

    /// Whether the codec carries pictures.
    public var isVideo: Bool { self == .h264 || self == .hevc }
}
