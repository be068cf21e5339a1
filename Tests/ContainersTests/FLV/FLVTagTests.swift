import Bitstream
import Containers
import MediaCore
import Testing

/// FLV tag bodies and the reader on bytes laid out by hand from the FLV specification (E.4) and Enhanced
/// RTMP v1, and hostile input: every fault is an ``FLVError`` with its offset, a cut-off file a named event.
@Suite("FLV tags")
struct FLVTagTests {
    /// Legacy AVC NALU, key frame, composition time −2 (SI24 ff ff fe), payload 00 00 00 01 65.
    @Test func parsesAndWritesALegacyAVCBody() throws {
        let bytes: [UInt8] = [0x17, 0x01, 0xFF, 0xFF, 0xFE, 0x00, 0x00, 0x00, 0x01, 0x65]
        let body = try FLVVideoTagBody(parsing: ByteView(bytes))
        #expect(body.frameType == .keyFrame && body.codec == .avc && body.packetType == .codedFrames)
        #expect(body.compositionTimeOffset == -2)
        #expect(Array(body.payload) == [0, 0, 0, 1, 0x65])
        #expect(try body.bytes() == bytes)
        var annexB: [UInt8] = []
        try body.appendAnnexB(to: &annexB)
        #expect(annexB == [0, 0, 0, 1, 0x65])
    }

    /// Enhanced RTMP v1: `CodedFrames` of `hvc1` has SI24 composition time, `CodedFramesX` has none,
    /// `SequenceStart` and `SequenceEnd` carry the FourCC only.
    @Test func parsesAndWritesEnhancedBodies() throws {
        let cases: [([UInt8], FLVVideoPacketType, Int32, Int)] = [
            ([0x91, 0x68, 0x76, 0x63, 0x31, 0x00, 0x00, 0x28, 0xAA], .codedFrames, 40, 1),  // key, CodedFrames, cts 40
            ([0xA3, 0x68, 0x76, 0x63, 0x31, 0xBB, 0xCC], .codedFramesX, 0, 2),  // inter, CodedFramesX
            ([0x90, 0x68, 0x76, 0x63, 0x31, 0x01], .sequenceStart, 0, 1),
            ([0x92, 0x61, 0x76, 0x63, 0x31], .sequenceEnd, 0, 0),
            ([0x94, 0x61, 0x76, 0x30, 0x31, 0x02, 0x00, 0x00], .metadata, 0, 3),
        ]
        for (bytes, packetType, cts, payloadCount) in cases {
            let body = try FLVVideoTagBody(parsing: ByteView(bytes))
            #expect(body.packetType == packetType && body.compositionTimeOffset == cts && body.payload.count == payloadCount)
            #expect(try body.bytes() == bytes)
        }
        #expect(try FLVVideoTagBody(parsing: ByteView(cases[0].0)).codec == .enhanced(.hvc1))
        #expect(FLVFourCC("hvc1") == .hvc1 && FLVFourCC.av01.description == "av01" && FLVFourCC("toolong") == nil)
    }

    /// AAC: `0xAF` then the packet type; other formats have one header byte.
    @Test func parsesAndWritesAudioBodies() throws {
        let header = try FLVAudioTagBody(parsing: ByteView([0xAF, 0x00, 0x12, 0x10]))
        #expect(header.isAAC && header.aacPacketType == .sequenceHeader && Array(header.payload) == [0x12, 0x10])
        let format = try header.formatDescription()
        #expect(format.sampleRate == 44100 && format.channelCount == 2 && format.audioSpecificConfig == [0x12, 0x10])
        #expect(try FLVAudioTagBody(sequenceHeaderFor: format).bytes() == [0xAF, 0x00, 0x12, 0x10])
        let mp3 = try FLVAudioTagBody(parsing: ByteView([0x2E, 0xFF, 0xFB]))
        #expect(mp3.soundFormat == 2 && mp3.soundRate == 3 && mp3.is16Bit && !mp3.isStereo && mp3.aacPacketType == nil)
        #expect(try mp3.bytes() == [0x2E, 0xFF, 0xFB])
    }

