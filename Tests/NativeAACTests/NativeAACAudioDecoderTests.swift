import AAC
import CodecInterface
import Foundation
import MediaCore
import NativeAAC
import TestSupport
import Testing

/// The decoder behind CodecInterface's `AudioDecoder`: what the `native` engine hands the sessions.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACAudioDecoderTests {
    @Test("access units through AudioDecoder: float planar buffers equal to the frame decoder's; damage listed, not thrown")
    func audioDecoderMatchesFrameDecoder() throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AACOracle.encode(NativeAACDecoderFFmpegTests.stereo, sampleRate: 48000, channels: 2, seconds: 0.5, bitRate: 96000,
                                       into: directory, name: "ad.aac")
        let frames = ADTSFrameScanner.scan([UInt8](try Data(contentsOf: url))).frames
        let header = try #require(frames.first).header
        let config = try AudioSpecificConfig(adtsHeader: header)
        let format = AudioFormatDescription(codec: .aac, sampleRate: 48000, channelCount: 2, profile: "LC",
                                            audioSpecificConfig: try config.serialized())
        let decoder = try NativeAACAudioDecoder(format: format)
        var reference = try NativeAACDecoder(adtsHeader: header)
        for (index, frame) in frames.enumerated() {
            var data = Array(frame.payload)
            if index == 3 { data = Array(data.prefix(5)) }
            let expected = reference.decode(rawDataBlock: data)
            let buffers = try decoder.decode(EncodedAudioFrame(data: data, pts: MediaTime(value: Int64(index) * 1024, timescale: 48000),
                                                                duration: MediaTime(value: 1024, timescale: 48000), format: format))
            let buffer = try #require(buffers.first)
            #expect(buffers.count == 1 && buffer.format == .float32 && !buffer.isInterleaved && buffer.frameCount == 1024)
            #expect(buffer.planarFloat32 == expected.channels)
            #expect(buffer.interleavedInt16 == expected.interleavedInt16)
        }
        #expect(decoder.concealedFrames.map(\.index) == [3])
        #expect(try decoder.flush().isEmpty)
    }

    @Test("HE-AAC is refused naming the object type")
    func heAACRefused() throws {
        // HE-AAC with explicit signalling: an AAC-LC core at 24 kHz and SBR to 48 kHz.
        let config = AudioSpecificConfig(audioObjectType: .aacLC, samplingFrequency: .index(.hz24000), channelConfiguration: .stereo,
                                         explicitExtension: .init(audioObjectType: .sbr, samplingFrequency: .index(.hz48000)))
        let format = AudioFormatDescription(codec: .aac, sampleRate: 48000, channelCount: 2, profile: "HE-AAC",
                                            audioSpecificConfig: try config.serialized())
        do {
            _ = try NativeAACAudioDecoder(format: format)
            Issue.record("HE-AAC was accepted")
        } catch {
            guard case let .unsupportedProperty(_, reason, engine) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(engine == "native" && reason.contains("SBR"), "\(reason)")
        }
    }
}
