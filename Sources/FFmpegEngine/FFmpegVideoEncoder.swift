#if FFmpeg
import Bitstream
import CFFmpeg
import CodecInterface
import MediaCore

/// A libavcodec video encoder (libx264, libx265 or a hardware wrapper) behind ``VideoEncoder``.
///
/// Parameter sets come in-band with every key frame (`AV_CODEC_FLAG_GLOBAL_HEADER` off); packets are
/// converted from Annex B to AVCC with 4-byte lengths, nothing stripped. The codec's time base is one
/// frame (the inverse of the expected frame rate), so the VUI timing signals that rate; the caller's
/// pts and durations are carried through a ``FFmpegTimestampMap``. After ``flush()`` the next
/// ``encode(_:pts:duration:forceKeyFrame:)`` opens a fresh encoder (starting with a key frame), so a
/// session can go on after `CompleteFrames` as with VideoToolbox.
///
/// Holds C pointers: a `final class` whose `deinit` frees them; not `Sendable` (sessions serialise calls).
final class FFmpegVideoEncoder: VideoEncoder {
    private var settings: FFmpegEncoderSettings
    private let codec: UnsafePointer<AVCodec>
    private let inputFormat: AVPixelFormat
    private let hardwareFrames: FFmpegHardwareFrames?
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var timestamps: FFmpegTimestampMap
    private var formatTracker: FFmpegFormatTracker
    private var drained = false
    /// The session's properties as they are now (a rate change updates them).
    private var configuration: CompressionConfiguration
    /// A new rate waits for the next picture: libx265 cannot change its rate while open, so the encoder is drained,
    /// reopened with the new rate, and goes on with a key frame.
    private var reopenPending = false

