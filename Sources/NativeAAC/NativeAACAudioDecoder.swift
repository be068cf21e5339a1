import AAC
import CodecInterface
import MediaCore

/// ``NativeAACDecoder`` behind CodecInterface's ``AudioDecoder``: raw AAC-LC access units in, 32-bit
/// float planar PCM out (what FFmpeg's decoder gives, so sessions and writers treat both alike).
///
/// A damaged access unit does not stop the session: its 1024 samples are concealed and the frame is
/// listed in ``concealedFrames`` with the reason, so the timeline never has a gap.
public final class NativeAACAudioDecoder: AudioDecoder {
    /// A frame whose output was concealed, and why.
    public struct ConcealedFrame: Sendable, Equatable {
        /// The frame's presentation time.
        public var pts: MediaTime
        /// The frame's position among the frames given to ``decode(_:)`` (0 for the first).
        public var index: Int
        /// Why it could not be decoded.
        public var error: NativeAACError
    }

    private var decoder: NativeAACDecoder
    private var index = 0
    /// Every frame concealed so far, in order.
    public private(set) var concealedFrames: [ConcealedFrame] = []

    /// Opens a decoder for a stream.
    /// - Parameter format: the stream's format; its AudioSpecificConfig when present, else its sampling
    ///   rate and channel count (channel configurations 1–7) describe the stream.
    /// - Throws: ``CodecError/inputMismatch(_:)`` for a codec other than AAC,
    ///   ``CodecError/unsupportedProperty(_:reason:engine:)`` naming the object type for HE-AAC and other
    ///   non-LC streams, ``CodecError/invalidConfiguration(property:reason:)`` for a configuration that
    ///   cannot be read.
    public init(format: AudioFormatDescription) throws(CodecError) {
        guard format.codec == .aac else { throw .inputMismatch("an AAC decoder cannot decode \(format.codec.rawValue)") }
        let config: AudioSpecificConfig
        if format.audioSpecificConfig.isEmpty {
            guard let frequency = SamplingFrequency(hertz: format.sampleRate),
                  let channels = ChannelConfiguration(channelCount: format.channelCount) else {
                throw .invalidConfiguration(property: .sampleRate, reason: "\(format.sampleRate) Hz, \(format.channelCount) channels has no AAC configuration")
            }
            config = AudioSpecificConfig(audioObjectType: .aacLC, samplingFrequency: frequency, channelConfiguration: channels)
        } else {
            do {
                config = try AudioSpecificConfig.parse(format.audioSpecificConfig)
            } catch {
                throw .invalidConfiguration(property: .codec, reason: "AudioSpecificConfig: \(error)")
            }
        }
        do {
            decoder = try NativeAACDecoder(audioSpecificConfig: config)
        } catch {
            throw .unsupportedProperty(.codec, reason: "\(error)", engine: "native")
        }
    }

    /// Decodes one access unit.
    /// - Parameter frame: a raw AAC frame (one raw data block).
    /// - Returns: one buffer of 1024 samples per channel (concealed when the frame is damaged).
    /// - Throws: ``CodecError/engineFailure(_:)`` only if the PCM cannot be packed (never for bad data).
    public func decode(_ frame: EncodedAudioFrame) throws(CodecError) -> [AudioBuffer] {
        let decoded = decoder.decode(rawDataBlock: frame.data)
        if case let .concealed(error) = decoded.status {
            concealedFrames.append(ConcealedFrame(pts: frame.pts, index: index, error: error))
        }
        index += 1
        let planes = decoded.channels.map { samples in
            samples.withUnsafeBytes { Array($0) }
        }
        do {
            return [try AudioBuffer(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount, format: .float32,
                                    isInterleaved: false, channelData: planes)]
        } catch {
            throw .engineFailure("native AAC: \(error)")
        }
    }

    /// The decoder holds nothing back (its output is one frame per access unit).
    /// - Returns: nothing.
    public func flush() throws(CodecError) -> [AudioBuffer] { [] }
}
