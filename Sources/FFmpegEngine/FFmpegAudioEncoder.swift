#if FFmpeg
import AAC
import CFFmpeg
import CodecInterface
import MediaCore

/// FFmpeg's native AAC-LC encoder (`aac`) or libopus (`libopus`) behind ``AudioEncoder``.
///
/// PCM of any length, layout and sample format (Int16 or Float32, interleaved or planar) is buffered
/// as planar floats and cut into the encoder's frames (1024 samples for AAC, 960 — 20 ms at 48 kHz — for
/// Opus); ``flush()`` sends the tail (as a short last frame, which the encoder pads with silence) and
/// drains. Output is raw AAC (no ADTS) or one Opus packet (RFC 6716 §3) per frame, with the pts the encoder
/// gives, in samples: the first frame starts at minus the encoder's priming delay (`initial_padding`: 1024
/// for `aac`; libopus's pre-skip, 312 at 48 kHz, RFC 7845 §4.2). After ``flush()`` the next
/// ``encode(_:)`` opens a fresh encoder and the time line continues.
///
/// Holds C pointers: a `final class` whose `deinit` frees them; not `Sendable` (sessions serialise calls).
final class FFmpegAudioEncoder: AudioEncoder {
    /// The format of the frames produced (rate, channels, AudioSpecificConfig from the encoder).
    let format: AudioFormatDescription

    private var configuration: AudioEncoderConfiguration
    private let codec: UnsafePointer<AVCodec>
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var pending: [[Float]]
    private var samplesSent: Int64 = 0
    private var frameSize = 1024
    private var drained = false