    /// A frame with B-frame reordering: the composition time is pts − dts in milliseconds; Enhanced bodies use
    /// `CodedFramesX` when it is 0; H.265 has no legacy form.
    @Test func buildsBodiesFromEncodedFrames() throws {
        let format = FormatDescription(codec: .hevc, width: 16, height: 16, profileLevel: ProfileLevel(codec: .hevc, profileNamed: "Main", level: nil),
                                       parameterSets: [])
        let frame = EncodedFrame(data: [0, 0, 0, 2, 0x26, 0x01], isKeyFrame: true, pts: MediaTime(value: 3003, timescale: 90000),
                                 dts: MediaTime(value: 0, timescale: 90000), duration: .zero, format: format)
        let body = try FLVVideoTagBody(codedFrame: frame)
        #expect(body.codec == .enhanced(.hvc1) && body.packetType == .codedFrames && body.compositionTimeOffset == 33)
        #expect(body.payload.elementsEqual(frame.data))
        var same = frame
        same.pts = frame.dts
        #expect(try FLVVideoTagBody(codedFrame: same).packetType == .codedFramesX)
        #expect(throws: FLVError.self) { try FLVVideoTagBody(codedFrame: frame, style: .legacy) }
        var far = frame
        far.pts = MediaTime(value: 1 << 24, timescale: 1000)
        #expect(throws: FLVError.self) { try FLVVideoTagBody(codedFrame: far) }
    }

    /// Every proper prefix of a body that needs its header ends in `truncated` at the field cut off.
    @Test func truncatedBodiesNameTheirField() {
        let bodies: [[UInt8]] = [[0x17, 0x01, 0x00, 0x00, 0x00], [0x91, 0x68, 0x76, 0x63, 0x31, 0x00, 0x00, 0x28], [0xAF, 0x01]]
        for bytes in bodies {
            for length in 0..<bytes.count {
                let prefix = ByteView(Array(bytes[0..<length]))
                do {
                    if bytes[0] == 0xAF { _ = try FLVAudioTagBody(parsing: prefix) } else { _ = try FLVVideoTagBody(parsing: prefix) }
                    Issue.record("a prefix of \(length) bytes of \(bytes) parsed")
                } catch {
                    guard case .truncated = error.reason else { Issue.record("\(error)"); continue }
                    #expect(error.offset <= length)
                }
            }
        }
        #expect(throws: FLVError(.invalidFrameType(0), offset: 0)) { try FLVVideoTagBody(parsing: ByteView([0x07, 0x01, 0, 0, 0])) }
        #expect(throws: FLVError(.unknownVideoPacketType(9), offset: 0)) { try FLVVideoTagBody(parsing: ByteView([0x99, 0, 0, 0, 0])) }
        #expect(throws: FLVError(.unknownVideoPacketType(3), offset: 1)) { try FLVVideoTagBody(parsing: ByteView([0x17, 0x03, 0, 0, 0])) }
    }

    /// A file in memory: header, PreviousTagSize0, then tags.
    static func file(_ tags: [(FLVTagType, UInt32, [UInt8])], previousSize: ((Int) -> UInt32)? = nil) throws -> [UInt8] {
        var bytes = FLVHeader(hasAudio: true, hasVideo: true).bytes + [0, 0, 0, 0]
        for (index, (type, timestamp, body)) in tags.enumerated() {
            try FLVTag.appendHeader(type: type, timestamp: timestamp, bodyByteCount: body.count, to: &bytes)
            bytes += body
            let size = previousSize?(index) ?? UInt32(11 + body.count)
            bytes += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        }
        return bytes
    }

    /// The reader hands out every tag (with an extended timestamp past 2^24 ms) as a view, then `end`.
    @Test func readsTagsAndTheEnd() throws {
        let bytes = try Self.file([(.video, 0x0123_4567, [0x17, 0x02, 0, 0, 0]), (.audio, 5, [0xAF, 0x01, 0x21])])
        var reader = try FLVReader(source: MemoryByteSource(bytes), limits: FLVReaderLimits(blockByteCount: 16))
        #expect(reader.header.hasAudio && reader.header.hasVideo)
        guard case let .tag(first, offset) = try reader.next() else { Issue.record("no first tag"); return }
        #expect(first.type == .video && first.timestamp == 0x0123_4567 && offset == 13 && first.body.count == 5)
        guard case let .tag(second, secondOffset) = try reader.next() else { Issue.record("no second tag"); return }
        #expect(second.type == .audio && second.timestamp == 5 && secondOffset == 13 + 20 && Array(second.body) == [0xAF, 0x01, 0x21])
        #expect(try reader.next() == .end)
        #expect(try reader.next() == .end)
        #expect(Array(first.body) == [0x17, 0x02, 0, 0, 0])  // still valid after the reader moved on to new blocks
    }

