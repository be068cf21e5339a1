import Containers
import Opus
import Testing

/// Opus's own syntax without any tool: `OpusHead` and `dOps` (RFC 7845 §5.1, Opus in ISOBMFF §4.3.2) against the
/// bytes libopus and FFmpeg write, the TOC byte against RFC 6716 Table 2, and the MPEG-TS control header.
struct OpusSyntaxTests {
    /// libopus's extradata for 48 kHz stereo (as FFmpeg 5.1 hands it out): "OpusHead", version 1, 2 channels,
    /// pre-skip 312 (0x0138, little-endian), 48000 Hz, gain 0, family 0.
    static let libopusHead: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]

    @Test("OpusHead read and written back byte for byte; its dOps is big-endian with version 0")
    func opusHeadAndDOps() throws {
        let head = try OpusIdentificationHeader(opusHead: Self.libopusHead)
        #expect(head.channelCount == 2 && head.preSkip == 312 && head.inputSampleRate == 48000 && head.mappingFamily == 0)
        #expect(head.opusHeadBytes() == Self.libopusHead)
        #expect(head.dOpsPayload() == [0, 2, 0x01, 0x38, 0, 0, 0xBB, 0x80, 0, 0, 0])
        #expect(try OpusIdentificationHeader(dOpsPayload: head.dOpsPayload()) == head)
    }

    @Test("malformed headers name the field and byte")
    func malformedHeaders() {
        #expect(throws: OpusSyntaxError(field: "Version", byteOffset: 0, reason: "1 is not 0")) {
            try OpusIdentificationHeader(dOpsPayload: [1, 2, 0x01, 0x38, 0, 0, 0xBB, 0x80, 0, 0, 0])
        }
        #expect(throws: OpusSyntaxError(field: "ChannelMappingFamily", byteOffset: 18, reason: "family 0 carries 1 or 2 channels, not 3")) {
            var bytes = Self.libopusHead
            bytes[9] = 3
            return try OpusIdentificationHeader(opusHead: bytes)
        }
        #expect(throws: OpusSyntaxError.self) { try OpusIdentificationHeader(opusHead: Array(Self.libopusHead.prefix(18))) }
        // Family 1 with a table that names a channel beyond the streams.
        var surround = Self.libopusHead
        surround[9] = 2
        surround[18] = 1
        surround += [1, 1, 0, 5]
        #expect(throws: OpusSyntaxError(field: "ChannelMapping", byteOffset: 22, reason: "channel 5 beyond the 2 decoded channels")) {
            try OpusIdentificationHeader(opusHead: surround)
        }
    }

    @Test("TOC byte: frame sizes of RFC 6716 Table 2 and frame counts of §3.2", arguments: [
        (UInt8(0x00), 480), (0x08, 960), (0x10, 1920), (0x18, 2880),      // SILK NB 10/20/40/60 ms, code 0
        (0x60, 480), (0x68, 960),                                          // hybrid SWB 10/20 ms
        (0x80, 120), (0x88, 240), (0x90, 480), (0xF8, 960),                // CELT 2.5/5/10/20 ms
        (0xF9, 1920), (0xFA, 1920),                                        // codes 1 and 2: two frames
    ])
    func tableOfContents(toc: UInt8, samples: Int) throws {
        #expect(try OpusPacket([toc, 0, 0]).sampleCount == samples)
    }

    @Test("code 3 packets: the count byte, at most 120 ms")
    func codeThree() throws {
        #expect(try OpusPacket([0xFB, 0x06]).sampleCount == 5760)      // 6 × 20 ms
        #expect(throws: OpusSyntaxError.self) { try OpusPacket([0xFB, 0x07]) }  // 140 ms
        #expect(throws: OpusSyntaxError.self) { try OpusPacket([0xFB]) }
        #expect(throws: OpusSyntaxError.self) { try OpusPacket([0xFB, 0x00]) }
        #expect(throws: OpusSyntaxError.self) { try OpusPacket([UInt8]()) }
    }

    @Test("MPEG-TS control header: au_size in 255s, trims, read back to the same unit", arguments: [0, 1, 254, 255, 256, 600])
    func controlHeader(size: Int) throws {
        let packet = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 | 0x80) }
        var payload: [UInt8] = []
        TSOpusMapping.appendAccessUnit(packet, startTrim: size % 2 == 0 ? 312 : 0, endTrim: size > 255 ? 100 : 0, to: &payload)
        #expect(payload[0] == 0x7F && payload[1] & 0xE0 == 0xE0)
        let unit = try TSOpusMapping.accessUnit(in: payload, at: 0)
        #expect(Array(payload[unit.range]) == packet)
        #expect(unit.startTrim == (size % 2 == 0 ? 312 : 0) && unit.endTrim == (size > 255 ? 100 : 0))
        #expect(unit.range.upperBound == payload.count)
        #expect(throws: OpusSyntaxError.self) { try TSOpusMapping.accessUnit(in: Array(payload.dropLast()), at: 0) }
    }

    @Test("MPEG-TS descriptors: registration 'Opus' and the channel configuration")
    func descriptors() {
        #expect(TSOpusMapping.descriptors(channelCount: 2) == [0x05, 4, 0x4F, 0x70, 0x75, 0x73, 0x7F, 2, 0x80, 2])
        #expect(TSOpusMapping.channelCount(descriptors: TSOpusMapping.descriptors(channelCount: 1)) == 1)
        #expect(TSOpusMapping.channelCount(descriptors: [0x05, 4, 0x41, 0x43, 0x2D, 0x33]) == nil)
    }
}
