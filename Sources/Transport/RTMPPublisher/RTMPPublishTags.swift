import Containers
import MediaCore

/// The message bodies a publisher sends, made with Containers' FLV tag bodies: `onMetaData`, the sequence
/// headers, coded pictures and audio frames (FLV specification v10.1 E.4.2–E.4.4; Enhanced RTMP v1 for H.265).
enum RTMPPublishTags {
    /// Enhanced RTMP's `videocodecid` for H.265 in `onMetaData`: the FourCC `hvc1` as a number.
    static let hevcCodecID = Double(FLVFourCC.hvc1.rawValue)

    /// The `onMetaData` properties (E.5): size, frame rate, codecs and rates, as FFmpeg's FLV muxer writes them.
    /// - Parameters:
    ///   - configuration: the publisher's configuration (codec, rates).
    ///   - video: the video format, once known.
    ///   - audio: the audio format, once known.
    /// - Returns: the ECMA array's properties.
    static func metadata(configuration: RTMPPublisherConfiguration, video: FormatDescription?, audio: AudioFormatDescription?) -> AMF0Object {
        var properties: [AMF0Property] = [AMF0Property(key: "duration", value: .number(0))]
        if configuration.hasVideo {
            if let video {
                properties.append(AMF0Property(key: "width", value: .number(Double(video.width))))
                properties.append(AMF0Property(key: "height", value: .number(Double(video.height))))
            }
            if let rate = configuration.videoBitRate { properties.append(AMF0Property(key: "videodatarate", value: .number(Double(rate) / 1000))) }
            if let fps = configuration.frameRate { properties.append(AMF0Property(key: "framerate", value: .number(fps))) }
            properties.append(AMF0Property(key: "videocodecid", value: .number(configuration.videoCodec == .hevc ? hevcCodecID : 7)))
        }
        if configuration.hasAudio {
            if let rate = configuration.audioBitRate { properties.append(AMF0Property(key: "audiodatarate", value: .number(Double(rate) / 1000))) }
            if let audio {
                properties.append(AMF0Property(key: "audiosamplerate", value: .number(Double(audio.sampleRate))))
                properties.append(AMF0Property(key: "audiosamplesize", value: .number(16)))
                properties.append(AMF0Property(key: "stereo", value: .boolean(audio.channelCount == 2)))
            }
            properties.append(AMF0Property(key: "audiocodecid", value: .number(10)))
        }
        properties.append(AMF0Property(key: "encoder", value: .string("StreamKit")))
        return AMF0Object(properties)
    }

    /// The video sequence start for a format: a legacy AVC sequence header (avcC) for H.264, an Enhanced RTMP
    /// `SequenceStart` with `hvc1` (hvcC) for H.265.
    /// - Parameter format: the stream's format.
    /// - Returns: the body.
    /// - Throws: ``FLVError`` when the parameter sets make no decoder configuration record.
    static func videoSequenceStart(_ format: FormatDescription) throws(FLVError) -> FLVVideoTagBody {
        try FLVVideoTagBody(sequenceStartFor: format)
    }

    /// A coded picture with its composition time offset (pts − dts).
    /// - Parameter frame: the picture.
    /// - Returns: the body (its payload a view of the picture's bytes).
    /// - Throws: ``FLVError`` when the codec has no FLV form; a composition time that does not fit 24 bits is
    ///   refused when the body is sent.
    static func video(_ frame: EncodedFrame) throws(FLVError) -> FLVVideoTagBody {
        try FLVVideoTagBody(codedFrame: frame)
    }

    /// The AAC sequence header (AudioSpecificConfig).
    /// - Parameter format: the audio format.
    /// - Returns: the body.
    /// - Throws: ``FLVError`` for a format FLV cannot describe.
    static func audioSequenceStart(_ format: AudioFormatDescription) throws(FLVError) -> FLVAudioTagBody {
        try FLVAudioTagBody(sequenceHeaderFor: format)
    }

    /// A raw AAC frame.
    /// - Parameter frame: the frame.
    /// - Returns: the body (its payload a view of the frame's bytes).
    static func audio(_ frame: EncodedAudioFrame) -> FLVAudioTagBody {
        FLVAudioTagBody(frame: frame)
    }
}
