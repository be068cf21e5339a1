import AAC
import Foundation
import NativeAAC
import TestSupport

/// FFmpeg as the oracle of the native AAC decoder: it makes the streams (its `aac` encoder) and decodes
/// them (its float decoder) for comparison.
enum AACOracle {
    /// How far our decoding is from FFmpeg's.
    struct Difference: CustomStringConvertible {
        /// The largest absolute sample difference (full scale 1.0).
        var maximum: Double
        /// The root mean square of the differences.
        var rms: Double
        /// Samples per channel compared.
        var samples: Int
        var description: String {
            String(format: "max %.3g (2^%.1f), rms %.3g (2^%.1f) over %d samples", maximum, log2(max(maximum, 1e-30)),
                   rms, log2(max(rms, 1e-30)), samples)
        }
    }

    /// Encodes a lavfi source with FFmpeg's `aac` encoder into an ADTS file.
    static func encode(_ source: String, sampleRate: Int, channels: Int, seconds: Double, bitRate: Int, extra: [String] = [],
                       into directory: URL, name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        let layouts = [3: "3.0", 4: "4.0", 5: "5.0", 6: "5.1", 8: "7.1"]
        let layout = layouts[channels].map { ["-channel_layout", $0] } ?? ["-ac", "\(channels)"]
        try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-t", "\(seconds)", "-ar", "\(sampleRate)"]
                               + layout + ["-c:a", "aac", "-b:a", "\(bitRate)"] + extra + ["-f", "adts", url.path])
        return url
    }

    /// FFmpeg's decoding of a file: interleaved 32-bit floats.
    static func ffmpegDecode(_ url: URL) throws -> [Float] {
        let output = try ExternalTool.check("ffmpeg", ["-v", "error", "-i", url.path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        return output.standardOutput.withUnsafeBytes { raw in Array(raw.bindMemory(to: Float.self)) }
    }

    /// Our decoding of an ADTS stream: interleaved floats and every frame's status.
    static func nativeDecode(_ bytes: [UInt8]) throws -> (samples: [Float], channels: Int, statuses: [AACFrameStatus],
                                                           statistics: AACDecoderStatistics) {
        let scan = ADTSFrameScanner.scan(bytes)
        guard let first = scan.frames.first else { throw TestFailure("no ADTS frame") }
        let pce = first.header.channelConfiguration == .definedInStream
            ? AACChannelLayout.programConfigElement(atStartOf: first.payload) : nil
        var decoder = try NativeAACDecoder(adtsHeader: first.header, programConfigElement: pce)
        var samples: [Float] = []
        var statuses: [AACFrameStatus] = []
        for frame in scan.frames {
            for decoded in decoder.decode(adtsFrame: frame) {
                statuses.append(decoded.status)
                for index in 0..<decoded.sampleCount {
                    for channel in decoded.channels { samples.append(channel[index]) }
                }
            }
        }
        return (samples, decoder.channelCount, statuses, decoder.statistics)
    }

    /// Compares two interleaved signals sample by sample over their common length.
    static func compare(_ ours: [Float], _ theirs: [Float], channels: Int) -> Difference {
        let count = min(ours.count, theirs.count)
        var maximum = 0.0
        var sum = 0.0
        for index in 0..<count {
            let difference = Double(ours[index]) - Double(theirs[index])
            maximum = max(maximum, abs(difference))
            sum += difference * difference
        }
        return Difference(maximum: maximum, rms: count > 0 ? (sum / Double(count)).squareRoot() : 0, samples: count / max(channels, 1))
    }
}