    /// Opens an encoder.
    /// - Parameters:
    ///   - configuration: the session's properties (checked again here).
    ///   - encoderName: the libavcodec encoder, for example `libx264`.
    ///   - engineName: the engine's name, for errors.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for a configuration no engine could honour;
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` for a property this encoder cannot honour;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message when it cannot be opened.
    init(configuration: CompressionConfiguration, encoderName: String, engineName: String) throws(CodecError) {
        if configuration.codec == .hevc, configuration.entropyMode != nil {
            throw .unsupportedProperty(.entropyMode, reason: "H.265 always uses CABAC", engine: engineName)
        }
        try configuration.validate()
        self.configuration = configuration
        settings = try FFmpegEncoderSettings.make(for: configuration, encoderName: encoderName, engineName: engineName)
        guard let found = avcodec_find_encoder_by_name(encoderName) else {
            throw .noEngine("libavcodec on this machine has no encoder \(encoderName)")
        }
        codec = found
        if FFmpegEncoderFamily(encoderName: encoderName) == .vaapi {
            let frames = try FFmpegHardwareFrames(width: settings.width, height: settings.height)
            hardwareFrames = frames
            inputFormat = frames.softwareFormat
        } else {
            hardwareFrames = nil
            inputFormat = AV_PIX_FMT_YUV420P
        }
        let rate = settings.frameRate
        timestamps = FFmpegTimestampMap(fallbackStep: MediaTime(value: Int64(rate.denominator), timescale: rate.numerator))
        formatTracker = FFmpegFormatTracker(configuration: configuration)
        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw .engineFailure("av_frame_alloc/av_packet_alloc failed")
        }
        self.frame = frame
        self.packet = packet
        frame.pointee.format = inputFormat.rawValue
        frame.pointee.width = settings.width
        frame.pointee.height = settings.height
        try FFmpegStatus.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        context = try openContext()
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Encodes one picture.
    /// - Parameters:
    ///   - picture: the picture, in any of the four layouts; its size must match the configuration.
    ///   - pts: its presentation time.
    ///   - duration: its display duration.
    ///   - forceKeyFrame: make it an IDR picture.
    /// - Returns: the frames the encoder finished, in decode order.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for a picture of the wrong size or with short planes;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func encode(_ picture: PixelBuffer, pts: MediaTime, duration: MediaTime, forceKeyFrame: Bool) throws(CodecError) -> [EncodedFrame] {
        try FFmpegPictureCopy.validate(picture, width: Int(settings.width), height: Int(settings.height))
        var finished: [EncodedFrame] = []
        if reopenPending {
            reopenPending = false
            finished = try flush()
        }
        if drained {
            avcodec_free_context(&context)
            timestamps.removeAll()
            context = try openContext()
            drained = false
        }
        guard let context, let frame else { throw .sessionClosed }
        try FFmpegStatus.check(av_frame_make_writable(frame), "av_frame_make_writable")
        try FFmpegPictureCopy.copy(picture, into: frame)
        frame.pointee.pts = timestamps.register(pts: pts, duration: duration)
        frame.pointee.pict_type = forceKeyFrame ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        frame.pointee.color_range = picture.range == .full ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        let input = try hardwareFrames?.upload(frame) ?? frame
        try FFmpegStatus.check(avcodec_send_frame(context, input), "avcodec_send_frame(\(settings.encoderName))")
        return finished + (try receivePackets())
    }

    /// Drains every picture the encoder still holds.
    /// - Returns: the remaining frames in decode order.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func flush() throws(CodecError) -> [EncodedFrame] {
        guard let context, !drained else { return [] }
        let status = avcodec_send_frame(context, nil)
        if status != FFmpegStatus.endOfFile {
            try FFmpegStatus.check(status, "avcodec_send_frame(\(settings.encoderName), flush)")
        }
        let frames = try receivePackets()
        drained = true
        return frames
    }

    /// Changes the rate control while the encoder runs. libx264 compares `bit_rate`, `rc_max_rate` and
    /// `rc_buffer_size` of the open `AVCodecContext` with its parameters before every picture and calls
    /// `x264_encoder_reconfig` when they differ; NVENC does the same (dynamic bitrate). Other encoders
    /// keep the values they were opened with; libx265 among them is drained at the next picture and opened again with
    /// the new rate, going on from a key frame (what a live encoder built on it does); the others refuse.
    ///
    /// x264 takes a new *average* only through its VBV (its rate control re-reads the average when the VBV's max
    /// rate is at most the average). So a live session opened without data-rate limits runs with max rate =
    /// average and one second of buffer, and each new average moves both; with data-rate limits, the max rate is
    /// held at or below the new average (the tightest limit still caps it), so the output follows the new average
    /// whichever way the session was opened. A session that is not live and has no limits has no VBV, and x264
    /// cannot follow a new average there: that is refused rather than accepted and ignored.
    /// - Parameters:
    ///   - averageBitRate: the new average bit rate in bits per second.
    ///   - dataRateLimits: the new limits; the tightest sets `rc_max_rate` and `rc_buffer_size`.
    /// - Throws: ``CodecError/unsupportedProperty(_:reason:engine:)`` for an encoder that cannot change while
    ///   running, for turning rate control on or off (x264 cannot switch between constant quality and
    ///   ABR, nor turn the VBV on when it was opened without one), and for a new average on an x264 session with
    ///   no VBV.
    func setRateControl(averageBitRate: Int?, dataRateLimits: [DataRateLimit]) throws(CodecError) {
        let family = FFmpegEncoderFamily(encoderName: settings.encoderName)
        if family == .x265 {
            guard (averageBitRate != nil) == (settings.bitRate != nil) else {
                throw .unsupportedProperty(.averageBitRate, reason: "turned \(averageBitRate == nil ? "off" : "on") on a running session "
                    + "(set it when the session is created)", engine: settings.engineName)
            }
            var updated = configuration
            updated.averageBitRate = averageBitRate
            updated.dataRateLimits = dataRateLimits
            settings = try FFmpegEncoderSettings.make(for: updated, encoderName: settings.encoderName, engineName: settings.engineName)
            configuration = updated
            reopenPending = context != nil
            return
        }
        guard family == .x264 || family == .nvenc else {
            throw .unsupportedProperty(.averageBitRate, reason: "averageBitRate/dataRateLimits cannot change on a running session",
                                       engine: settings.engineName)
        }
        guard (averageBitRate != nil) == (settings.bitRate != nil) else {
            throw .unsupportedProperty(.averageBitRate, reason: "turned \(averageBitRate == nil ? "off" : "on") on a running session "
                + "(set it when the session is created)", engine: settings.engineName)
        }
        let tightest = dataRateLimits.min { $0.bitsPerSecond < $1.bitsPerSecond }
        let hasVBV = settings.maxRate != nil
        guard (tightest != nil) == (hasVBV && !settings.vbvFollowsAverage) else {
            throw .unsupportedProperty(.dataRateLimits, reason: "turned \(tightest == nil ? "off" : "on") on a running session "
                + "(set them when the session is created)", engine: settings.engineName)
        }
        if family == .x264, let averageBitRate, Int64(averageBitRate) != settings.bitRate, !hasVBV {
            throw .unsupportedProperty(.averageBitRate, reason: "x264 follows a new average bit rate only with a VBV: "
                + "make the session realTime (live) or give it dataRateLimits", engine: settings.engineName)
        }
        settings.bitRate = averageBitRate.map(Int64.init)
        if let tightest {
            settings.maxRate = Int64(min(tightest.bitsPerSecond, Double(Int32.max)).rounded())
            settings.bufferSize = Int32(clamping: tightest.bytes > Int.max / 8 ? Int.max : tightest.bytes * 8)
            if family == .x264, let average = settings.bitRate, let cap = settings.maxRate, cap > average {
                settings.maxRate = average  // x264's average follows only a max rate at or below it
            }
        } else if settings.vbvFollowsAverage, let average = settings.bitRate {
            settings.maxRate = average
            settings.bufferSize = Int32(clamping: average)
        }
        guard let context else { return }
        if let value = settings.bitRate { context.pointee.bit_rate = value }
        if let value = settings.maxRate { context.pointee.rc_max_rate = value }
        if let value = settings.bufferSize { context.pointee.rc_buffer_size = value }
    }

    // MARK: - Private

    private func openContext() throws(CodecError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let context = avcodec_alloc_context3(codec) else { throw .engineFailure("avcodec_alloc_context3 failed") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        do {
            try configure(context)
            try FFmpegStatus.check(avcodec_open2(context, codec, nil), "avcodec_open2(\(settings.encoderName))")
        } catch {
            avcodec_free_context(&owned)
            throw error
        }
        return context
    }

    private func configure(_ context: UnsafeMutablePointer<AVCodecContext>) throws(CodecError) {
        let rate = settings.frameRate
        context.pointee.width = settings.width
        context.pointee.height = settings.height
        context.pointee.pix_fmt = inputFormat
        context.pointee.framerate = AVRational(num: rate.numerator, den: rate.denominator)
        context.pointee.time_base = AVRational(num: rate.denominator, den: rate.numerator)
        context.pointee.flags &= ~streamkit_codec_flag_global_header()
        context.pointee.thread_count = settings.threadCount
        if let value = settings.gopSize { context.pointee.gop_size = value }
        if let value = settings.keyIntervalMinimum { context.pointee.keyint_min = value }
        if let value = settings.maxBFrames { context.pointee.max_b_frames = value }
        if let value = settings.bitRate { context.pointee.bit_rate = value }
        if let value = settings.maxRate { context.pointee.rc_max_rate = value }
        if let value = settings.bufferSize { context.pointee.rc_buffer_size = value }
        if let value = settings.profile { context.pointee.profile = value }
        if let value = settings.level { context.pointee.level = value }
        try hardwareFrames?.attach(to: context)
        for option in settings.options {
            let status = av_opt_set(context.pointee.priv_data, option.name, option.value, 0)
            if status < 0 {
                throw CodecError.engineFailure("\(settings.encoderName) option \(option.name)=\(option.value): "
                    + FFmpegStatus.message(status))
            }
        }
    }

    private func receivePackets() throws(CodecError) -> [EncodedFrame] {
        guard let context, let packet else { return [] }
        var frames: [EncodedFrame] = []
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { break }
            try FFmpegStatus.check(status, "avcodec_receive_packet(\(settings.encoderName))")
            defer { av_packet_unref(packet) }
            if let frame = try makeFrame(from: packet) { frames.append(frame) }
        }
        return frames
    }

    private func makeFrame(from packet: UnsafeMutablePointer<AVPacket>) throws(CodecError) -> EncodedFrame? {
        let size = Int(packet.pointee.size)
        guard let data = packet.pointee.data, size > 0 else { return nil }
        // The packet is read in place: the AVCC frame is the one copy out of libavcodec's memory.
        let annexB = UnsafeRawBufferPointer(start: data, count: size)
        let ranges = AnnexB.nalUnitRanges(in: annexB)
        let isKeyFrame = packet.pointee.flags & streamkit_pkt_flag_key() != 0
        if isKeyFrame {
            formatTracker.update(withKeyFrame: annexB, nalUnits: ranges)
        }
        let avcc: [UInt8]
        do {
            avcc = try AVCC.avcc(fromAnnexB: annexB, nalUnits: ranges, lengthSize: 4)
        } catch {
            throw .engineFailure("\(settings.encoderName) packet cannot be framed as AVCC: \(error)")
        }
        let noPTS = streamkit_nopts_value()
        let ptsTick = packet.pointee.pts != noPTS ? packet.pointee.pts : packet.pointee.dts
        let dtsTick = packet.pointee.dts != noPTS ? packet.pointee.dts : ptsTick
        let entry = timestamps.entry(for: ptsTick)
        let dts = timestamps.entry(for: dtsTick).pts
        timestamps.forget(below: min(dtsTick, ptsTick))
        return EncodedFrame(data: avcc, isKeyFrame: isKeyFrame, pts: entry.pts, dts: dts, duration: entry.duration,
                            format: formatTracker.current)
    }
}
#endif
