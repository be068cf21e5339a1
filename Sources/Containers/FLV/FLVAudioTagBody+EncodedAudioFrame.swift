import AAC
import Bitstream
import MediaCore

// Audio tag bodies from StreamKit's types (an AAC encoder's `EncodedAudioFrame` and `AudioFormatDescription`)
// and back.

extension FLVAudioTagBody {
    /// The AAC sequence header for a format: its AudioSpecificConfig (E.4.2.2, `AACPacketType` 0).
    /// - Parameter format: an AAC format.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` for another codec or an empty AudioSpecificConfig.
    public init(sequenceHeaderFor format: AudioFormatDescription) throws(FLVError) {
        guard format.codec == .aac, !format.audioSpecificConfig.isEmpty else {
            throw FLVError(.unrepresentable("an AAC sequence header needs an AAC format with its AudioSpecificConfig"), offset: 0)
        }
        self = .aac(.sequenceHeader, payload: ByteView(format.audioSpecificConfig))
    }

    /// The raw-frame body of one AAC access unit (a view of its array, no copy).
    /// - Parameter frame: the access unit (no ADTS header).
    public init(frame: EncodedAudioFrame) {
        self = .aac(.raw, payload: ByteView(frame.data))
    }

    /// The format an AAC sequence header describes.
    /// - Returns: the format (rate, channels and profile from the AudioSpecificConfig).
    /// - Throws: ``FLVError/Reason/invalidDecoderConfiguration(_:)`` when this is not an AAC sequence header or
    ///   the AudioSpecificConfig does not parse.
    public func formatDescription() throws(FLVError) -> AudioFormatDescription {
        guard aacPacketType == .sequenceHeader else {
            throw FLVError(.invalidDecoderConfiguration("not an AAC sequence header"), offset: 0)
        }
        let config = Array(payload)
        let parsed: AudioSpecificConfig
        do { parsed = try AudioSpecificConfig.parse(config) } catch {
            throw FLVError(.invalidDecoderConfiguration("AudioSpecificConfig: \(error)"), offset: headerByteCount)
        }
        return AudioFormatDescription(codec: .aac, sampleRate: parsed.outputSampleRate, channelCount: parsed.channelCount ?? 2,
                                      profile: parsed.profileName ?? "\(parsed.audioObjectType)", audioSpecificConfig: config,
                                      samplesPerFrame: parsed.gaSpecificConfig?.frameLengthFlag == true ? 960 : 1024)
    }

    /// The access unit as an ``EncodedAudioFrame`` (its bytes copied out of the tag).
    /// - Parameters:
    ///   - timestamp: the tag's timestamp, in milliseconds.
    ///   - format: the format of the sequence header in force.
    /// - Returns: the frame, in a 1 kHz timescale, its duration the format's frame length.
    public func encodedFrame(timestamp: Int64, format: AudioFormatDescription) -> EncodedAudioFrame {
        let duration = format.sampleRate > 0
            ? MediaTime(value: Int64(format.samplesPerFrame), timescale: Int32(clamping: format.sampleRate)) : .zero
        return EncodedAudioFrame(data: Array(payload), pts: MediaTime(value: timestamp, timescale: 1000), duration: duration, format: format)
    }
}
