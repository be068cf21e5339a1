import AAC
import Foundation
import NativeAAC
import TestSupport

/// Helpers of the encoder tests: signals, ADTS files of our frames, and measures against the input.
enum AACEncoderOracle {
    /// A deterministic test signal per channel: two tones (a different pair per channel), a slow vibrato
    /// and some noise — music-like enough to exercise the psychoacoustic model and M/S. With 6 or 8
    /// channels, channel 3 (the LFE of configurations 6 and 7, low-passed by the encoder) is a 50 Hz tone.
    static func music(sampleRate: Int, channels: Int, seconds: Double) -> [[Float]] {
        let count = Int(Double(sampleRate) * seconds)
        var state: UInt32 = 0x1234_5678
        return (0..<channels).map { channel in
            (0..<count).map { n in
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Float(Int32(bitPattern: state)) / Float(Int32.max)
                let t = Double(n) / Double(sampleRate)
                if channels >= 6, channel == 3 { return Float(0.3 * sin(2 * Double.pi * 50 * t)) }
                let a = 0.3 * sin(2 * Double.pi * (220 + 55 * Double(channel)) * t)
                let b = 0.12 * sin(2 * Double.pi * 1330 * t + sin(2 * Double.pi * 3 * t) + Double(channel))
                return Float(a + b) + 0.01 * noise
            }
        }
    }

    /// Encodes planar PCM with the native encoder; returns the raw frames.
    static func encode(_ planar: [[Float]], sampleRate: Int, bitRate: Int) throws -> (frames: [[UInt8]], encoder: NativeAACEncoder) {
        var encoder = try NativeAACEncoder(sampleRate: sampleRate, channelCount: planar.count, bitRate: bitRate)
        var frames: [[UInt8]] = []
        // In pieces of odd sizes, as a live source delivers them.
        var start = 0
        let count = planar.first?.count ?? 0
        while start < count {
            let end = min(start + 1000, count)
            frames += encoder.encode(planar.map { Array($0[start..<end]) })
            start = end
        }
        frames += encoder.flush()
        return (frames, encoder)
    }

    /// The frames with an ADTS header each.
    static func adts(_ frames: [[UInt8]], sampleRate: Int, channels: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in frames {
            bytes += try ADTSHeader(audioObjectType: .aacLC, sampleRate: sampleRate, channels: channels, payloadLength: frame.count).serialized()
            bytes += frame
        }
        return bytes
    }

    /// An ADTS stream of ours decoded twice — by FFmpeg (floats) and by our decoder — and how far apart the two are.
    /// - Parameters:
    ///   - bytes: the stream; it is written to `url` (which stays for the caller to probe).
    ///   - channels: its channel count.
    ///   - url: the file to write.
    ///   - strict: whether FFmpeg decodes with `-err_detect explode` (any damage it sees is an error).
    /// - Returns: FFmpeg's samples and what it printed, our decoding, and the difference.
    /// - Throws: when FFmpeg fails or our decoder finds no frame.
    static func decodings(of bytes: [UInt8], channels: Int, at url: URL, strict: Bool = false) throws
        -> (reference: [Float], ffmpegLog: String,
            ours: (samples: [Float], channels: Int, statuses: [AACFrameStatus], statistics: AACDecoderStatistics),
            difference: AACOracle.Difference) {
        try Data(bytes).write(to: url)
        let decoding = try ExternalTool.check("ffmpeg", ["-v", "error"] + (strict ? ["-err_detect", "explode"] : [])
                                                  + ["-i", url.path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        let reference = decoding.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let ours = try AACOracle.nativeDecode(bytes)
        return (reference, decoding.standardError, ours, AACOracle.compare(ours.samples, reference, channels: channels))
    }

    /// Signal-to-noise ratio in dB of a decoding (interleaved, priming included) against the planar input.
    static func snr(input: [[Float]], decoded: [Float], channels: Int) -> Double {
        var signal = 0.0, noise = 0.0
        let delay = NativeAACEncoder.encoderDelay
        for channel in 0..<channels {
            for n in 0..<input[channel].count {
                let index = (n + delay) * channels + channel
                guard index < decoded.count else { break }
                let reference = Double(input[channel][n])
                signal += reference * reference
                noise += (reference - Double(decoded[index])) * (reference - Double(decoded[index]))
            }
        }
        return 10 * log10(signal / max(noise, 1e-30))
    }

    /// Bits per second of raw AAC for a number of input samples per channel.
    static func bitRate(of frames: [[UInt8]], samples: Int, sampleRate: Int) -> Double {
        Double(frames.reduce(0) { $0 + $1.count } * 8) * Double(sampleRate) / Double(samples)
    }
}
