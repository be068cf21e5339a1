#if FFmpeg
import CFFmpeg
import CodecInterface
import MediaCore

/// FFmpeg's AAC or Opus decoder behind ``AudioDecoder``: raw access units in, PCM out (Float32 planar, the
/// decoders' native `fltp`). The format's decoder configuration is the decoder's extradata: the
/// AudioSpecificConfig for AAC, the "OpusHead" identification header (RFC 7845 §5.1) for Opus — without one,
/// FFmpeg's `opus` decoder assumes the channel count given and no pre-skip.
///
/// Holds C pointers: a `final class` whose `deinit` frees them; not `Sendable` (sessions serialise calls).
final class FFmpegAudioDecoder: AudioDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var drained = false
    /// The codec's name, for messages.
    private let name: String

    /// Opens the decoder.
    /// - Parameter format: the stream's format with its AudioSpecificConfig.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for a codec other than AAC and Opus;
    ///   ``CodecError/engineFailure(_:)`` with FFmpeg's message when it cannot be opened.
    init(format: AudioFormatDescription) throws(CodecError) {
        let identifier: AVCodecID
        switch format.codec {
        case .aac: identifier = AV_CODEC_ID_AAC
        case .opus: identifier = AV_CODEC_ID_OPUS
        case .h264, .hevc: throw .inputMismatch("an audio decoder cannot decode \(format.codec.rawValue)")
        }
        name = format.codec.rawValue
        guard let codec = avcodec_find_decoder(identifier) else {
            throw .noEngine("libavcodec on this machine has no \(name) decoder")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw .engineFailure("libavcodec could not allocate an \(name) decoder")
        }
        self.context = context
        self.frame = frame
        self.packet = packet
        context.pointee.sample_rate = Int32(clamping: format.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(clamping: format.channelCount))
        let config = format.audioSpecificConfig
        if !config.isEmpty {
            let padding = Int(streamkit_input_buffer_padding_size())
            guard let raw = av_mallocz(config.count + padding) else { throw .engineFailure("av_mallocz failed") }
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            config.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { bytes.update(from: base, count: source.count) }
            }
            context.pointee.extradata = bytes
            context.pointee.extradata_size = Int32(config.count)
        }
        try FFmpegStatus.check(avcodec_open2(context, codec, nil), "avcodec_open2(\(name) decoder)")
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Decodes one access unit.
    /// - Parameter encoded: a raw AAC frame or one Opus packet.
    /// - Returns: the PCM that became ready.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message for data it cannot decode.
    func decode(_ encoded: EncodedAudioFrame) throws(CodecError) -> [AudioBuffer] {
        guard let context, let packet else { throw .sessionClosed }
        if drained {
            avcodec_flush_buffers(context)
            drained = false
        }
        guard !encoded.data.isEmpty, encoded.data.count < Int(Int32.max) / 2 else { return [] }
        try FFmpegStatus.check(av_new_packet(packet, Int32(encoded.data.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        guard let destination = packet.pointee.data else { throw .engineFailure("av_new_packet returned no data") }
        encoded.data.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { destination.update(from: base, count: source.count) }
        }
        packet.pointee.pts = encoded.pts.value
        var buffers: [AudioBuffer] = []
        var status = avcodec_send_packet(context, packet)
        if status == FFmpegStatus.again {
            buffers += try receive()
            status = avcodec_send_packet(context, packet)
        }
        try FFmpegStatus.check(status, "avcodec_send_packet(\(name) decoder)")
        buffers += try receive()
        return buffers
    }

    /// Returns whatever the decoder still holds.
    /// - Returns: the remaining PCM.
    /// - Throws: ``CodecError/engineFailure(_:)`` with FFmpeg's message.
    func flush() throws(CodecError) -> [AudioBuffer] {
        guard let context, !drained else { return [] }
        let status = avcodec_send_packet(context, nil)
        if status != FFmpegStatus.endOfFile { try FFmpegStatus.check(status, "avcodec_send_packet(\(name) decoder, flush)") }
        let buffers = try receive()
        drained = true
        return buffers
    }

    private func receive() throws(CodecError) -> [AudioBuffer] {
        guard let context, let frame else { return [] }
        var buffers: [AudioBuffer] = []
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { break }
            try FFmpegStatus.check(status, "avcodec_receive_frame(\(name) decoder)")
            defer { av_frame_unref(frame) }
            buffers.append(try FFmpegSampleConversion.audioBuffer(from: frame))
        }
        return buffers
    }
}
#endif
