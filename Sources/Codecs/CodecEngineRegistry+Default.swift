#if FFmpeg
import FFmpegEngine
#endif

extension CodecEngineRegistry {
    /// Every engine this build has: with the `FFmpeg` trait (`swift build --traits FFmpeg`), the
    /// libavcodec engines this machine really has (``FFmpegEngines/probe()``: hardware first, then x264,
    /// x265 and aac); without it, none, and sessions say how to get one. The default registry of every
    /// session initialiser.
    public static var `default`: CodecEngineRegistry {
        #if FFmpeg
        return CodecEngineRegistry(engines: FFmpegEngines.probe())
        #else
        return CodecEngineRegistry()
        #endif
    }
}
