import AAC
import Bitstream
import Foundation
@testable import NativeAAC
import TestSupport
import Testing

/// Pulse data (ISO/IEC 14496-3 §4.6.4), which FFmpeg's encoder never writes: a raw data block written
/// here bit by bit with the annex 4.A codewords — escapes, sign bits and two pulses (one on a negative
/// escape value, one on a zero) — decoded by FFmpeg and by us.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACPulseDataTests {
    /// The quantised values of the first 16 lines (bands 0–3 at 44.1 kHz), coded as codebook 11 pairs.
    static let values: [Int] = [3, 0, 0, 0, 1, -2, -5, -20, 0, 0, 2, 2, 0, -1, 7, 0]

    /// One single_channel_element with a long sine window, 4 bands of codebook 11, flat scalefactors and
    /// pulse data, then END.
    static func block(globalGain: Int, pulses: Bool = true) -> [UInt8] {
        var writer = BitWriter()
        func huffman(_ book: AACHuffmanCodebook, _ index: Int) {
            writer.writeBits(UInt64(book.codewords[index]), count: Int(book.lengths[index]))
        }
        writer.u(3, 0)                      // id_syn_ele: SCE
        writer.u(4, 0)                      // element_instance_tag
        writer.u(8, UInt32(globalGain))     // global_gain
        writer.u(1, 0); writer.u(2, 0); writer.u(1, 0) // ics_reserved_bit, ONLY_LONG, sine
        writer.u(6, 4); writer.u(1, 0)      // max_sfb 4, no predictor data
        writer.u(4, 11); writer.u(5, 4)     // one section: codebook 11 over 4 bands
        for _ in 0..<4 { huffman(.scalefactor, 60) } // every scalefactor = global_gain
        writer.flag(pulses)                 // pulse_data_present
        if pulses {
            writer.u(2, 1); writer.u(6, 1)  // 2 pulses from band 1 (line 4)
            writer.u(5, 3); writer.u(4, 5)  // line 7 (the −20): −20 − 5
            writer.u(5, 2); writer.u(4, 7)  // line 9 (a zero): −7
        }
        writer.u(1, 0); writer.u(1, 0)      // no TNS, no gain control
        for pair in stride(from: 0, to: 16, by: 2) {
            let (y, z) = (values[pair], values[pair + 1])
            huffman(AACHuffmanCodebook.spectral[10], min(abs(y), 16) * 17 + min(abs(z), 16))
            if y != 0 { writer.u(1, y < 0 ? 1 : 0) }
            if z != 0 { writer.u(1, z < 0 ? 1 : 0) }
            for value in [y, z] where abs(value) >= 16 {
                // escape: N ones, a zero, an (N + 4)-bit word; 20 = 2^4 + 4.
                writer.u(1, 0)
                writer.u(4, UInt32(abs(value) - 16))
            }
        }
        writer.u(3, 7)                      // END
        writer.alignWithZeros()
        return writer.bytes
    }

    @Test("a block with pulses on a negative escape value and on a zero decodes as FFmpeg decodes it")
    func pulsesMatchFFmpeg() throws {
        func makeStream(pulses: Bool) throws -> [UInt8] {
            var stream: [UInt8] = []
            for frame in 0..<12 {
                let payload = Self.block(globalGain: 160 + frame % 3, pulses: pulses)
                stream += try ADTSHeader(audioObjectType: .aacLC, sampleRate: 44100, channels: 1, payloadLength: payload.count).serialized() + payload
            }
            return stream
        }
        let stream = try makeStream(pulses: true)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("pulses.aac")
        try Data(stream).write(to: url)
        let reference = try AACOracle.ffmpegDecode(url)
        let ours = try AACOracle.nativeDecode(stream)
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        #expect(ours.statistics.pulseStreams == 12 && ours.statistics.escapeBands == 48)
        let difference = AACOracle.compare(ours.samples, reference, channels: 1)
        let peak = reference.map { abs($0) }.max() ?? 0
        print("pulse data: peak \(peak), \(difference)")
        #expect(reference.count == ours.samples.count && peak > 0.01)
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
        // Without the pulses the output differs: the comparison above sees them.
        let without = try AACOracle.nativeDecode(try makeStream(pulses: false))
        #expect(AACOracle.compare(without.samples, ours.samples, channels: 1).maximum > 0.001)
    }
}
