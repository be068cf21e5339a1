import AAC
import Foundation
import NativeAAC
import TestSupport
import Testing

/// Damaged input never stops the decoder: truncated blocks, flipped bits and wrong CRCs are concealed
/// and reported frame by frame, and every input frame gives one output frame.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACDamagedInputTests {
    /// A stereo stream with short blocks, M/S, intensity and PNS, as FFmpeg's encoder makes it.
    static func stream() throws -> [ADTSFrame] {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AACOracle.encode(NativeAACDecoderFFmpegTests.transientStereo, sampleRate: 44100, channels: 2, seconds: 1.5,
                                       bitRate: 96000, into: directory, name: "damaged.aac")
        return ADTSFrameScanner.scan([UInt8](try Data(contentsOf: url))).frames
    }

    @Test("truncated raw data blocks: concealed with a typed error, one output frame each")
    func truncatedBlocks() throws {
        let frames = try Self.stream()
        var decoder = try NativeAACDecoder(adtsHeader: #require(frames.first).header)
        var generator = SplitMix64(seed: 21)
        var concealed = 0
        for frame in frames {
            let payload = Array(frame.payload)
            let cut = Int(generator.next() % UInt64(max(payload.count, 1)))
            let decoded = decoder.decode(rawDataBlock: payload.prefix(cut))
            #expect(decoded.channels.count == 2 && decoded.sampleCount == 1024)
            if decoded.status.isConcealed { concealed += 1 }
        }
        print("truncated: \(concealed) of \(frames.count) frames concealed")
        #expect(concealed > frames.count / 2)
        #expect(decoder.statistics.decodedFrames + decoder.statistics.concealedFrames == frames.count)
    }

    @Test("flipped bits: every frame accounted for, output finite and bounded")
    func flippedBits() throws {
        let frames = try Self.stream()
        var generator = SplitMix64(seed: 5)
        for round in 0..<8 {
            var decoder = try NativeAACDecoder(adtsHeader: #require(frames.first).header)
            var outputs = 0
            for frame in frames {
                var payload = Array(frame.payload)
                for _ in 0..<(1 + round) where !payload.isEmpty {
                    let bit = Int(generator.next() % UInt64(payload.count * 8))
                    payload[bit / 8] ^= UInt8(0x80 >> (bit % 8))
                }
                let decoded = decoder.decode(rawDataBlock: payload)
                outputs += 1
                #expect(decoded.channels.allSatisfy { $0.count == 1024 && $0.allSatisfy(\.isFinite) })
            }
            #expect(outputs == frames.count)
            #expect(decoder.statistics.decodedFrames + decoder.statistics.concealedFrames == frames.count)
        }
    }

    @Test("CRC-protected frames decode like unprotected ones; a wrong crc_check conceals that frame alone")
    func crcProtection() throws {
        let frames = try Self.stream()
        let first = try #require(frames.first)
        var plain = try NativeAACDecoder(adtsHeader: first.header)
        var probe = try NativeAACDecoder(adtsHeader: first.header)
        var protected: [[UInt8]] = []
        var expected: [[[Float]]] = []
        for frame in frames {
            let payload = Array(frame.payload)
            expected.append(plain.decode(rawDataBlock: payload).channels)
            _ = probe.decode(rawDataBlock: payload)
            let header = try ADTSHeader(protectionAbsent: false, audioObjectType: .aacLC,
                                        samplingFrequencyIndex: frame.header.samplingFrequencyIndex,
                                        channelConfiguration: frame.header.channelConfiguration, frameLength: 9 + payload.count)
            let unsigned = try ADTSFrame.parse(ArraySlice(header.serialized() + payload))
            let crc = unsigned.computedCRC(protectedRegions: probe.protectedRegions)
            protected.append(header.withCRCCheck(crc).serialized() + payload)
        }
        var decoder = try NativeAACDecoder(adtsHeader: first.header)
        var mismatches = 0
        for (index, bytes) in protected.enumerated() {
            var bytes = bytes
            let damaged = index % 5 == 2
            if damaged { bytes[7] ^= 0x01 } // crc_check's high byte
            let decoded = decoder.decode(adtsFrame: try ADTSFrame.parse(ArraySlice(bytes)))
            #expect(decoded.count == 1)
            if damaged {
                guard case .concealed(.crcMismatch) = decoded.first?.status else {
                    Issue.record("frame \(index): expected a CRC mismatch, got \(String(describing: decoded.first?.status))")
                    continue
                }
                mismatches += 1
            } else {
                #expect(decoded.first?.status == .decoded, "frame \(index)")
                // After a concealed frame the overlap differs; compare only frames whose neighbours decoded.
                if index % 5 != 3 { #expect(decoded.first?.channels == expected[index], "frame \(index)") }
            }
        }
        #expect(mismatches == (protected.count + 2) / 5)
    }

    @Test("unsupported object types and coupling channels are refused by name")
    func refusals() throws {
        let he = AudioSpecificConfig(audioObjectType: .sbr, samplingFrequency: .index(.hz24000), channelConfiguration: .stereo)
        #expect(throws: NativeAACError.unsupportedObjectType(.sbr)) { try NativeAACDecoder(audioSpecificConfig: he) }
        let main = AudioSpecificConfig(audioObjectType: .aacMain, samplingFrequency: .index(.hz48000), channelConfiguration: .mono)
        #expect(throws: NativeAACError.unsupportedObjectType(.aacMain)) { try NativeAACDecoder(audioSpecificConfig: main) }
        var decoder = try NativeAACDecoder(audioSpecificConfig: AudioSpecificConfig(audioObjectType: .aacLC,
                                                                                     samplingFrequency: .index(.hz48000),
                                                                                     channelConfiguration: .mono))
        // id_syn_ele 2 (coupling_channel_element) then zeros.
        let decoded = decoder.decode(rawDataBlock: [0x40, 0, 0, 0, 0, 0, 0, 0])
        #expect(decoded.status == .concealed(.unsupportedElement("coupling_channel_element", bitOffset: 0)))
    }
}
