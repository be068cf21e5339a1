#if FFmpeg
import Bitstream
import CFFmpeg
import CodecInterface
import MediaCore

/// FFmpeg's own H.264 or H.265 decoder behind ``VideoDecoder`` — bit-exact with `ffmpeg -i`.
///
/// Each ``EncodedFrame`` (one access unit in AVCC form) is sent as Annex B; the parameter sets of its
/// ``FormatDescription`` go in front whenever they change (and on the first frame). Pictures come out
/// in display order, cropped exactly as the SPS says (`AV_CODEC_FLAG_UNALIGNED`, so an odd left crop is
/// not rounded), in the layout asked for; 8-bit 4:2:0 is copied sample for sample, any other decoded
/// format (10-bit, 4:2:2 …) is converted to 8-bit 4:2:0 with swscale (bicubic, as `ffmpeg` does).
///
/// Holds C pointers: a `final class` whose `deinit` frees them; not `Sendable` (sessions serialise calls).
final class FFmpegVideoDecoder: VideoDecoder {
    private let codecType: CodecType
    private let output: PixelFormat
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var converted: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    private var timestamps: FFmpegTimestampMap
    private var sentParameterSets: [[UInt8]] = []
    private var drained = false

    /// Opens a decoder.
    /// - Parameters:
    ///   - format: the stream's format; its parameter sets are sent before the first frame.
    ///   - output: the layout of the pictures to return.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for a codec that is not video;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message when the decoder cannot be opened.
    init(format: FormatDescription, output: PixelFormat) throws(CodecError) {
        let identifier: AVCodecID
        switch format.codec {
        case .h264: identifier = AV_CODEC_ID_H264
        case .hevc: identifier = AV_CODEC_ID_HEVC
        case .aac, .opus: throw .inputMismatch("a video decoder cannot decode \(format.codec.rawValue)")
        }
        guard let codec = avcodec_find_decoder(identifier) else {
            throw .noEngine("libavcodec on this machine has no \(format.codec.rawValue) decoder")
        }
        codecType = format.codec
        self.output = output
        timestamps = FFmpegTimestampMap(fallbackStep: MediaTime(value: 1, timescale: 30))
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(),
              let packet = av_packet_alloc(), let converted = av_frame_alloc() else {
            throw .engineFailure("libavcodec could not allocate a decoder")
        }
        self.context = context
        self.frame = frame
        self.packet = packet
        self.converted = converted
        context.pointee.flags |= streamkit_codec_flag_unaligned()
        // Slice threads only: with frame threads libavcodec reports a bad frame one call per thread later,
        // against another frame; a session must name the frame that failed (and stop at it).
        context.pointee.thread_count = 0
        context.pointee.thread_type = streamkit_thread_slice()
        if format.codec == .h264 {
            // Without VUI bitstream_restriction the decoder cannot know how far pictures are reordered; in
            // its default mode it guesses low and drops pictures that turn out late. Strict compliance makes
            // it assume the largest reorder depth (as ITU-T H.264 C.4.5.3 bumping does), so every picture
            // comes out, in order — what `ffmpeg -i` achieves by probing the stream first.
            context.pointee.strict_std_compliance = 1  // FF_COMPLIANCE_STRICT
        }
        try FFmpegStatus.check(avcodec_open2(context, codec, nil), "avcodec_open2(\(format.codec.rawValue) decoder)")
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_frame_free(&converted)
        av_packet_free(&packet)
        sws_freeContext(scaler)
    }