    /// Opens the encoder.
    /// - Parameter configuration: sample rate, channels and bit rate (checked again here).
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for values AAC cannot carry;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message when it cannot be opened.
    init(configuration: AudioEncoderConfiguration) throws(CodecError) {
        try configuration.validate()
        let encoderName = Self.encoderName(for: configuration.codec)
        guard let found = avcodec_find_encoder_by_name(encoderName) else {
            throw .noEngine("libavcodec on this machine has no \(encoderName) encoder")
        }
        self.configuration = configuration
        codec = found
        pending = Array(repeating: [], count: configuration.channelCount)
        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw .engineFailure("av_frame_alloc/av_packet_alloc failed")
        }
        self.frame = frame
        self.packet = packet
        let context = try Self.openContext(codec: found, configuration: configuration)
        self.context = context
        frameSize = context.pointee.frame_size > 0 ? Int(context.pointee.frame_size) : 1024
        var config: [UInt8] = []
        if let extradata = context.pointee.extradata, context.pointee.extradata_size > 0 {
            config = Array(UnsafeBufferPointer(start: extradata, count: Int(context.pointee.extradata_size)))
        }
        // Opus: the extradata is the identification header "OpusHead" (RFC 7845 §5.1), the decoder's configuration.
        let profile = configuration.codec == .opus ? "Opus" : (try? AudioSpecificConfig.parse(config))?.profileName ?? "LC"
        format = AudioFormatDescription(codec: configuration.codec, sampleRate: configuration.sampleRate,
                                        channelCount: configuration.channelCount, profile: profile,
                                        audioSpecificConfig: config, samplesPerFrame: frameSize,
                                        encoderDelay: max(0, Int(context.pointee.initial_padding)))
        frame.pointee.format = Self.sampleFormat(for: configuration.codec).rawValue
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.sample_rate = Int32(configuration.sampleRate)
        try FFmpegStatus.check(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout),
                               "av_channel_layout_copy")
        try FFmpegStatus.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer(audio)")
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Encodes PCM.
    /// - Parameter audio: samples at the configured rate and channel count, any length and layout.
    /// - Returns: the frames that became ready.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for another rate or channel count or short sample
    ///   arrays; ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func encode(_ audio: AudioBuffer) throws(CodecError) -> [EncodedAudioFrame] {
        guard audio.sampleRate == configuration.sampleRate, audio.channelCount == configuration.channelCount else {
            throw .inputMismatch("audio is \(audio.sampleRate) Hz × \(audio.channelCount), encoder is "
                + "\(configuration.sampleRate) Hz × \(configuration.channelCount)")
        }
        if drained {
            avcodec_free_context(&context)
            context = try Self.openContext(codec: codec, configuration: configuration)
            drained = false
        }
        try FFmpegSampleConversion.appendPlanarFloat(from: audio, to: &pending)
        var frames: [EncodedAudioFrame] = []
        var consumed = 0
        let available = pending.first?.count ?? 0
        while available - consumed >= frameSize {
            try send(from: consumed, count: frameSize)
            consumed += frameSize
            frames += try receivePackets()
        }
        if consumed > 0 {
            for channel in pending.indices { pending[channel].removeFirst(consumed) }
        }
        return frames
    }

    /// Encodes the buffered tail (padded with silence to a whole frame) and drains the encoder.
    /// - Returns: the remaining frames.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func flush() throws(CodecError) -> [EncodedAudioFrame] {
        guard let context, !drained else { return [] }
        var frames: [EncodedAudioFrame] = []
        let remaining = pending.first?.count ?? 0
        if remaining > 0 {
            let small = codec.pointee.capabilities & streamkit_codec_cap_small_last_frame() != 0
            if !small {
                for channel in pending.indices {
                    pending[channel] += [Float](repeating: 0, count: frameSize - remaining)
                }
            }
            try send(from: 0, count: small ? remaining : frameSize)
            frames += try receivePackets()
            for channel in pending.indices { pending[channel].removeAll(keepingCapacity: true) }
        }
        let status = avcodec_send_frame(context, nil)
        if status != FFmpegStatus.endOfFile {
            try FFmpegStatus.check(status, "avcodec_send_frame(\(Self.encoderName(for: configuration.codec)), flush)")
        }
        frames += try receivePackets()
        drained = true
        return frames
    }

    /// Changes the target rate while the encoder runs, without reopening it. Opus cannot: FFmpeg's `libopus`
    /// wrapper (5.1) hands libopus its rate once, when it opens (128 → 24 kbit/s measured: 131 kbit/s before
    /// and 131 after, FFmpegOpusTests), and a reopen would restart the stream with a second pre-skip; the rate is
    /// refused with ``CodecError/unsupportedProperty(_:reason:engine:)`` and stays. AAC: FFmpeg's `aac` reads
    /// `AVCodecContext.bit_rate` again for every frame (the bits its rate loop aims at and its coder's bandwidth),
    /// so the open context is given the new value and the next frame follows it; the stream goes on without a
    /// break (no second priming, which a reopen would add). Its psychoacoustic model keeps the bit budget it
    /// was opened with, so the new rate is met less tightly than at opening (FFmpeg 5.1, 128 → 32 kbit/s
    /// stereo: 34.1 kbit/s after the switch, AudioRateChangeTests). After a ``flush()`` the encoder opens again
    /// with the new rate.
    /// - Parameter bitRate: bits per second, positive.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for a rate of zero or less;
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` for Opus.
    func setBitRate(_ bitRate: Int) throws(CodecError) {
        var updated = configuration
        updated.bitRate = bitRate
        try updated.validate()
        if configuration.codec == .opus, bitRate != configuration.bitRate {
            throw .unsupportedProperty(.bitRate, reason: "FFmpeg's libopus wrapper sets the rate only when it opens; "
                                       + "reopening would restart the stream with a second pre-skip", engine: "opus")
        }
        configuration = updated
        context?.pointee.bit_rate = Int64(bitRate)
    }

    // MARK: - Private

    /// The libavcodec encoder for a codec.
    private static func encoderName(for codec: CodecType) -> String {
        codec == .opus ? "libopus" : "aac"
    }

    /// The sample layout the encoder takes: planar floats for `aac`, interleaved floats for `libopus`
    /// (it has no planar input).
    private static func sampleFormat(for codec: CodecType) -> AVSampleFormat {
        codec == .opus ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_FLTP
    }

    private static func openContext(codec: UnsafePointer<AVCodec>,
                                    configuration: AudioEncoderConfiguration) throws(CodecError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let context = avcodec_alloc_context3(codec) else { throw .engineFailure("avcodec_alloc_context3 failed") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        context.pointee.sample_fmt = sampleFormat(for: configuration.codec)
        context.pointee.sample_rate = Int32(configuration.sampleRate)
        context.pointee.bit_rate = Int64(configuration.bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(configuration.sampleRate))
        // The AudioSpecificConfig is wanted as extradata; raw AAC packets are the same either way.
        context.pointee.flags |= streamkit_codec_flag_global_header()
        av_channel_layout_default(&context.pointee.ch_layout, Int32(configuration.channelCount))
        let status = avcodec_open2(context, codec, nil)
        if status < 0 {
            avcodec_free_context(&owned)
            throw .engineFailure("avcodec_open2(\(encoderName(for: configuration.codec))): \(FFmpegStatus.message(status))")
        }
        return context
    }

    private func send(from offset: Int, count: Int) throws(CodecError) {
        guard let context, let frame else { throw .sessionClosed }
        // Writable at full size first (a copy made by av_frame_make_writable takes nb_samples from the frame).
        frame.pointee.nb_samples = Int32(frameSize)
        try FFmpegStatus.check(av_frame_make_writable(frame), "av_frame_make_writable(audio)")
        frame.pointee.nb_samples = Int32(min(count, frameSize))
        guard let planes = frame.pointee.extended_data else { throw .engineFailure("audio frame has no planes") }
        if frame.pointee.format == AV_SAMPLE_FMT_FLT.rawValue {
            // Interleaved (libopus): one plane, the channels' samples alternating.
            guard let plane = planes[0] else { throw .engineFailure("audio frame has no plane 0") }
            let target = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            let channels = pending.count
            for channel in pending.indices {
                pending[channel].withUnsafeBufferPointer { source in
                    guard offset + count <= source.count else { return }
                    for index in 0..<count { target[index * channels + channel] = source[offset + index] }
                }
            }
        } else {
            try copyPlanar(to: planes, from: offset, count: count)
        }
        frame.pointee.pts = samplesSent
        samplesSent += Int64(count)
        try FFmpegStatus.check(avcodec_send_frame(context, frame), "avcodec_send_frame(\(Self.encoderName(for: configuration.codec)))")
    }

    private func copyPlanar(to planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, from offset: Int,
                            count: Int) throws(CodecError) {
        for channel in pending.indices {
            guard let plane = planes[channel] else { throw .engineFailure("audio frame has no plane \(channel)") }
            let target = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            pending[channel].withUnsafeBufferPointer { source in
                guard let base = source.baseAddress, offset + count <= source.count else { return }
                target.update(from: base + offset, count: count)
            }
        }
    }

    private func receivePackets() throws(CodecError) -> [EncodedAudioFrame] {
        guard let context, let packet else { return [] }
        var frames: [EncodedAudioFrame] = []
        let rate = Int32(configuration.sampleRate)
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { break }
            try FFmpegStatus.check(status, "avcodec_receive_packet(\(Self.encoderName(for: configuration.codec)))")
            defer { av_packet_unref(packet) }
            guard let data = packet.pointee.data, packet.pointee.size > 0 else { continue }
            let bytes = [UInt8](UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
            let duration = packet.pointee.duration > 0 ? packet.pointee.duration : Int64(frameSize)
            frames.append(EncodedAudioFrame(data: bytes, pts: MediaTime(value: packet.pointee.pts, timescale: rate),
                                            duration: MediaTime(value: duration, timescale: rate), format: format))
        }
        return frames
    }
}
#endif
