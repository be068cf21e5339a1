import AAC
import Bitstream
import MediaCore

/// A ``ByteSource`` that reads one stream of an FLV file as its elementary stream — Annex B for H.264/H.265
/// (framed by ``FLVAnnexBFramer``, byte for byte what FFmpeg's `-c copy -bsf:v h264_mp4toannexb -f h264`
/// gives), ADTS for AAC (as FFmpeg's `-c copy -f adts`) — one tag at a time: what lets every reader of
/// `.h264` / `.h265` / `.aac` (the stream inspector, a decompression session fed Annex B) read an FLV.
public struct FLVElementaryStreamSource<Source: ByteSource>: ByteSource {
    /// Which stream to read.
    public enum Stream: Sendable, Hashable {
        /// The video tags (H.264 or H.265).
        case video
        /// The audio tags (AAC).
        case audio
    }

    private var reader: FLVReader<Source>
    private let stream: Stream
    private var framer = FLVAnnexBFramer()
    /// The 7-byte ADTS header of the sequence header's AudioSpecificConfig; only `aac_frame_length` changes.
    private var adtsHeader: [UInt8] = []
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var ended = false
    /// The tags read so far of the chosen stream (sequence headers included).
    public private(set) var tagCount = 0
    /// The video format of the last sequence start (video), once read.
    public var videoFormat: FormatDescription? { framer.format }
    /// The audio format of the last AAC sequence header (audio), once read.
    public private(set) var audioFormat: AudioFormatDescription?

    /// A source over one stream of an FLV.
    /// - Parameters:
    ///   - reader: the FLV reader, at its first tag.
    ///   - stream: video or audio.
    public init(reader: FLVReader<Source>, stream: Stream) {
        self.reader = reader
        self.stream = stream
    }

    /// Reads the next bytes of the elementary stream.
    /// - Parameter buffer: where to put them.
    /// - Returns: the number of bytes written; 0 at the end of the file.
    /// - Throws: ``ContainerIOError`` (operation `read`, `EILSEQ`, the FLV error in the path) for a malformed
    ///   file or tag; a file cut off inside a tag ends the stream after the last whole tag.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ContainerIOError) -> Int {
        var written = 0
        while written < buffer.count {
            if pendingOffset == pending.count {
                guard !ended else { break }
                pending.removeAll(keepingCapacity: true)
                pendingOffset = 0
                do { try nextTag() } catch {
                    if case let .io(failure) = error.reason { throw failure }
                    throw ContainerIOError(operation: .read, path: "\(error)", code: 84)  // EILSEQ
                }
                continue
            }
            let count = min(buffer.count - written, pending.count - pendingOffset)
            pending.withUnsafeBytes { source in
                buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: pendingOffset), byteCount: count)
            }
            written += count
            pendingOffset += count
        }
        return written
    }

    /// Not known for an FLV (the tags' framing differs from the output's).
    public var remainingByteCount: Int? { nil }

    private mutating func nextTag() throws(FLVError) {
        while pending.isEmpty {
            guard case let .tag(tag, offset) = try reader.next() else { ended = true; return }
            do throws(FLVError) {
                switch (stream, tag.type) {
                case (.video, .video):
                    tagCount += 1
                    try framer.append(try tag.videoBody(), to: &pending)
                case (.audio, .audio):
                    tagCount += 1
                    let body = try tag.audioBody()
                    guard body.isAAC else { continue }
                    if body.aacPacketType == .sequenceHeader {
                        let format = try body.formatDescription()
                        audioFormat = format
                        do { adtsHeader = try AudioSpecificConfig.parse(format.audioSpecificConfig).adtsHeader(payloadLength: 0).serialized() } catch {
                            throw FLVError(.invalidDecoderConfiguration("ADTS: \(error)"), offset: 0)
                        }
                        guard adtsHeader.count == 7 else {
                            throw FLVError(.invalidDecoderConfiguration("an ADTS header of \(adtsHeader.count) bytes"), offset: 0)
                        }
                        continue
                    }
                    guard adtsHeader.count == 7 else {
                        throw FLVError(.invalidDecoderConfiguration("AAC frames before the AAC sequence header"), offset: 0)
                    }
                    // ISO/IEC 13818-7 §6.2.1: aac_frame_length (13 bits) counts the header too.
                    let length = body.payload.count + 7
                    guard length < 1 << 13 else {
                        throw FLVError(.unrepresentable("an AAC frame of \(body.payload.count) bytes does not fit ADTS"), offset: 0)
                    }
                    adtsHeader[3] = adtsHeader[3] & 0xFC | UInt8(length >> 11)
                    adtsHeader[4] = UInt8(truncatingIfNeeded: length >> 3)
                    adtsHeader[5] = adtsHeader[5] & 0x1F | UInt8(truncatingIfNeeded: length << 5)
                    pending.append(contentsOf: adtsHeader)
                    body.payload.withUnsafeBytes { pending.append(contentsOf: $0) }
                default:
                    continue
                }
            } catch {
                throw error.offset(by: offset + FLVTag.headerByteCount)
            }
        }
    }
}
