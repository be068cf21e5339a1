import MediaCore

/// Which header a video stream's tags get: the legacy `VIDEODATA` (FLV specification v10.1, E.4.3.1;
/// H.264 only, `CodecID` 7) or the Enhanced RTMP `ExVideoTagHeader` with a FourCC (veovera enhanced-rtmp v1).
public enum FLVVideoHeaderStyle: Sendable, Hashable {
    /// `CodecID` 7 with an `AVCVIDEOPACKET`: what nginx-rtmp, Debian's FFmpeg 5.1 and every FLV reader know.
    case legacy
    /// `IsExHeader` with `avc1` / `hvc1`: what HEVC needs (FFmpeg 7+, OBS 29+, YouTube).
    case enhanced

    /// The style a codec gets unless asked otherwise: legacy for H.264 (readable everywhere), enhanced for H.265.
    /// - Parameter codec: the codec.
    /// - Returns: the style.
    public static func preferred(for codec: CodecType) -> FLVVideoHeaderStyle {
        codec == .h264 ? .legacy : .enhanced
    }

    /// The tag codec for `codec` in this style.
    /// - Parameter codec: H.264 or H.265.
    /// - Returns: the codec field.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` for H.265 in the legacy style, or audio.
    public func videoCodec(for codec: CodecType) throws(FLVError) -> FLVVideoCodec {
        switch (codec, self) {
        case (.h264, .legacy): return .avc
        case (.h264, .enhanced): return .enhanced(.avc1)
        case (.hevc, .enhanced): return .enhanced(.hvc1)
        case (.hevc, .legacy): throw FLVError(.unrepresentable("H.265 needs the Enhanced RTMP header (hvc1)"), offset: 0)
        case (.aac, _), (.opus, _):
            throw FLVError(.unrepresentable("\(codec == .aac ? "AAC" : "Opus") is not a video codec"), offset: 0)
        }
    }
}
