import AAC
import Foundation
import NativeAAC
import TestSupport
import Testing

/// The native encoder against FFmpeg: ffprobe reads what we write, ffmpeg decodes it without a word,
/// and our decoder decodes it as FFmpeg does; the bit rate holds.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct NativeAACEncoderFFmpegTests {
    @Test(arguments: [(1, 44100, 64000), (2, 48000, 128000), (2, 48000, 64000), (6, 48000, 320000), (1, 16000, 24000), (2, 96000, 256000)])
    func ffmpegDecodesIt(_ channels: Int, _ sampleRate: Int, _ bitRate: Int) throws {
        let input = AACEncoderOracle.music(sampleRate: sampleRate, channels: channels, seconds: 1.5)
        let (frames, _) = try AACEncoderOracle.encode(input, sampleRate: sampleRate, bitRate: bitRate)
        let bytes = try AACEncoderOracle.adts(frames, sampleRate: sampleRate, channels: channels)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("native.aac")
        let (reference, ffmpegLog, _, difference) = try AACEncoderOracle.decodings(of: bytes, channels: channels, at: url)
        let probe = try ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile,channels,sample_rate",
                                                       "-of", "default=noprint_wrappers=1", url.path]).text
        #expect(probe.contains("codec_name=aac"))
        #expect(probe.contains("profile=LC"))
        #expect(probe.contains("channels=\(channels)"))
        #expect(probe.contains("sample_rate=\(sampleRate)"))
        #expect(ffmpegLog.isEmpty, "ffmpeg: \(ffmpegLog)")
        let snr = AACEncoderOracle.snr(input: input, decoded: reference, channels: channels)
        let rate = AACEncoderOracle.bitRate(of: frames, samples: input[0].count, sampleRate: sampleRate)
        print("\(channels) ch \(sampleRate) Hz \(bitRate) bit/s: \(String(format: "%.0f", rate)) bit/s, SNR "
              + "\(String(format: "%.1f", snr)) dB (FFmpeg's decoding); ours vs FFmpeg \(difference)")
        #expect(reference.count >= input[0].count * channels)
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
        #expect(snr > 8)
        #expect(abs(rate / Double(bitRate) - 1) < 0.1)
    }

    /// Attacks (bursts of a tone over a quiet one) switch the encoder to short windows — LONG_START,
    /// EIGHT_SHORT with grouping, LONG_STOP — and FFmpeg decodes them as our decoder does.
    @Test(arguments: [(1, 44100, 64000), (2, 48000, 96000)])
    func attacksUseShortWindows(_ channels: Int, _ sampleRate: Int, _ bitRate: Int) throws {
        let count = sampleRate * 3 / 2
        let planar = (0..<channels).map { channel in
            (0..<count).map { n -> Float in
                let t = Double(n) / Double(sampleRate)
                let burst = (n + channel * 3000) % (sampleRate / 4) < sampleRate / 100
                return Float(burst ? 0.7 * sin(2 * Double.pi * 2500 * t) : 0.02 * sin(2 * Double.pi * 300 * t))
            }
        }
        let (frames, encoder) = try AACEncoderOracle.encode(planar, sampleRate: sampleRate, bitRate: bitRate)
        let bytes = try AACEncoderOracle.adts(frames, sampleRate: sampleRate, channels: channels)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (reference, ffmpegLog, ours, difference) = try AACEncoderOracle.decodings(of: bytes, channels: channels,
                                                                                     at: directory.appendingPathComponent("attacks.aac"))
        #expect(ffmpegLog.isEmpty, "ffmpeg: \(ffmpegLog)")
        let snr = AACEncoderOracle.snr(input: planar, decoded: reference, channels: channels)
        print("attacks, \(channels) ch: \(encoder.statistics.shortFrames) short frames of \(frames.count), SNR "
              + "\(String(format: "%.1f", snr)) dB; ours vs FFmpeg \(difference)")
        // Six bursts; the first, at the very start, has no past to stand out from (it is not an attack).
        #expect(encoder.statistics.shortFrames >= 5)
        #expect(ours.statistics.shortWindowStreams >= 5 * channels)
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
        #expect(snr > 8)
    }

    /// The recordings (real music and speech): the bit rate within ±5 % of the target over each, and
    /// FFmpeg decodes the stream without a warning. (MOS against FFmpeg's encoder: scripts/benchmark-aac-encoder.sh.)
    @Test(.requiresMedia, arguments: [64000, 128000])
    func recordingsHoldTheBitRate(_ bitRate: Int) throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in MediaFiles.files(under: "audio/recordings", extensions: ["wav"]).prefix(2) {
            let raw = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", MediaFiles.url(path).path, "-f", "f32le", "-ac", "2", "-ar", "48000", "-"])
            let interleaved = raw.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let planar = (0..<2).map { channel in stride(from: channel, to: interleaved.count, by: 2).map { interleaved[$0] } }
            let (frames, _) = try AACEncoderOracle.encode(planar, sampleRate: 48000, bitRate: bitRate)
            let rate = AACEncoderOracle.bitRate(of: frames, samples: planar[0].count, sampleRate: 48000)
            let url = directory.appendingPathComponent("recording.aac")
            try Data(try AACEncoderOracle.adts(frames, sampleRate: 48000, channels: 2)).write(to: url)
            let decoding = try ExternalTool.check("ffmpeg", ["-v", "warning", "-i", url.path, "-f", "null", "-"])
            print("\(path) at \(bitRate): \(String(format: "%.0f", rate)) bit/s")
            #expect(abs(rate / Double(bitRate) - 1) <= 0.05, "\(path): \(rate) bit/s")
            #expect(!decoding.standardError.contains("rror"), "\(path): \(decoding.standardError)")
        }
    }
}
