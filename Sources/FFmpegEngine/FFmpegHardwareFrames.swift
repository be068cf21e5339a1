#if FFmpeg
import CFFmpeg
import CodecInterface

/// A VA-API device and a pool of hardware surfaces for one encoder: software pictures are uploaded
/// into a surface (`av_hwframe_transfer_data`) before they are sent.
///
/// Holds C references: a `final class` whose `deinit` releases them; not `Sendable` (one encoder uses it).
final class FFmpegHardwareFrames {
    /// The DRM render node VA-API opens.
    static let renderNode = "/dev/dri/renderD128"

    private var device: UnsafeMutablePointer<AVBufferRef>?
    private var frames: UnsafeMutablePointer<AVBufferRef>?
    private var surface: UnsafeMutablePointer<AVFrame>?

    /// The software layout pictures are uploaded from.
    let softwareFormat = AV_PIX_FMT_NV12

    /// Opens the device and creates a surface pool.
    /// - Parameters:
    ///   - width: the picture width.
    ///   - height: the picture height.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message when the device or pool cannot be made.
    init(width: Int32, height: Int32) throws(CodecError) {
        var created: UnsafeMutablePointer<AVBufferRef>?
        try FFmpegStatus.check(av_hwdevice_ctx_create(&created, AV_HWDEVICE_TYPE_VAAPI, Self.renderNode, nil, 0),
                               "av_hwdevice_ctx_create(vaapi, \(Self.renderNode))")
        device = created
        guard let pool = av_hwframe_ctx_alloc(created) else { throw .engineFailure("av_hwframe_ctx_alloc failed") }
        frames = pool
        guard let raw = pool.pointee.data else { throw .engineFailure("av_hwframe_ctx_alloc returned no context") }
        let context = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: AVHWFramesContext.self)
        context.pointee.format = AV_PIX_FMT_VAAPI
        context.pointee.sw_format = softwareFormat
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.initial_pool_size = 20
        try FFmpegStatus.check(av_hwframe_ctx_init(pool), "av_hwframe_ctx_init(vaapi)")
        guard let frame = av_frame_alloc() else { throw .engineFailure("av_frame_alloc failed") }
        surface = frame
    }

    deinit {
        av_frame_free(&surface)
        av_buffer_unref(&frames)
        av_buffer_unref(&device)
    }

    /// Gives an encoder context the surface pool (before `avcodec_open2`).
    /// - Parameter context: the encoder context.
    /// - Throws: ``CodecError/engineFailure(_:)`` if the reference cannot be made.
    func attach(to context: UnsafeMutablePointer<AVCodecContext>) throws(CodecError) {
        context.pointee.pix_fmt = AV_PIX_FMT_VAAPI
        guard let reference = av_buffer_ref(frames) else { throw .engineFailure("av_buffer_ref(hw_frames_ctx) failed") }
        context.pointee.hw_frames_ctx = reference
    }

    /// Uploads a software picture into a fresh surface.
    /// - Parameter software: the picture in ``softwareFormat``, with pts and picture type set.
    /// - Returns: the surface to send; it stays valid until the next upload.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func upload(_ software: UnsafeMutablePointer<AVFrame>) throws(CodecError) -> UnsafeMutablePointer<AVFrame> {
        guard let surface, let frames else { throw .engineFailure("the VA-API surface pool is gone") }
        av_frame_unref(surface)
        try FFmpegStatus.check(av_hwframe_get_buffer(frames, surface, 0), "av_hwframe_get_buffer(vaapi)")
        try FFmpegStatus.check(av_hwframe_transfer_data(surface, software, 0), "av_hwframe_transfer_data(vaapi)")
        try FFmpegStatus.check(av_frame_copy_props(surface, software), "av_frame_copy_props")
        return surface
    }
}
#endif
