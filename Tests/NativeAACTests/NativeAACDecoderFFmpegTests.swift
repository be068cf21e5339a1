import AAC
import Foundation
import NativeAAC
import TestSupport
import Testing

/// The native decoder against FFmpeg's float decoder on streams FFmpeg's `aac` encoder makes:
/// every sample within 2^-14 of full scale, RMS difference below 2^-17.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct NativeAACDecoderFFmpegTests {
    /// A coding tool a stream is made to exercise (checked in the decoder's statistics).
    enum Feature: String, Sendable {
        case shortWindows, tns, midSide, intensity, noise, escape, pulse

        func count(in statistics: AACDecoderStatistics) -> Int {
            switch self {
            case .shortWindows: return statistics.shortWindowStreams
            case .tns: return statistics.tnsStreams
            case .midSide: return statistics.midSideBands
            case .intensity: return statistics.intensityBands
            case .noise: return statistics.noiseBands
            case .escape: return statistics.escapeBands
            case .pulse: return statistics.pulseStreams
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var sampleRate: Int
        var channels: Int
        var bitRate: Int
        var extra: [String] = []
        var seconds = 2.0
        var features: [Feature] = []
        var testDescription: String { name }
    }

    static let music = "aevalsrc=exprs='0.3*sin(2*PI*440*t)+0.2*sin(2*PI*1330*t+sin(2*PI*3*t))+0.05*sin(2*PI*7000*t)'"

    static let stereo = "aevalsrc=exprs='0.3*sin(2*PI*440*t)+0.1*sin(2*PI*2500*t+sin(2*PI*2*t))|0.25*sin(2*PI*440*t+0.3)+0.12*sin(2*PI*3100*t)'"
    /// Clicks of a high tone over a quiet low one: transients that force EIGHT_SHORT_SEQUENCE windows.
    static let transient = "aevalsrc=exprs='if(lt(mod(t\\,0.25)\\,0.01)\\,0.8*sin(2*PI*3000*t)\\,0.02*sin(2*PI*300*t))'"
    static let transientStereo = "aevalsrc=exprs='if(lt(mod(t\\,0.2)\\,0.008)\\,0.7*sin(2*PI*2500*t)\\,0.03*sin(2*PI*250*t))|if(lt(mod(t+0.1\\,0.2)\\,0.008)\\,0.6*sin(2*PI*1800*t)\\,0.03*sin(2*PI*350*t))'"
    /// The same signal in both channels, slightly scaled: what intensity stereo codes well.
    static let panned = "aevalsrc=exprs='0.3*sin(2*PI*440*t)+0.2*sin(2*PI*5000*t)+0.1*sin(2*PI*9000*t)|0.2*sin(2*PI*440*t)+0.12*sin(2*PI*5000*t)+0.07*sin(2*PI*9000*t)'"
    static let surround = "aevalsrc=exprs='0.3*sin(2*PI*440*t)|0.3*sin(2*PI*550*t)|0.3*sin(2*PI*660*t)|0.2*sin(2*PI*60*t)|0.2*sin(2*PI*880*t)|0.2*sin(2*PI*990*t)'"

    /// One tone per channel, each its own frequency, so a channel in the wrong place cannot pass.
    static func tones(_ count: Int) -> String {
        "aevalsrc=exprs='" + (0..<count).map { "0.25*sin(2*PI*\(330 + 110 * $0)*t)" }.joined(separator: "|") + "'"
    }

    static let cases: [Case] = [
        Case(name: "3.0 (configuration 3) 44.1 kHz 160 kbit/s", source: tones(3), sampleRate: 44100, channels: 3, bitRate: 160000),
        Case(name: "4.0 (configuration 4) 48 kHz 192 kbit/s", source: tones(4), sampleRate: 48000, channels: 4, bitRate: 192000),
        Case(name: "5.0 (configuration 5) 32 kHz 200 kbit/s", source: tones(5), sampleRate: 32000, channels: 5, bitRate: 200000),
        Case(name: "7.1 (configuration 7) 48 kHz 384 kbit/s", source: tones(8), sampleRate: 48000, channels: 8, bitRate: 384000),
        Case(name: "stereo, layout in a program config element (channel_configuration 0)", source: stereo, sampleRate: 44100,
             channels: 2, bitRate: 128000, extra: ["-aac_pce", "1"]),
        Case(name: "5.1, layout in a program config element (channel_configuration 0)", source: tones(6), sampleRate: 48000,
             channels: 6, bitRate: 256000, extra: ["-aac_pce", "1"]),
        Case(name: "mono 44.1 kHz 64 kbit/s tones", source: music, sampleRate: 44100, channels: 1, bitRate: 64000),
        Case(name: "mono 8 kHz 16 kbit/s", source: music, sampleRate: 8000, channels: 1, bitRate: 16000),
        Case(name: "mono 11.025 kHz 24 kbit/s", source: music, sampleRate: 11025, channels: 1, bitRate: 24000),
        Case(name: "mono 7.35 kHz 16 kbit/s", source: music, sampleRate: 7350, channels: 1, bitRate: 16000),
        Case(name: "stereo 12 kHz 32 kbit/s transients", source: transientStereo, sampleRate: 12000, channels: 2, bitRate: 32000,
             features: [.shortWindows]),
        Case(name: "mono 16 kHz 32 kbit/s", source: music, sampleRate: 16000, channels: 1, bitRate: 32000),
        Case(name: "stereo 22.05 kHz 48 kbit/s", source: stereo, sampleRate: 22050, channels: 2, bitRate: 48000),
        Case(name: "stereo 24 kHz 64 kbit/s", source: stereo, sampleRate: 24000, channels: 2, bitRate: 64000),
        Case(name: "stereo 32 kHz 96 kbit/s", source: stereo, sampleRate: 32000, channels: 2, bitRate: 96000),
        Case(name: "stereo 44.1 kHz 128 kbit/s M/S forced", source: stereo, sampleRate: 44100, channels: 2, bitRate: 128000,
             extra: ["-aac_ms", "1"], features: [.midSide]),
        Case(name: "stereo 44.1 kHz 128 kbit/s M/S forced, no intensity", source: stereo, sampleRate: 44100, channels: 2, bitRate: 128000,
             extra: ["-aac_ms", "1", "-aac_is", "0"], features: [.midSide]),
        Case(name: "stereo 44.1 kHz 128 kbit/s M/S forced, no intensity, no PNS", source: stereo, sampleRate: 44100, channels: 2, bitRate: 128000,
             extra: ["-aac_ms", "1", "-aac_is", "0", "-aac_pns", "0"], features: [.midSide]),
        Case(name: "stereo 48 kHz 320 kbit/s", source: stereo, sampleRate: 48000, channels: 2, bitRate: 320000, features: [.escape]),
        Case(name: "stereo 48 kHz 64 kbit/s pink noise, PNS", source: "anoisesrc=color=pink:amplitude=0.3:seed=7", sampleRate: 48000,
             channels: 2, bitRate: 64000, extra: ["-aac_pns", "1"], features: [.noise]),
        Case(name: "mono 22.05 kHz 32 kbit/s white noise, PNS", source: "anoisesrc=color=white:amplitude=0.2:seed=3", sampleRate: 22050,
             channels: 1, bitRate: 32000, extra: ["-aac_pns", "1"], features: [.noise]),
        Case(name: "stereo 64 kHz 192 kbit/s", source: stereo, sampleRate: 64000, channels: 2, bitRate: 192000),
        Case(name: "stereo 88.2 kHz 256 kbit/s", source: stereo, sampleRate: 88200, channels: 2, bitRate: 256000),
        Case(name: "stereo 96 kHz 256 kbit/s", source: stereo, sampleRate: 96000, channels: 2, bitRate: 256000),
        Case(name: "mono 44.1 kHz transients (short blocks), TNS", source: transient, sampleRate: 44100, channels: 1, bitRate: 96000,
             extra: ["-aac_tns", "1"], features: [.shortWindows]),
        Case(name: "stereo 48 kHz transients (short blocks), TNS, M/S", source: transientStereo, sampleRate: 48000, channels: 2,
             bitRate: 128000, extra: ["-aac_tns", "1", "-aac_ms", "1"], features: [.shortWindows, .tns, .midSide]),
        Case(name: "stereo 8 kHz transients 24 kbit/s", source: transientStereo, sampleRate: 8000, channels: 2, bitRate: 24000,
             features: [.shortWindows]),
        Case(name: "stereo 44.1 kHz 48 kbit/s intensity stereo", source: panned, sampleRate: 44100, channels: 2, bitRate: 48000,
             extra: ["-aac_is", "1", "-aac_pns", "0"], features: [.intensity]),
        Case(name: "5.1 48 kHz 320 kbit/s", source: surround, sampleRate: 48000, channels: 6, bitRate: 320000),
        Case(name: "5.1 44.1 kHz 160 kbit/s", source: surround, sampleRate: 44100, channels: 6, bitRate: 160000),
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
        print("  \(ours.statistics)")
        for feature in item.features {
            #expect(feature.count(in: ours.statistics) > 0, "the stream does not use \(feature.rawValue)")
        }
        #expect(ours.samples.count == reference.count)
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
    }
}
