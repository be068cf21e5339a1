import AAC
import Containers
import Foundation
import MediaCore
import Testing
import TestSupport

/// The speaker mask of extensible WAV files: what the AAC channel configurations map to, checked
/// against the layout ffprobe gives an AAC stream of that configuration made by ffmpeg and the layout
/// it reads from our WAV header.
@Suite("WAVChannelMask")
struct WAVChannelMaskTests {
    @Test("an AAC configuration's mask gives the WAV the layout ffprobe sees in the AAC stream",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")),
          arguments: ["3.0", "4.0", "5.0", "5.1", "7.1"])
    func aacConfigurationLayouts(layout: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let aac = directory.appendingPathComponent("tone.aac").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "0.2",
                                          "-af", "aformat=channel_layouts=\(layout)", "-c:a", "aac", aac])
        let header = try #require(ADTSFrameScanner.scan([UInt8](try Data(contentsOf: URL(fileURLWithPath: aac)))).frames.first).header
        let channels = try #require(header.channelConfiguration.channelCount)
        let mask = try #require(WAVChannelMask(aacChannelConfiguration: header.channelConfiguration))
        #expect(mask.speakerCount == channels)

        let path = directory.appendingPathComponent("ours.wav").path
        var writer = try WAVWriter(path: path, sampleRate: 48000, channelCount: channels, channelMask: mask)
        try writer.write(AudioBuffer(sampleRate: 48000, channelCount: channels, format: .int16, isInterleaved: true,
                                     channelData: [[UInt8](repeating: 0, count: 480 * channels * 2)]))
        try writer.finish()
        func probedLayout(of file: String) throws -> String {
            try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=channel_layout", "-of", "csv=p=0", file])
                .text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try probedLayout(of: path) == probedLayout(of: aac))
        #expect(try probedLayout(of: path) == layout)
        let format = try WAVReader(path: path).format
        #expect(format.speakers == mask)
    }

    @Test("5.1 is 0x3F; a mask must name as many speakers as there are channels")
    func fivePointOneAndMismatch() throws {
        #expect(WAVChannelMask.fivePointOne.rawValue == 0x3F)
        #expect(WAVChannelMask(aacChannelConfiguration: .fivePointOne) == .fivePointOne)
        #expect(WAVChannelMask(aacChannelConfiguration: .definedInStream) == nil)
        #expect(throws: ContainerWriteError.self) {
            _ = try WAVWriter(sink: MemoryByteSink(), sampleRate: 48000, channelCount: 5, channelMask: .fivePointOne)
        }
        let writer = try WAVWriter(sink: MemoryByteSink(), sampleRate: 48000, channelCount: 6, channelMask: .fivePointOne)
        // fmt chunk at 12: 8-byte header, then dwChannelMask at payload offset 20.
        #expect(Array(writer.sink.bytes[40..<44]) == [0x3F, 0, 0, 0])
    }
}
