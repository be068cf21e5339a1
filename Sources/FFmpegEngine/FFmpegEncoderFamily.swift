#if FFmpeg
import MediaCore

/// The libavcodec video encoders StreamKit drives, each with its own way of taking options.
enum FFmpegEncoderFamily: Sendable, Hashable {
    /// `libx264`: private options plus `x264-params`.
    case x264
    /// `libx265`: private options plus `x265-params`.
    case x265
    /// `h264_nvenc` / `hevc_nvenc` (NVIDIA).
    case nvenc
    /// `h264_vaapi` / `hevc_vaapi` (VA-API, needs a render node and hardware frames).
    case vaapi
    /// `h264_v4l2m2m` / `hevc_v4l2m2m` (V4L2 memory-to-memory devices).
    case v4l2m2m

    /// The family of a libavcodec encoder name.
    /// - Parameter encoderName: for example `libx264` or `hevc_vaapi`.
    /// - Returns: the family, or `nil` for an encoder StreamKit does not drive.
    init?(encoderName: String) {
        switch encoderName {
        case "libx264": self = .x264
        case "libx265": self = .x265
        case "h264_nvenc", "hevc_nvenc": self = .nvenc
        case "h264_vaapi", "hevc_vaapi": self = .vaapi
        case "h264_v4l2m2m", "hevc_v4l2m2m": self = .v4l2m2m
        default: return nil
        }
    }

    /// Whether the encoder runs on dedicated hardware.
    var isHardware: Bool { self != .x264 && self != .x265 }
}
#endif