    /// A file cut anywhere inside a tag ends in `truncated` with the tag's offset; at a tag boundary, in `end`.
    @Test func aCutOffFileIsANamedOutcome() throws {
        let bytes = try Self.file([(.video, 0, [0x17, 0x02, 0, 0, 0]), (.audio, 5, [0xAF, 0x01, 0x21])])
        for length in 13..<bytes.count {
            var reader = try FLVReader(source: MemoryByteSource(Array(bytes[0..<length])))
            var events: [FLVReadEvent] = []
            while true {
                let event = try reader.next()
                events.append(event)
                if case .tag = event { continue }
                break
            }
            let boundary = length == 13 || length == 33
            if boundary { #expect(events.last == .end, "length \(length)") } else {
                guard case let .truncated(offset, _) = events.last else { Issue.record("length \(length): \(events)"); continue }
                #expect(offset == (length < 33 ? 13 : 33))
            }
        }
        for length in 0..<13 {
            #expect(throws: FLVError.self) { try FLVReader(source: MemoryByteSource(Array(bytes[0..<length]))) }
        }
    }

    /// A wrong signature or version, an encrypted tag, a body past the cap, and a wrong PreviousTagSize.
    @Test func malformedFilesNameTheirFault() throws {
        #expect(throws: FLVError(.notFLV, offset: 0)) { try FLVReader(source: MemoryByteSource([0x46, 0x4C, 0x58, 1, 5, 0, 0, 0, 9, 0, 0, 0, 0])) }
        #expect(throws: FLVError(.unsupportedVersion(2), offset: 3)) { try FLVReader(source: MemoryByteSource([0x46, 0x4C, 0x56, 2, 5, 0, 0, 0, 9, 0, 0, 0, 0])) }
        #expect(throws: FLVError(.invalidDataOffset(3), offset: 5)) { try FLVReader(source: MemoryByteSource([0x46, 0x4C, 0x56, 1, 5, 0, 0, 0, 3, 0, 0, 0, 0])) }
        var encrypted = try Self.file([(.video, 0, [0x17])])
        encrypted[13] |= 0x20
        var reader = try FLVReader(source: MemoryByteSource(encrypted))
        #expect(throws: FLVError(.encryptedTag, offset: 13)) { try reader.next() }
        // A tag that declares 16 MiB in a 30-byte file, with a 1 KiB cap: refused before reading.
        var huge = try Self.file([(.video, 0, [0x17])])
        huge[14] = 0xFF; huge[15] = 0xFF; huge[16] = 0xFF
        reader = try FLVReader(source: MemoryByteSource(huge), limits: FLVReaderLimits(maximumTagByteCount: 1024))
        #expect(throws: FLVError(.tagTooLarge(byteCount: 0xFF_FFFF, limit: 1024), offset: 14)) { try reader.next() }
        reader = try FLVReader(source: MemoryByteSource(try Self.file([(.video, 0, [0x17])], previousSize: { _ in 99 })))
        #expect(throws: FLVError(.previousTagSizeMismatch(expected: 12, found: 99), offset: 25)) { try reader.next() }
        // PreviousTagSize 0 is what some live encoders write: accepted.
        reader = try FLVReader(source: MemoryByteSource(try Self.file([(.video, 0, [0x17])], previousSize: { _ in 0 })))
        guard case .tag = try reader.next() else { Issue.record("a PreviousTagSize of 0 was refused"); return }
    }

    /// The small program a user writes: frames in, a playable FLV in memory out, and read back.
    @Test func writesAndReadsBackInMemory() throws {
        let audio = AudioFormatDescription(codec: .aac, sampleRate: 44100, channelCount: 1, profile: "LC", audioSpecificConfig: [0x12, 0x08])
        var writer = try FLVWriter(sink: MemoryByteSink(), configuration: .init(video: nil, audio: audio))
        for index in 0..<3 {
            try writer.append(EncodedAudioFrame(data: [UInt8(index), 0x21], pts: MediaTime(value: Int64(index) * 1024, timescale: 44100),
                                                duration: MediaTime(value: 1024, timescale: 44100), format: audio))
        }
        try writer.finish()
        var reader = try FLVReader(source: MemoryByteSource(writer.sink.bytes))
        var bodies: [FLVAudioTagBody] = []
        var timestamps: [UInt32] = []
        var metadata: AMF0Object?
        while case let .tag(tag, _) = try reader.next() {
            if tag.type == .scriptData { metadata = try tag.scriptData().metadata }
            if tag.type == .audio { bodies.append(try tag.audioBody()); timestamps.append(tag.timestamp) }
        }
        #expect(bodies.map(\.aacPacketType) == [.sequenceHeader, .raw, .raw, .raw])
        #expect(timestamps == [0, 0, 23, 46])
        #expect(metadata?["filesize"]?.number == Double(writer.sink.bytes.count))
        #expect(metadata?["duration"]?.number == 0.069)
        #expect(metadata?["stereo"]?.boolean == false && metadata?["width"] == nil)
    }
}
