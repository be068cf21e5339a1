import AAC
import Foundation
@testable import NativeAAC
import TestSupport
import Testing

/// The KBD window shape in the encoder (ISO/IEC 14496-3 §4.6.11.3.2, `window_shape` 1: α = 4 long, 6 short): a
/// stream whose frames use it — alone, and switching with the sine shape between long and short windows — decodes
/// in FFmpeg without a warning, as in our decoder, and as close to the input as the sine shape's.
@Suite
struct NativeAACWindowShapeTests {
    /// Two steady tones with a click every 0.4 s (short windows and their transitions).
    static func tonesAndClicks(sampleRate: Int, channels: Int) -> [[Float]] {
        let count = sampleRate * 2
        return (0..<channels).map { channel in
            (0..<count).map { n -> Float in
                let t = Double(n) / Double(sampleRate)
                var value = 0.3 * sin(2 * Double.pi * 440 * t) + 0.1 * sin(2 * Double.pi * (3150 + 100 * Double(channel)) * t)
                let sinceClick = n % (sampleRate * 2 / 5)
                if sinceClick < 200 { value += 0.5 * exp(-Double(sinceClick) / 40) * (sinceClick % 2 == 0 ? 1 : -1) }
                return Float(value)
            }
        }
    }

    /// Encodes with a window-shape policy.
    static func encode(_ planar: [[Float]], sampleRate: Int, bitRate: Int, policy: AACWindowShapePolicy) throws -> (frames: [[UInt8]], encoder: NativeAACEncoder) {
        var encoder = try NativeAACEncoder(sampleRate: sampleRate, channelCount: planar.count, bitRate: bitRate)
        encoder.windowShapePolicy = policy
        var frames = encoder.encode(planar)
        frames += encoder.flush()
        return (frames, encoder)
    }

    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: [(AACWindowShapePolicy.kaiserBesselDerived, 1, 48000, 48000), (.kaiserBesselDerived, 2, 44100, 96000),
                      (.tonal(0.3), 2, 48000, 64000)])
    func ffmpegDecodesKBD(_ policy: AACWindowShapePolicy, _ channels: Int, _ sampleRate: Int, _ bitRate: Int) throws {
        let planar = Self.tonesAndClicks(sampleRate: sampleRate, channels: channels)
        let (frames, encoder) = try Self.encode(planar, sampleRate: sampleRate, bitRate: bitRate, policy: policy)
        let (sineFrames, _) = try Self.encode(planar, sampleRate: sampleRate, bitRate: bitRate, policy: .sine)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try AACEncoderOracle.adts(frames, sampleRate: sampleRate, channels: channels)
        let (reference, ffmpegLog, ours, difference) = try AACEncoderOracle.decodings(of: bytes, channels: channels,
                                                                                     at: directory.appendingPathComponent("kbd.aac"),
                                                                                     strict: true)
        let sine = try AACEncoderOracle.decodings(of: try AACEncoderOracle.adts(sineFrames, sampleRate: sampleRate, channels: channels),
                                                  channels: channels, at: directory.appendingPathComponent("sine.aac"), strict: true)
        let (snr, sineSNR) = (AACEncoderOracle.snr(input: planar, decoded: reference, channels: channels),
                              AACEncoderOracle.snr(input: planar, decoded: sine.reference, channels: channels))
        print("window shape \(policy), \(channels) ch \(sampleRate) Hz \(bitRate) bit/s: \(ours.statistics.kbdStreams) KBD channel streams of "
              + "\(frames.count * channels), \(encoder.statistics.shortFrames) short frames; SNR \(String(format: "%.1f", snr)) dB "
              + "(sine \(String(format: "%.1f", sineSNR)) dB); ours vs FFmpeg \(difference)")
        #expect(ffmpegLog.isEmpty, "ffmpeg: \(ffmpegLog)")
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
        #expect(encoder.statistics.shortFrames > 0, "the clicks bring short windows and their transitions")
        if policy == .kaiserBesselDerived {
            #expect(ours.statistics.kbdStreams == frames.count * channels)
        } else {
            #expect(ours.statistics.kbdStreams > 0 && ours.statistics.kbdStreams < frames.count * channels, "both shapes, switching")
        }
        // A window the analysis did not match with the synthesis would show as a large error.
        #expect(snr > sineSNR - 3, "KBD \(snr) dB against sine \(sineSNR) dB")
    }
}
