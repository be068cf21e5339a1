import AAC
import Foundation
import TestSupport
import Testing

/// The first header of sample.adts, as the file holds it (bytes read from the file, not computed).
private func firstSampleHeaderBytes() throws -> [UInt8] {
    Array(try MediaFiles.bytes(Media.sample).prefix(7))
}

/// Expects `body` to throw an ``ADTSError`` and returns it.
private func expectADTSError(_ body: () throws(ADTSError) -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ADTSError? {
    do {
        try body()
        Issue.record("expected an ADTSError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

@Suite("ADTSHeader")
struct ADTSHeaderTests {
    @Test("sample.adts: every header parses as MPEG-4 AAC LC 44.1 kHz mono without CRC, and writes back byte for byte", .requiresMedia)
    func sampleHeaders() throws {
        let bytes = try MediaFiles.bytes(Media.sample)
        let frames = ADTSFrameScanner.scan(bytes).frames
        #expect(frames.count == 144)
        for frame in frames {
            let header = frame.header
            // MANIFEST.md: AAC-LC (object type 2), 44.1 kHz, mono, ADTS without CRC, 1 raw block per frame.
            #expect(header.mpegVersion == .mpeg4)
            #expect(header.audioObjectType == .aacLC)
            #expect(header.sampleRate == 44100)
            #expect(header.channelConfiguration.channelCount == 1)
            #expect(header.protectionAbsent)
            #expect(header.rawDataBlockCount == 1)
            #expect(header.headerLength == 7)
            #expect(header.serialized() == Array(frame.bytes.prefix(7)))
        }
    }

    @Test("the 7-byte builder reproduces every header of sample.adts", .requiresMedia)
    func builderMatchesSample() throws {
        for frame in ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample)).frames {
            let built = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 44100, channels: 1, payloadLength: frame.payload.count)
            #expect(built.serialized() == Array(frame.bytes.prefix(7)))
            #expect(built == frame.header)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var sampleRate: Int
        var channels: Int
        var testDescription: String { "\(sampleRate) Hz, \(channels) ch" }
    }

    static let cases: [Case] = [8000, 22050, 44100, 48000, 96000].flatMap { rate in [1, 2].map { Case(sampleRate: rate, channels: $0) } }

    @Test("ffmpeg's AAC encoder: rate, channels, profile and packet count equal ffprobe; headers round-trip; builder matches",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")), arguments: cases)
    func ffmpegStreams(_ testCase: Case) throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Tools.encodeSine(sampleRate: testCase.sampleRate, channels: testCase.channels, seconds: 0.3, into: directory)
        let bytes = [UInt8](try Data(contentsOf: url))
        let result = ADTSFrameScanner.scan(bytes)
        #expect(result.skipped.isEmpty && result.truncation == nil)
        let probe = try Tools.probeAudio(url)
        let first = try #require(result.frames.first).header
        #expect(probe["sample_rate"] == "\(first.sampleRate)")
        #expect(probe["channels"] == first.channelConfiguration.channelCount.map { "\($0)" })
        #expect(probe["profile"] == first.audioObjectType.profileName)
        #expect(probe["nb_read_packets"] == "\(result.frames.count)")
        for frame in result.frames {
            #expect(frame.header.serialized() == Array(frame.bytes.prefix(frame.header.headerLength)))
            let built = try ADTSHeader(audioObjectType: .aacLC, sampleRate: testCase.sampleRate, channels: testCase.channels,
                                       payloadLength: frame.payload.count)
            #expect(built.serialized() == Array(frame.bytes.prefix(7)))
        }
    }

    @Test("ffmpeg -write_mpeg2 1: ID = 1 (MPEG-2) headers parse and round-trip", .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func mpeg2Stream() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Tools.encodeSine(sampleRate: 16000, channels: 1, seconds: 0.3, extra: ["-write_mpeg2", "1"], into: directory)
        let bytes = [UInt8](try Data(contentsOf: url))
        let frames = ADTSFrameScanner.scan(bytes).frames
        let probe = try Tools.probeAudio(url)
        #expect(probe["nb_read_packets"] == "\(frames.count)")
        #expect(probe["sample_rate"] == "16000")
        for frame in frames {
            #expect(frame.header.mpegVersion == .mpeg2)
            #expect(frame.header.serialized() == Array(frame.bytes.prefix(7)))
            let built = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 16000, channels: 1,
                                       payloadLength: frame.payload.count, mpegVersion: .mpeg2)
            #expect(built.serialized() == Array(frame.bytes.prefix(7)))
        }
    }

    @Test("every field is read from its place (13818-7 Table 5 layout, written bit by bit in the test)")
    func allFields() throws {
        // syncword 1111 1111 1111 | ID 1 | layer 00 | protection_absent 0 | profile 10 | sfi 0011 |
        // private 1 | channel 111 | original_copy 1 | home 0 | c_id_bit 1 | c_id_start 0 |
        // aac_frame_length 0 0000 0110 1100 (108) | buffer_fullness 001 0010 0011 (0x123) | blocks 00 | crc 0xBEEF
        let bits = "111111111111" + "1" + "00" + "0" + "10" + "0011" + "1" + "111" + "1" + "0" + "1" + "0"
            + "0000001101100" + "00100100011" + "00"
        let bytes = bitsToBytes(bits) + [0xBE, 0xEF]
        let header = try ADTSHeader.parse(bytes)
        #expect(header.mpegVersion == .mpeg2)
        #expect(!header.protectionAbsent)
        #expect(header.audioObjectType == .aacSSR)
        #expect(header.samplingFrequencyIndex == .hz48000)
        #expect(header.privateBit)
        #expect(header.channelConfiguration == .sevenPointOne)
        #expect(header.channelConfiguration.channelCount == 8)
        #expect(header.originalCopy)
        #expect(!header.home)
        #expect(header.copyrightIdentificationBit)
        #expect(!header.copyrightIdentificationStart)
        #expect(header.frameLength == 108)
        #expect(header.bufferFullness == 0x123)
        #expect(!header.isVariableBitRate)
        #expect(header.numberOfRawDataBlocksInFrame == 0)
        #expect(header.crcCheck == 0xBEEF)
        #expect(header.headerLength == 9)
        #expect(header.payloadLength == 99)
        #expect(header.serialized() == bytes)
    }

    @Test("bad input gives typed errors naming the field and the byte", .requiresMedia)
    func badHeaders() throws {
        let good = try firstSampleHeaderBytes()

        var random: [UInt8] = [0x3A, 0x91, 0x07, 0xC4, 0x55, 0x12, 0xE8]
        var error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(random) }
        #expect(error?.field == "syncword")
        #expect(error?.reason == .badSyncword(found: 0x3A9))

        random = good
        random[1] = (random[1] & ~0x06) | 0x02 // layer = 1
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(random, byteOffset: 100) }
        #expect(error?.field == "layer")
        #expect(error?.reason == .layerNotZero(found: 1))
        #expect(error?.byteOffset == 101)

        var short = good
        short[3] &= ~0x03; short[4] = 0; short[5] = (short[5] & 0x1F) | 0x60 // aac_frame_length = 3
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(short) }
        #expect(error?.field == "aac_frame_length")
        #expect(error?.reason == .frameLengthShorterThanHeader(frameLength: 3, headerLength: 7))

        for index: UInt8 in [13, 14, 15] {
            var reserved = good
            reserved[2] = (reserved[2] & ~0x3C) | (index << 2)
            error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(reserved) }
            #expect(error?.field == "sampling_frequency_index")
            #expect(error?.reason == .reservedSamplingFrequencyIndex(found: index))
        }

        var mpeg2Profile3 = good
        mpeg2Profile3[1] |= 0x08         // ID = 1
        mpeg2Profile3[2] |= 0xC0         // profile = 3
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(mpeg2Profile3) }
        #expect(error?.reason == .reservedProfile(found: 3))

        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(good.prefix(5)) }
        #expect(error?.reason == .truncated(needed: 7, available: 5))

        var protected = good
        protected[1] &= ~0x01 // protection_absent = 0: the CRC bytes are missing
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader.parse(protected) }
        #expect(error?.field == "adts_error_check")
        #expect(error?.reason == .truncated(needed: 9, available: 7))

        #expect(error?.description.contains("needs 9 bytes") == true)
    }

    @Test("the builder rejects what ADTS cannot carry")
    func builderErrors() {
        var error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 44000, channels: 2, payloadLength: 10) }
        #expect(error?.field == "sampling_frequency_index")
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 48000, channels: 7, payloadLength: 10) }
        #expect(error?.field == "channel_configuration")
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader(audioObjectType: .aacLC, sampleRate: 48000, channels: 2, payloadLength: 8185) }
        #expect(error?.reason == .outOfRange(value: 8185, allowed: 0...8184))
        error = expectADTSError { () throws(ADTSError) in _ = try ADTSHeader(audioObjectType: .sbr, sampleRate: 48000, channels: 2, payloadLength: 10) }
        #expect(error?.field == "profile_ObjectType")
        error = expectADTSError { () throws(ADTSError) in
            _ = try ADTSHeader(mpegVersion: .mpeg2, audioObjectType: .aacLTP, samplingFrequencyIndex: .hz48000,
                               channelConfiguration: .stereo, frameLength: 100)
        }
        #expect(error?.reason == .reservedProfile(found: 3))
        // A writer re-uses one header for every frame.
        let base = try? ADTSHeader(audioObjectType: .aacLC, sampleRate: 48000, channels: 2, payloadLength: 0)
        #expect((try? base?.withPayloadLength(100))?.frameLength == 107)
        error = expectADTSError { () throws(ADTSError) in _ = try base?.withPayloadLength(Int.max) }
        #expect(error?.field == "aac_frame_length")
        // 8184 is the largest payload: aac_frame_length 8191.
        #expect((try? ADTSHeader(audioObjectType: .aacLC, sampleRate: 48000, channels: 8, payloadLength: 8184))?.frameLength == 8191)
    }

    @Test("sampling frequency index table (14496-3 Table 1.18) and channel configurations (Table 1.19)")
    func tables() {
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        #expect(SamplingFrequencyIndex.allCases.map(\.hertz) == rates)
        for (index, rate) in rates.enumerated() {
            #expect(SamplingFrequencyIndex(hertz: rate)?.rawValue == UInt8(index))
        }
        #expect(SamplingFrequencyIndex(rawValue: 13) == nil)
        #expect(SamplingFrequencyIndex(hertz: 44000) == nil)
        #expect((0...7).map { ChannelConfiguration(rawValue: UInt8($0))?.channelCount } == [nil, 1, 2, 3, 4, 5, 6, 8])
        #expect(ChannelConfiguration(rawValue: 8) == nil)
        #expect(ChannelConfiguration(rawValue: 15) == nil)
        #expect(AudioObjectType(rawValue: 0) == nil)
        #expect(AudioObjectType(rawValue: 31) == nil)
        #expect(AudioObjectType.aacLC.profileName == "LC")
        #expect(AudioObjectType.sbr.profileName == "HE-AAC")
        #expect(AudioObjectType.ps.profileName == "HE-AACv2")
        #expect(AudioObjectType.aacMain.profileName == "Main")
        #expect(AudioObjectType.aacSSR.profileName == "SSR")
        #expect(AudioObjectType.aacLTP.profileName == "LTP")
    }
}

/// Packs a string of `0`/`1` characters into bytes, padding the last byte with zeros.
func bitsToBytes(_ bits: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var current: UInt8 = 0
    var count = 0
    for character in bits where character == "0" || character == "1" {
        current = current << 1 | (character == "1" ? 1 : 0)
        count += 1
        if count == 8 {
            bytes.append(current)
            current = 0
            count = 0
        }
    }
    if count > 0 { bytes.append(current << UInt8(8 - count)) }
    return bytes
}
