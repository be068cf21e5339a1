import Bitstream
import Containers
import MediaCore
import Transport

/// Reads the audio, video and data messages of an RTMP stream into ``EncodedMedia`` for ``RTMPSource``: the FLV tag
/// bodies (Adobe FLV 10.1 §E.4.2 audio, §E.4.3 video, Enhanced RTMP v1) — sequence starts become formats, coded frames
/// become AVCC pictures (their bytes as they came, no Annex B) and AAC frames; `onMetaData` gives the frame rate.
struct RTMPTagReader: Sendable {
    /// The video format of the last sequence start.
    private(set) var videoFormat: FormatDescription?
    /// The audio format of the last AAC sequence header.
    private(set) var audioFormat: AudioFormatDescription?
    /// The frame rate `onMetaData` gave (30 until it does).
    private(set) var frameRate = 30.0

    /// Takes one message.
    /// - Parameter message: an RTMP message (only audio, video and AMF0 data carry media).
    /// - Returns: the frame it carried, or `nil` for a format, metadata or anything else.
    /// - Throws: ``FLVError`` for a tag body that does not parse, or frames before their sequence header.
    mutating func take(_ message: RTMPMessage) throws(FLVError) -> EncodedMedia? {
        switch message.type {
        case .video:
            let body = try FLVVideoTagBody(parsing: message.payload)
            if body.packetType == .sequenceStart {
                if body.codec.codecType != nil { videoFormat = try body.formatDescription() }
                return nil
            }
            guard body.isCodedFrames, !body.payload.isEmpty else { return nil }
            guard let format = videoFormat else {
                throw FLVError(.invalidDecoderConfiguration("a coded frame before the video sequence start"), offset: 0)
            }
            let rate = frameRate
            return .video(body.encodedFrame(timestamp: Int64(message.timestamp), format: format,
                                            duration: MediaTime(value: Int64((1000 / rate).rounded()), timescale: 1000)))
        case .audio:
            let body = try FLVAudioTagBody(parsing: message.payload)
            guard body.isAAC else { return nil }
            if body.aacPacketType == .sequenceHeader {
                audioFormat = try body.formatDescription()
                return nil
            }
            guard let format = audioFormat else {
                throw FLVError(.invalidDecoderConfiguration("an AAC frame before the AAC sequence header"), offset: 0)
            }
            return .audio(body.encodedFrame(timestamp: Int64(message.timestamp), format: format))
        case .dataAMF0:
            guard let script = try? FLVScriptData(parsing: message.payload) else { return nil }
            let named = script.name == "@setDataFrame" ? FLVScriptData(name: (script.values.first?.string) ?? "", values: Array(script.values.dropFirst())) : script
            if case let .number(rate)? = named.metadata?["framerate"], rate >= 0.5, rate < 1000 { frameRate = rate }
            return nil
        default:
            return nil
        }
    }
}
