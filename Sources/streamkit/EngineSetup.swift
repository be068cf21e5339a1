import Codecs
#if FFmpeg
import FFmpegEngine
#endif

/// The codec engines this build of `streamkit` has: the FFmpeg engine when built with
/// `--traits FFmpeg` (probed: only what really works on this machine is listed).
enum EngineSetup {
    /// The registry of every available engine (the library's default registry).
    static func registry() -> CodecEngineRegistry {
        CodecEngineRegistry.default
    }
}
