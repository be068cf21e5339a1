import AAC
import Bitstream
import Foundation
import TestSupport
import Testing

private func expectConfigError(_ body: () throws(AudioSpecificConfigError) -> Void,
                               sourceLocation: SourceLocation = #_sourceLocation) -> AudioSpecificConfigError? {
    do {
        try body()
        Issue.record("expected an AudioSpecificConfigError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Remuxes an ADTS file into .m4a with ffmpeg (`-c copy`, which runs `aac_adtstoasc`) and returns the
/// `DecoderSpecificInfo` ffmpeg wrote into the `esds` box.
private func ffmpegDecoderSpecificInfo(forADTS url: URL, in directory: URL) throws -> [UInt8] {
    let m4a = directory.appendingPathComponent("remux.m4a")
    try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-c", "copy", m4a.path])
    return try #require(decoderSpecificInfo(inMP4: [UInt8](try Data(contentsOf: m4a))))
}

@Suite("AudioSpecificConfig")
struct AudioSpecificConfigTests {
    @Test("sample.mp4's DecoderSpecificInfo: AAC LC, 44.1 kHz, mono; round trip; equals the config built from sample.adts", .requiresMedia)
    func sampleMP4() throws {
        let info = try #require(decoderSpecificInfo(inMP4: try MediaFiles.bytes("encoded/sample.mp4")))
        // ffprobe -show_data shows extradata 12 08 for this track.
        #expect(info == [0x12, 0x08])
        let config = try AudioSpecificConfig.parse(info)
        #expect(config.audioObjectType == .aacLC)
        #expect(config.samplingFrequency == .index(.hz44100))
        #expect(config.channelConfiguration == .mono)
        #expect(config.gaSpecificConfig == GASpecificConfig())
        #expect(config.profileName == "LC")
        #expect(config.unparsedBits.isEmpty)
        #expect(try config.serialized() == info)
        let header = try #require(ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample)).frames.first).header
        #expect(try AudioSpecificConfig(adtsHeader: header).serialized() == info)
    }

    @Test("ADTS → AudioSpecificConfig equals what ffmpeg writes into the m4a for sample.adts", .requiresMedia, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
    func sampleADTSRemux() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let info = try ffmpegDecoderSpecificInfo(forADTS: MediaFiles.url(Media.sample), in: directory)
        let header = try #require(ADTSFrameScanner.scan(try MediaFiles.bytes(Media.sample)).frames.first).header
        #expect(try AudioSpecificConfig(adtsHeader: header).serialized() == info)
    }

    @Test("ffmpeg streams: the config from the ADTS header equals ffmpeg's esds; ffmpeg's config round-trips",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")),
          arguments: [(8000, 1), (22050, 2), (44100, 1), (48000, 2), (96000, 1)])
    func ffmpegStreams(sampleRate: Int, channels: Int) throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Tools.encodeSine(sampleRate: sampleRate, channels: channels, seconds: 0.2, into: directory)
        let header = try #require(ADTSFrameScanner.scan([UInt8](try Data(contentsOf: url))).frames.first).header
        let info = try ffmpegDecoderSpecificInfo(forADTS: url, in: directory)
        let config = try AudioSpecificConfig.parse(info)
        #expect(try config.serialized() == info)
        #expect(try AudioSpecificConfig(adtsHeader: header).serialized() == info)
        #expect(config.samplingFrequency.hertz == sampleRate)
        #expect(config.channelCount == channels)
        // And back: the ADTS header derived from the config is the header ffmpeg wrote.
        let back = try config.adtsHeader(payloadLength: header.payloadLength)
        #expect(back.serialized() == header.serialized())
    }

    @Test("channel_configuration 0: the PCE from the first raw data block gives ffmpeg's esds config (2.1 layout)",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
    func programConfigElement() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("pce.aac")
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                                        "-af", "pan=2.1|c0=c0|c1=c0|c2=c0", "-t", "0.2", "-c:a", "aac", "-f", "adts", url.path])
        let frame = try #require(ADTSFrameScanner.scan([UInt8](try Data(contentsOf: url))).frames.first)
        #expect(frame.header.channelConfiguration == .definedInStream)
        var reader = BitReader(frame.payload)
        #expect(reader.readBits(3) == 5) // id_syn_ele = ID_PCE
        let pce = try ProgramConfigElement.parse(from: &reader)
        let probe = try Tools.probeAudio(url)
        #expect(probe["channels"] == "\(pce.channelCount)")
        let info = try ffmpegDecoderSpecificInfo(forADTS: url, in: directory)
        let config = try AudioSpecificConfig.parse(info)
        #expect(config.gaSpecificConfig?.programConfigElement == pce)
        #expect(config.channelCount == 3)
        #expect(try config.serialized() == info)
        #expect(try AudioSpecificConfig(adtsHeader: frame.header, programConfigElement: pce).serialized() == info)
        let missing = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig(adtsHeader: frame.header) }
        #expect(missing?.field == "program_config_element")
    }

    @Test("escape 15: explicit 24-bit sampling frequency (bits laid out per 14496-3 Table 1.15)")
    func explicitFrequency() throws {
        // audioObjectType 00010 | samplingFrequencyIndex 1111 | samplingFrequency 44000 (24 bits) |
        // channelConfiguration 0010 | frameLengthFlag 0 | dependsOnCoreCoder 0 | extensionFlag 0
        let bits = "00010" + "1111" + "000000001010101111100000" + "0010" + "000"
        let bytes = bitsToBytes(bits)
        let config = try AudioSpecificConfig.parse(bytes)
        #expect(config.samplingFrequency == .explicit(hertz: 44000))
        #expect(config.samplingFrequency.hertz == 44000)
        #expect(config.channelConfiguration == .stereo)
        #expect(try config.serialized() == bytes)
        let built = AudioSpecificConfig(audioObjectType: .aacLC, samplingFrequency: try #require(SamplingFrequency(hertz: 44000)),
                                        channelConfiguration: .stereo)
        #expect(try built.serialized() == bytes)
        // An explicit frequency equal to a table rate stays explicit.
        let explicit48k = bitsToBytes("00010" + "1111" + "000000001011101110000000" + "0010" + "000")
        #expect(try AudioSpecificConfig.parse(explicit48k).samplingFrequency == .explicit(hertz: 48000))
        #expect(try AudioSpecificConfig.parse(explicit48k).serialized() == explicit48k)
        // ADTS cannot carry it.
        #expect(throws: ADTSError.self) { try config.adtsHeader(payloadLength: 100) }
    }

    @Test("explicit SBR (5) and PS (29) signalling, with the core type after the extension frequency")
    func explicitSBRAndPS() throws {
        // 00101 (SBR) | 0110 (24000) | 0010 (stereo) | 0011 (extension 48000) | 00010 (AAC LC) | 000
        let sbrBits = bitsToBytes("00101" + "0110" + "0010" + "0011" + "00010" + "000")
        let sbr = try AudioSpecificConfig.parse(sbrBits)
        #expect(sbr.audioObjectType == .aacLC)
        #expect(sbr.explicitExtension == .init(audioObjectType: .sbr, samplingFrequency: .index(.hz48000)))
        #expect(sbr.samplingFrequency.hertz == 24000)
        #expect(sbr.outputSampleRate == 48000)
        #expect(sbr.sbrPresent && !sbr.psPresent)
        #expect(sbr.profileName == "HE-AAC")
        #expect(try sbr.serialized() == sbrBits)

        // 11101 (PS) | 0111 (22050) | 0001 (mono) | 0100 (extension 44100) | 00010 (AAC LC) | 000
        let psBits = bitsToBytes("11101" + "0111" + "0001" + "0100" + "00010" + "000")
        let ps = try AudioSpecificConfig.parse(psBits)
        #expect(ps.psPresent && ps.sbrPresent)
        #expect(ps.profileName == "HE-AACv2")
        #expect(ps.outputSampleRate == 44100)
        #expect(try ps.serialized() == psBits)
    }

    @Test("backward-compatible signalling: sync extension 0x2B7 (SBR) and 0x548 (PS)")
    func syncExtension() throws {
        // 00010 (LC) | 0110 (24000) | 0001 | 000 | 01010110111 (0x2B7) | 00101 (SBR) | 1 | 0011 (48000) |
        // 10101001000 (0x548) | 1
        let bits = bitsToBytes("00010" + "0110" + "0001" + "000" + "01010110111" + "00101" + "1" + "0011" + "10101001000" + "1")
        let config = try AudioSpecificConfig.parse(bits)
        #expect(config.syncExtension == .init(audioObjectType: .sbr, sbrPresent: true, samplingFrequency: .index(.hz48000), psPresent: true))
        #expect(config.profileName == "HE-AACv2")
        #expect(config.outputSampleRate == 48000)
        #expect(config.unparsedBits.isEmpty)
        #expect(try config.serialized() == bits)

        // Without the PS part.
        let sbrOnly = bitsToBytes("00010" + "0110" + "0001" + "000" + "01010110111" + "00101" + "1" + "0011")
        let parsed = try AudioSpecificConfig.parse(sbrOnly)
        #expect(parsed.syncExtension?.psPresent == nil)
        #expect(parsed.profileName == "HE-AAC")
        #expect(try parsed.serialized() == sbrOnly)
    }

    @Test("escaped object types (32+) and types without a parsed specific config round-trip through unparsedBits")
    func escapedObjectType() throws {
        // 11111 + 001010 (32 + 10 = 42, USAC) | 0011 (48000) | 0010 | then 21 bits of UsacConfig we keep raw
        let bits = bitsToBytes("11111" + "001010" + "0011" + "0010" + "101100111000111100001")
        let config = try AudioSpecificConfig.parse(bits)
        #expect(config.audioObjectType == .usac)
        #expect(config.gaSpecificConfig == nil)
        #expect(config.unparsedBits.count == 21) // 40 input bits − 19 interpreted
        #expect(try config.serialized() == bits)
        // ER AAC ELD (39): GASpecificConfig does not apply either.
        let eld = bitsToBytes("11111" + "000111" + "0011" + "0001" + "0110110")
        #expect(try AudioSpecificConfig.parse(eld).audioObjectType == .erAACELD)
        #expect(try AudioSpecificConfig.parse(eld).serialized() == eld)
    }

    @Test("error-resilient AAC LC: GASpecificConfig with resilience flags, then epConfig")
    func errorResilient() throws {
        // 10001 (17) | 0011 | 0010 | 0 0 1 (extensionFlag) | 1 0 1 (resilience) | 0 (extensionFlag3) | 01 (epConfig)
        let bits = bitsToBytes("10001" + "0011" + "0010" + "001" + "101" + "0" + "01")
        let config = try AudioSpecificConfig.parse(bits)
        #expect(config.gaSpecificConfig?.extension?.resilienceFlags == .init(sectionData: true, scalefactorData: false, spectralData: true))
        #expect(config.errorProtectionConfiguration == 1)
        #expect(try config.serialized() == bits)
    }

    @Test("bad configurations give typed errors naming the field and the bit")
    func badConfigs() throws {
        var error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig.parse([0x00, 0x08]) }
        #expect(error?.field == "audioObjectType")
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig.parse(bitsToBytes("00010" + "1101" + "0001" + "000")) }
        #expect(error?.field == "samplingFrequencyIndex")
        #expect(error?.reason == .reserved(value: 13))
        #expect(error?.bitOffset == 5)
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig.parse(bitsToBytes("00010" + "0100" + "1000" + "000")) }
        #expect(error?.field == "channelConfiguration")
        #expect(error?.reason == .reserved(value: 8))
        #expect(error?.bitOffset == 9)
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig.parse([0x12]) }
        #expect(error?.reason == .endOfData)
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig.parse(bitsToBytes("00010" + "1111" + String(repeating: "0", count: 24) + "0001000")) }
        #expect(error?.field == "samplingFrequency")
        // channelConfiguration 0 announces a PCE that is not there.
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try AudioSpecificConfig.parse([0x12, 0x00]) }
        #expect(error?.reason == .endOfData)
        // Building: AAC LC without GASpecificConfig, PCE missing for configuration 0.
        var config = AudioSpecificConfig(audioObjectType: .aacLC, samplingFrequency: .index(.hz44100), channelConfiguration: .stereo)
        config.gaSpecificConfig = nil
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try config.serialized() }
        #expect(error?.field == "GASpecificConfig")
        config = AudioSpecificConfig(audioObjectType: .aacLC, samplingFrequency: .index(.hz44100), channelConfiguration: .definedInStream)
        error = expectConfigError { () throws(AudioSpecificConfigError) in _ = try config.serialized() }
        #expect(error?.field == "program_config_element")
    }

    @Test("random bytes never trap: they parse or fail with a typed error, and what parses round-trips")
    func randomConfigs() {
        var state: UInt64 = 42
        for length in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<(length % 12) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            guard let config = try? AudioSpecificConfig.parse(bytes) else { continue }
            #expect((try? config.serialized()) == bytes, "\(bytes)")
        }
    }
}
