#if FFmpeg
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFFmpeg
import CodecInterface
import MediaCore

/// The libavcodec engines this machine really has.
///
/// Software engines are listed when libavcodec has their encoder and decoder. A hardware engine is
/// listed only when libavcodec has the encoder, the device it needs exists (`/dev/dri/renderD128` for
/// VA-API, `/dev/nvidia0` for NVENC, a `/dev/video*` node for V4L2 M2M) and a small test encoder
/// really opens on it — like `VTIsHardwareDecodeSupported`, a fact, not a guess.
public enum FFmpegEngines {
    /// The hardware encoders probed, with their codec.
    public static let hardwareEncoders: [(name: String, codec: CodecType)] = [
        ("h264_vaapi", .h264), ("hevc_vaapi", .hevc), ("h264_nvenc", .h264), ("hevc_nvenc", .hevc),
        ("h264_v4l2m2m", .h264), ("hevc_v4l2m2m", .hevc),
    ]

    /// The engines available on this machine: hardware ones first (in ``hardwareEncoders`` order),
    /// then "x264", "x265", "aac" and "opus" when libavcodec has them. Probed once per process; the first call
    /// also lowers libav*'s log level to errors only, so encoders do not chatter on standard error.
    /// - Returns: the engines.
    public static func probe() -> [any CodecEngine] {
        discovered
    }

    private static let discovered: [FFmpegCodecEngine] = discover()

    private static func discover() -> [FFmpegCodecEngine] {
        av_log_set_level(AV_LOG_ERROR)
        var engines: [FFmpegCodecEngine] = []
        for (name, codec) in hardwareEncoders where hardwareWorks(name) {
            engines.append(FFmpegCodecEngine(
                name: name, isHardware: true,
                summary: "\(name): \(codec == .h264 ? "H.264" : "H.265") hardware encoder (\(api(of: name)))",
                capabilities: [EngineCapability(codec: codec, canEncode: true, canDecode: false)],
                videoEncoderName: name))
        }
        let software: [(name: String, encoder: String, codec: CodecType, decoder: AVCodecID, summary: String)] = [
            ("x264", "libx264", .h264, AV_CODEC_ID_H264, "libx264 H.264 encoder + FFmpeg h264 decoder (software)"),
            ("x265", "libx265", .hevc, AV_CODEC_ID_HEVC, "libx265 H.265 encoder + FFmpeg hevc decoder (software)"),
            ("aac", "aac", .aac, AV_CODEC_ID_AAC, "FFmpeg native AAC-LC encoder + aac decoder (software)"),
            ("opus", "libopus", .opus, AV_CODEC_ID_OPUS, "libopus Opus encoder + FFmpeg opus decoder (software)"),
        ]
        for entry in software {
            let canEncode = avcodec_find_encoder_by_name(entry.encoder) != nil
            let canDecode = avcodec_find_decoder(entry.decoder) != nil
            guard canEncode || canDecode else { continue }
            engines.append(FFmpegCodecEngine(
                name: entry.name, isHardware: false, summary: entry.summary,
                capabilities: [EngineCapability(codec: entry.codec, canEncode: canEncode, canDecode: canDecode)],
                videoEncoderName: entry.codec.isVideo ? entry.encoder : nil))
        }
        return engines
    }

    private static func api(of name: String) -> String {
        if name.hasSuffix("_vaapi") { return "VA-API" }
        if name.hasSuffix("_nvenc") { return "NVENC" }
        return "V4L2 M2M"
    }

    /// Whether a hardware encoder exists in libavcodec, its device is present, and it really opens.
    private static func hardwareWorks(_ name: String) -> Bool {
        guard let codec = avcodec_find_encoder_by_name(name), devicePresent(for: name) else { return false }
        let level = av_log_get_level()
        av_log_set_level(AV_LOG_QUIET)
        defer { av_log_set_level(level) }
        var frames: FFmpegHardwareFrames?
        if name.hasSuffix("_vaapi") {
            guard let made = try? FFmpegHardwareFrames(width: 320, height: 240) else { return false }
            frames = made
        }
        guard let context = avcodec_alloc_context3(codec) else { return false }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&owned) }
        context.pointee.width = 320
        context.pointee.height = 240
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: 30)
        context.pointee.framerate = AVRational(num: 30, den: 1)
        if let frames {
            guard (try? frames.attach(to: context)) != nil else { return false }
        }
        return avcodec_open2(context, codec, nil) >= 0
    }

    private static func devicePresent(for name: String) -> Bool {
        if name.hasSuffix("_vaapi") { return access(FFmpegHardwareFrames.renderNode, R_OK | W_OK) == 0 }
        if name.hasSuffix("_nvenc") { return access("/dev/nvidia0", F_OK) == 0 || access("/dev/nvidiactl", F_OK) == 0 }
        return (0..<64).contains { access("/dev/video\($0)", R_OK | W_OK) == 0 }
    }
}
#endif
