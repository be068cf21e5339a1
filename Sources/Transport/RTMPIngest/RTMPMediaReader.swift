import Bitstream
import Containers
import MediaCore

/// Reads the audio, video and data messages of an RTMP stream — what a publisher sent to an ingest, or what a
/// player gets from a server — as FLV tag bodies (Adobe FLV specification 10.1 §E.4.2–E.4.4; Enhanced RTMP v1 for
/// HEVC): formats from the sequence headers, pictures as Annex B, AAC access units, `onMetaData`.
///
/// ```swift
/// var reader = RTMPMediaReader()
/// for await message in server.subscribe(to: "live/key") {
///     if case let .video(annexB, _, _, _) = try reader.read(message) { try sink.write(annexB) }
/// }
/// ```
public struct RTMPMediaReader: Sendable {
    private var framer = FLVAnnexBFramer()
    private var audioFormat: AudioFormatDescription?
    /// How many pictures were read.
    public private(set) var videoFrameCount = 0
    /// How many AAC access units were read.
    public private(set) var audioFrameCount = 0

    /// A reader that waits for the sequence headers.
    public init() {}

    /// The video format of the last sequence start, `nil` before the first.
    public var videoFormat: FormatDescription? { framer.format }

    /// Reads one message.
    /// - Parameter message: an audio, video or AMF0 data message (others are ``RTMPMediaEvent/ignored(_:)``).
    /// - Returns: what it carried.
    /// - Throws: ``FLVError`` for a tag body that does not parse, coded frames before their sequence header, or
    ///   an AAC frame before its AudioSpecificConfig.
    public mutating func read(_ message: RTMPMessage) throws(FLVError) -> RTMPMediaEvent {
        switch message.type {
        case .video:
            let body = try FLVVideoTagBody(parsing: message.payload)
            if body.packetType == .sequenceStart {
                _ = try framer.append(body, to: &scratch)
                guard let format = framer.format else { return .ignored("a video sequence start of another codec") }
                return .videoFormat(format)
            }
            guard body.isCodedFrames else { return .ignored("a video \(body.packetType) body") }
            var annexB: [UInt8] = []
            annexB.reserveCapacity(body.payload.count + 128)
            guard try framer.append(body, to: &annexB) else { return .ignored("a video body with no NAL unit") }
            videoFrameCount += 1
            return .video(annexB: annexB, timestamp: message.timestamp, compositionTime: body.compositionTimeOffset,
                          isKeyFrame: body.frameType == .keyFrame)
        case .audio:
            let body = try FLVAudioTagBody(parsing: message.payload)
            guard body.isAAC else { return .ignored("audio of sound format \(body.soundFormat), not AAC") }
            if body.aacPacketType == .sequenceHeader {
                let format = try body.formatDescription()
                audioFormat = format
                return .audioFormat(format)
            }
            guard let audioFormat else {
                throw FLVError(.invalidDecoderConfiguration("an AAC frame before the AAC sequence header"), offset: 0)
            }
            audioFrameCount += 1
            return .audio(body.encodedFrame(timestamp: Int64(message.timestamp), format: audioFormat))
        case .dataAMF0:
            var script = try FLVScriptData(parsing: message.payload)
            if script.name == "@setDataFrame", case let .string(name)? = script.values.first {
                script = FLVScriptData(name: name, values: Array(script.values.dropFirst()))
            }
            guard script.name == "onMetaData" else { return .ignored("a data message \(script.name)") }
            return .metadata(script)
        default:
            return .ignored("a \(message.type) message")
        }
    }

    private var scratch: [UInt8] = []
}
