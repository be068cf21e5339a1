import AAC
import CodecInterface
import MediaCore

/// ``NativeAACEncoder`` behind CodecInterface's ``AudioEncoder``: PCM of any length and layout in, raw
/// AAC-LC access units out — what FFmpeg's `aac` engine gives, so sessions and writers treat both alike.
///
/// The first frame's pts is −1024 (the priming, ``NativeAACEncoder/encoderDelay``, also in the
/// format's `encoderDelay`); after ``flush()`` the next ``encode(_:)`` starts a new stream (priming
/// again) and the time line continues.
public final class NativeAACAudioEncoder: AudioEncoder {
    /// The format of the frames produced (rate, channels, AudioSpecificConfig, encoder delay).
    public let format: AudioFormatDescription
    private var encoder: NativeAACEncoder
    /// Input samples before the current stream (its first frame's pts is this less the priming).
    private var streamStart: Int64 = 0
    private var framesInStream: Int64 = 0
    private var samplesIn: Int64 = 0

    /// Opens an encoder.
    /// - Parameter configuration: sample rate, channels (1–6 or 8) and bit rate.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for values AAC cannot carry.
    public init(configuration: AudioEncoderConfiguration) throws(CodecError) {
        try configuration.validate()
        do {
            encoder = try NativeAACEncoder(sampleRate: configuration.sampleRate, channelCount: configuration.channelCount,
                                           bitRate: configuration.bitRate)
        } catch {
            throw .invalidConfiguration(property: .channelCount, reason: "\(error)")
        }
        let config = (try? encoder.audioSpecificConfig.serialized()) ?? []
        format = AudioFormatDescription(codec: .aac, sampleRate: configuration.sampleRate, channelCount: configuration.channelCount,
                                        profile: "LC", audioSpecificConfig: config, samplesPerFrame: NativeAACEncoder.frameLength,
                                        encoderDelay: NativeAACEncoder.encoderDelay)
    }

    /// The target bit rate, bits per second.
    public var bitRate: Int { encoder.bitRate }

    /// Changes the bit rate of the running encoder (live reconfiguration); it applies from the next frame.
    /// - Parameter bitRate: bits per second, positive.
    /// - Throws: ``CodecError/invalidConfiguration(property:reason:)`` for a rate of zero or less.
    public func setBitRate(_ bitRate: Int) throws(CodecError) {
        guard bitRate > 0 else { throw .invalidConfiguration(property: .bitRate, reason: "must be positive, got \(bitRate)") }
        encoder.setBitRate(bitRate)
    }

    /// Encodes PCM.
    /// - Parameter audio: samples at the configured rate and channel count, Int16 or Float32, any layout.
    /// - Returns: the frames that became ready.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for another rate or channel count.
    public func encode(_ audio: AudioBuffer) throws(CodecError) -> [EncodedAudioFrame] {
        guard audio.sampleRate == format.sampleRate, audio.channelCount == format.channelCount else {
            throw .inputMismatch("audio is \(audio.sampleRate) Hz × \(audio.channelCount), encoder is "
                + "\(format.sampleRate) Hz × \(format.channelCount)")
        }
        samplesIn += Int64(audio.frameCount)
        return wrap(encoder.encode(audio.planarFloat32))
    }

    /// Encodes the buffered tail and drains the encoder.
    /// - Returns: the remaining frames.
    /// - Throws: never; the signature is the protocol's.
    public func flush() throws(CodecError) -> [EncodedAudioFrame] {
        guard samplesIn > streamStart else { return [] }
        let frames = wrap(encoder.flush())
        // A new stream follows: its priming starts where this stream's input ended.
        streamStart = samplesIn
        framesInStream = 0
        return frames
    }

    private func wrap(_ blocks: [[UInt8]]) -> [EncodedAudioFrame] {
        let rate = Int32(format.sampleRate)
        return blocks.map { block in
            let pts = streamStart + Int64(NativeAACEncoder.frameLength) * framesInStream - Int64(NativeAACEncoder.encoderDelay)
            framesInStream += 1
            return EncodedAudioFrame(data: block, pts: MediaTime(value: pts, timescale: rate),
                                     duration: MediaTime(value: Int64(NativeAACEncoder.frameLength), timescale: rate), format: format)
        }
    }
}