    /// Decodes one access unit.
    /// - Parameter encoded: the frame, NAL units in AVCC form.
    /// - Returns: the pictures that became ready, in display order.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for another codec or malformed AVCC framing (naming the
    ///   NAL unit and byte offset); ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func decode(_ encoded: EncodedFrame) throws(CodecError) -> [DecodedPicture] {
        guard encoded.codec == codecType else {
            throw .inputMismatch("frame is \(encoded.codec.rawValue), decoder is \(codecType.rawValue)")
        }
        guard let context, let packet else { throw .sessionClosed }
        if drained {
            avcodec_flush_buffers(context)
            sentParameterSets = []
            drained = false
        }
        let ranges: [Range<Int>]
        do {
            ranges = try AVCC.nalUnitRanges(in: encoded.data, lengthSize: encoded.format.nalUnitLengthSize)
        } catch {
            throw .inputMismatch("frame at pts \(encoded.pts): \(error)")
        }
        let prefix = encoded.format.parameterSets == sentParameterSets ? [] : encoded.format.parameterSets
        var total = 0
        for set in prefix { total += 4 + set.count }
        for range in ranges { total += 4 + range.count }
        guard total > 0, total <= Int(Int32.max) - Int(streamkit_input_buffer_padding_size()) else {
            return []
        }
        try FFmpegStatus.check(av_new_packet(packet, Int32(total)), "av_new_packet")
        defer { av_packet_unref(packet) }
        guard let destination = packet.pointee.data else { throw .engineFailure("av_new_packet returned no data") }
        var position = 0
        func put<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            (destination + position).initialize(repeating: 0, count: 3)
            destination[position + 3] = 1
            position += 4
            let target = UnsafeMutableBufferPointer(start: destination + position, count: bytes.count)
            _ = target.initialize(fromContentsOf: bytes)
            position += bytes.count
        }
        for set in prefix { put(set) }
        encoded.data.withUnsafeBufferPointer { source in
            for range in ranges { put(UnsafeBufferPointer(rebasing: source[range])) }
        }
        sentParameterSets = encoded.format.parameterSets
        let tick = timestamps.register(pts: encoded.pts, duration: encoded.duration)
        packet.pointee.pts = tick
        packet.pointee.dts = streamkit_nopts_value()
        if encoded.isKeyFrame { packet.pointee.flags |= streamkit_pkt_flag_key() }
        var pictures: [DecodedPicture] = []
        var status = avcodec_send_packet(context, packet)
        if status == FFmpegStatus.again {
            pictures += try receivePictures()
            status = avcodec_send_packet(context, packet)
        }
        try FFmpegStatus.check(status, "avcodec_send_packet(\(codecType.rawValue) decoder)")
        pictures += try receivePictures()
        return pictures
    }

    /// Returns every picture the decoder still holds.
    /// - Returns: the remaining pictures in display order.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func flush() throws(CodecError) -> [DecodedPicture] {
        guard let context, !drained else { return [] }
        let status = avcodec_send_packet(context, nil)
        if status != FFmpegStatus.endOfFile {
            try FFmpegStatus.check(status, "avcodec_send_packet(\(codecType.rawValue) decoder, flush)")
        }
        let pictures = try receivePictures()
        drained = true
        timestamps.removeAll()
        return pictures
    }

    // MARK: - Private

    private func receivePictures() throws(CodecError) -> [DecodedPicture] {
        guard let context, let frame else { return [] }
        var pictures: [DecodedPicture] = []
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { break }
            try FFmpegStatus.check(status, "avcodec_receive_frame(\(codecType.rawValue) decoder)")
            defer { av_frame_unref(frame) }
            let noPTS = streamkit_nopts_value()
            let tick = frame.pointee.pts != noPTS ? frame.pointee.pts : frame.pointee.best_effort_timestamp
            let pts = timestamps.entry(for: tick).pts
            timestamps.forget(tick)
            timestamps.forget(below: tick - 64)
            pictures.append(DecodedPicture(picture: try picture(from: frame), pts: pts))
        }
        return pictures
    }

    private func picture(from frame: UnsafeMutablePointer<AVFrame>) throws(CodecError) -> PixelBuffer {
        let format = frame.pointee.format
        let direct = [AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_NV12, AV_PIX_FMT_NV21].map(\.rawValue)
        if direct.contains(format) { return try FFmpegPictureCopy.picture(from: frame, format: output) }
        guard let converted else { throw .sessionClosed }
        let width = frame.pointee.width, height = frame.pointee.height
        scaler = sws_getCachedContext(scaler, width, height, AVPixelFormat(rawValue: format),
                                      width, height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
        guard scaler != nil else {
            throw .engineFailure("swscale cannot convert \(FFmpegPictureCopy.pixelFormatName(format)) to yuv420p")
        }
        av_frame_unref(converted)
        converted.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        converted.pointee.width = width
        converted.pointee.height = height
        try FFmpegStatus.check(av_frame_get_buffer(converted, 0), "av_frame_get_buffer")
        try FFmpegStatus.check(sws_scale_frame(scaler, converted, frame), "sws_scale_frame")
        converted.pointee.color_range = frame.pointee.color_range
        return try FFmpegPictureCopy.picture(from: converted, format: output)
    }
}
#endif
