/// The 8-bit 4:2:0 layouts the seeds name (iOS camera buffers are NV12).
public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
    /// Planar Y, then U (Cb), then V (Cr) — `yuv420p`, "I420".
    case i420
    /// Planar Y, then V, then U — "YV12".
    case yv12
    /// Y plane, then one plane of interleaved U,V — what iPhone cameras and VideoToolbox produce.
    case nv12
    /// Y plane, then one plane of interleaved V,U — Android's camera default.
    case nv21

    /// The number of planes: 3 for planar layouts, 2 for bi-planar ones.
    public var planeCount: Int {
        switch self {
        case .i420, .yv12: return 3
        case .nv12, .nv21: return 2
        }
    }

    /// FFmpeg's name for the layout (`-pix_fmt`).
    public var ffmpegName: String {
        switch self {
        case .i420: return "yuv420p"
        case .yv12: return "yuv420p"  // FFmpeg has no YV12 name: it is yuv420p with the chroma planes swapped.
        case .nv12: return "nv12"
        case .nv21: return "nv21"
        }
    }
}

/// Whether luma uses the video range 16…235 (chroma 16…240) or the full range 0…255.
public enum ColorRange: String, Sendable, Hashable {
    /// 16…235 luma, 16…240 chroma ("limited", what cameras and encoders default to).
    case video
    /// 0…255 for both.
    case full
}
