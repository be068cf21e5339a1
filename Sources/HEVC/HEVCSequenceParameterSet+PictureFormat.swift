extension HEVCSequenceParameterSet {
    /// The sampling of the decoded pictures: `4:0:0`, `4:2:0`, `4:2:2` or `4:4:4` (`chroma_format_idc`).
    public var chromaFormatName: String {
        ["4:0:0", "4:2:0", "4:2:2", "4:4:4"][min(max(chromaFormatIDC, 0), 3)]
    }

    /// Whether decoded pictures are 8-bit 4:2:0.
    public var isEightBit420: Bool { chromaFormatIDC == 1 && bitDepthLuma == 8 && bitDepthChroma == 8 }

    /// The FFmpeg name of the decoded pictures' pixel format, as ffprobe prints it: `yuv420p`,
    /// `yuv420p10le`, `gray`, … (FFmpeg names the 4:0:0 formats `gray`).
    public var pixelFormatName: String {
        let depth = bitDepthLuma == 8 ? "" : "\(bitDepthLuma)le"
        switch chromaFormatIDC {
        case 0: return "gray" + depth
        case 2: return "yuv422p" + depth
        case 3: return "yuv444p" + depth
        default: return "yuv420p" + depth
        }
    }
}
