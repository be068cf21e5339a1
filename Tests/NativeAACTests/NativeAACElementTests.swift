import AAC
import Bitstream
import Foundation
import NativeAAC
import TestSupport
import Testing

/// Elements and framings FFmpeg's encoder does not write: data stream and fill elements in front of the
/// audio (FFmpeg decodes them as an oracle), and ADTS frames with several raw data blocks.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACElementTests {
    /// A data_stream_element (byte-aligned, 3 bytes) and a fill_element (2 bytes) before the pulse block's SCE.
    static func blockWithDataAndFill(globalGain: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.u(3, 4); writer.u(4, 0); writer.u(1, 1); writer.u(8, 3) // DSE, tag 0, byte-aligned, 3 bytes
        writer.alignWithZeros()
        writer.writeBytes([0xDE, 0xAD, 0x42])
        writer.u(3, 6); writer.u(4, 2); writer.u(8, 0xA5); writer.u(8, 0x5A) // FIL, 2 bytes
        var bytes = writer.bytes
        // The SCE block starts byte-aligned after 4 + 1 + 2 bytes and 7 bits: rebuild it at this bit offset.
        let sce = NativeAACPulseDataTests.block(globalGain: globalGain)
        var shifted = BitWriter()
        shifted.writeBytes(bytes.dropLast())
        shifted.u(7, UInt32(bytes.last ?? 0) >> 1)
        for byte in sce { shifted.u(8, UInt32(byte)) }
        bytes = shifted.bytes
        return bytes
    }

    @Test("data stream and fill elements are skipped: the audio decodes as FFmpeg decodes it")
    func dataAndFillElements() throws {
        var stream: [UInt8] = []
        for frame in 0..<8 {
            let payload = Self.blockWithDataAndFill(globalGain: 150 + frame % 2)
            stream += try ADTSHeader(audioObjectType: .aacLC, sampleRate: 44100, channels: 1, payloadLength: payload.count).serialized() + payload
        }
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("dse.aac")
        try Data(stream).write(to: url)
        let reference = try AACOracle.ffmpegDecode(url)
        let ours = try AACOracle.nativeDecode(stream)
        let difference = AACOracle.compare(ours.samples, reference, channels: 1)
        print("DSE + FIL: \(difference)")
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        #expect(reference.count == ours.samples.count && (reference.map { abs($0) }.max() ?? 0) > 0.01)
        #expect(difference.maximum <= 1.0 / 16384)
    }

    @Test("an ADTS frame of three raw data blocks (no CRC) decodes like three frames of one block")
    func multiBlockFrame() throws {
        let blocks = (0..<3).map { NativeAACPulseDataTests.block(globalGain: 150 + $0) }
        let payload = blocks.flatMap { $0 }
        let header = try ADTSHeader(audioObjectType: .aacLC, samplingFrequencyIndex: .hz44100, channelConfiguration: .mono,
                                    frameLength: 7 + payload.count, numberOfRawDataBlocksInFrame: 2)
        let frame = try ADTSFrame.parse(ArraySlice(header.serialized() + payload))
        var together = try NativeAACDecoder(adtsHeader: header)
        var apart = try NativeAACDecoder(adtsHeader: header)
        let joint = together.decode(adtsFrame: frame)
        let separate = blocks.map { apart.decode(rawDataBlock: $0) }
        #expect(joint.count == 3)
        #expect(joint.map(\.status) == [.decoded, .decoded, .decoded])
        #expect(joint.map(\.channels) == separate.map(\.channels))
    }
}
