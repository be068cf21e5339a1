import AAC
import Foundation
import NativeAAC
import TestSupport
import Testing

/// The native decoder against FFmpeg's float decoder on streams FFmpeg's `aac` encoder makes:
/// every sample within 2^-14 of full scale, RMS difference below 2^-17.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACDecoderFFmpegTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var sampleRate: Int
        var channels: Int
        var bitRate: Int
        var extra: [String] = []
        var seconds = 2.0
        var testDescription: String { name }
    }

    static let music = "aevalsrc=exprs='0.3*sin(2*PI*440*t)+0.2*sin(2*PI*1330*t+sin(2*PI*3*t))+0.05*sin(2*PI*7000*t)'"

    static let cases: [Case] = [
        Case(name: "mono 44.1 kHz 64 kbit/s tones", source: music, sampleRate: 44100, channels: 1, bitRate: 64000),
    ]

    @Test(arguments: cases)
    func matchesFFmpeg(_ item: Case) throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try AACOracle.encode(item.source, sampleRate: item.sampleRate, channels: item.channels, seconds: item.seconds,
                                       bitRate: item.bitRate, extra: item.extra, into: directory, name: "in.aac")
        let reference = try AACOracle.ffmpegDecode(url)
        let ours = try AACOracle.nativeDecode([UInt8](try Data(contentsOf: url)))
        #expect(ours.channels == item.channels)
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        let difference = AACOracle.compare(ours.samples, reference, channels: item.channels)
        print("\(item.name): ours \(ours.samples.count / item.channels), ffmpeg \(reference.count / item.channels) samples; \(difference)")
        #expect(ours.samples.count == reference.count)
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
    }
}
