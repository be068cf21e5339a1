#if FFmpeg
import FFmpegEngine
#endif
import NativeH264

extension CodecEngineRegistry {
    /// Every engine this build has: with the `FFmpeg` trait (`swift build --traits FFmpeg`), the
    /// libavcodec engines this machine really has (``FFmpegEngines/probe()``: hardware first, then x264,
    /// x265 and aac); then, in every build, the pure-Swift `native` H.264 encoder and decoder
    /// (``NativeCodecEngine``) — so it is the H.264 encoder and decoder where FFmpeg is absent, and x264 and
    /// FFmpeg's decoder stay the defaults where they are present. The default registry of every session initialiser.
    public static var `default`: CodecEngineRegistry {
        #if FFmpeg
        return CodecEngineRegistry(engines: FFmpegEngines.probe() + [NativeCodecEngine()])
        #else
        return CodecEngineRegistry(engines: [NativeCodecEngine()])
        #endif
    }

    /// This registry with its `native` engine replaced by `engine` (for a thread cap or a
    /// reconstruction handler), or with `engine` added after the others when it had none.
    /// - Parameter engine: the configured native engine.
    /// - Returns: the registry.
    public func replacingNativeEngine(with engine: NativeCodecEngine) -> CodecEngineRegistry {
        var engines = self.engines.filter { $0.name != engine.name }
        engines.append(engine)
        return CodecEngineRegistry(engines: engines)
    }
}
