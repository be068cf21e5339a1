import Bitstream
import MediaCore

/// Reads an FLV file as compressed media: every H.264/H.265 picture as an ``EncodedFrame`` (AVCC, as an
/// encoder hands it out, with the ``FormatDescription`` of the sequence start in force) and every AAC access
/// unit as an ``EncodedAudioFrame`` — what `ffmpeg -i x.flv -c copy` demuxes, ready for a muxer, an RTP or
/// RTMP sender, or a decompression session.
///
/// ```swift
/// var media = FLVMediaReader(reader: try FLVReader(source: try FileByteSource(path: "in.flv")))
/// while true {
///     switch try media.next() {
///     case let .video(frame): try await publisher.send(frame)
///     case let .audio(frame): try await publisher.send(frame)
///     case .metadata: continue
///     case .end, .truncated: return
///     }
/// }
/// ```
///
/// Timing (FLV specification v10.1, E.4.1 and E.4.3.1): a tag's timestamp is the decode time in milliseconds
/// and a picture's pts is that plus its signed 24-bit `CompositionTime`, so B-frames keep their display order;
/// both are in a 1 kHz timescale. A picture lasts 1 / `framerate` of `onMetaData` when the file gives one, else
/// the gap between the two pictures before it; an audio frame lasts its frame length (1024 samples) at the
/// AudioSpecificConfig's rate. Tags of other codecs (and Enhanced RTMP metadata, command frames, sequence ends)
/// are passed over. Memory stays bounded as in ``FLVReader``: one frame's bytes are copied out of its tag.
public struct FLVMediaReader<Source: ByteSource> {
    private var reader: FLVReader<Source>
    /// The format of the last video sequence start, once read.
    public private(set) var videoFormat: FormatDescription?
    /// The format of the last AAC sequence header, once read.
    public private(set) var audioFormat: AudioFormatDescription?
    /// The last `onMetaData` read.
    public private(set) var metadata: AMF0Object?
    /// Pictures and audio frames handed out so far.
    public private(set) var frameCounts = (video: 0, audio: 0)
    private var previousVideoDecodeTime: Int64?
    private var videoDuration = MediaTime.zero

    /// A reader over the tags of a reader at its first tag.
    /// - Parameter reader: the FLV reader.
    public init(reader: FLVReader<Source>) {
        self.reader = reader
    }

    /// The FLV header: whether the file announces audio and video.
    public var header: FLVHeader { reader.header }

    /// Reads on to the next picture, audio frame or `onMetaData`.
    /// - Returns: the event; ``FLVMediaEvent/end`` (or ``FLVMediaEvent/truncated(offset:field:)``) at the end.
    /// - Throws: ``FLVError`` with the byte offset in the file: a malformed tag or sequence header, coded frames
    ///   before their sequence start, an AAC frame before the AAC sequence header, or an I/O failure.
    public mutating func next() throws(FLVError) -> FLVMediaEvent {
        while true {
            let tag: FLVTag, offset: Int
            switch try reader.next() {
            case let .tag(found, at): (tag, offset) = (found, at)
            case .end: return .end
            case let .truncated(at, field): return .truncated(offset: at, field: field)
            }
            do throws(FLVError) {
                if let event = try event(for: tag) { return event }
            } catch {
                throw error.offset(by: offset + FLVTag.headerByteCount)
            }
        }
    }

    private mutating func event(for tag: FLVTag) throws(FLVError) -> FLVMediaEvent? {
        switch tag.type {
        case .video:
            let body = try FLVVideoTagBody(parsing: tag.body)
            if body.packetType == .sequenceStart, body.codec.codecType != nil {
                videoFormat = try body.formatDescription()
                return nil
            }
            guard body.isCodedFrames, !body.payload.isEmpty else { return nil }
            guard let format = videoFormat, format.codec == body.codec.codecType else {
                throw FLVError(.invalidDecoderConfiguration("coded frames of \(body.codec) before its sequence start"), offset: 0)
            }
            let decodeTime = Int64(tag.timestamp)
            if let rate = metadata?["framerate"]?.number, rate >= 0.01, rate < 1000 {
                videoDuration = MediaTime(value: Int64((1000 / rate).rounded()), timescale: 1000)
            } else if let previous = previousVideoDecodeTime, decodeTime > previous {
                videoDuration = MediaTime(value: decodeTime - previous, timescale: 1000)
            }
            previousVideoDecodeTime = decodeTime
            frameCounts.video += 1
            return .video(body.encodedFrame(timestamp: decodeTime, format: format, duration: videoDuration))
        case .audio:
            let body = try FLVAudioTagBody(parsing: tag.body)
            guard body.isAAC else { return nil }
            if body.aacPacketType == .sequenceHeader {
                audioFormat = try body.formatDescription()
                return nil
            }
            guard let format = audioFormat else {
                throw FLVError(.invalidDecoderConfiguration("AAC frames before the AAC sequence header"), offset: 0)
            }
            guard !body.payload.isEmpty else { return nil }
            frameCounts.audio += 1
            return .audio(body.encodedFrame(timestamp: Int64(tag.timestamp), format: format))
        case .scriptData:
            guard let properties = try FLVScriptData(parsing: tag.body).metadata else { return nil }
            metadata = properties
            return .metadata(properties)
        default:
            return nil
        }
    }
}
