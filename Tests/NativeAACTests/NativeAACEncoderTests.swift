import AAC
import CodecInterface
import Foundation
import MediaCore
import NativeAAC
import TestSupport
import Testing

/// The native AAC-LC encoder without outside tools: its transform, its time line and its robustness.
struct NativeAACEncoderTests {
    @Test func forwardTransformMatchesTheDefinition() {
        for length in [256, 2048] {
            let transform = AACMDCT(length: length)
            var state: UInt32 = 7
            let input = (0..<length).map { _ -> Float in
                state = state &* 1_664_525 &+ 1_013_904_223
                return Float(Int32(bitPattern: state)) / Float(Int32.max)
            }
            var output = [Float](repeating: 0, count: length / 2)
            var scratch = [Float](repeating: 0, count: length)
            input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        transform.forward(input.baseAddress!, into: output.baseAddress!, scale: 2, scratch: scratch.baseAddress!)
                    }
                }
            }
            let reference = transform.referenceForward(input, scale: 2)
            let largest = reference.map { abs($0) }.max() ?? 1
            let error = zip(output, reference).map { abs($0 - $1) }.max() ?? 0
            #expect(error <= largest * 1e-5, "N = \(length): error \(error) of \(largest)")
        }
    }

    /// What our own decoder makes of our stream: every frame decodes, and the signal comes back.
    @Test(arguments: [(1, 44100, 64000), (2, 48000, 128000), (6, 48000, 320000), (8, 32000, 256000), (1, 8000, 16000)])
    func ownDecoderDecodesIt(_ channels: Int, _ sampleRate: Int, _ bitRate: Int) throws {
        let input = AACEncoderOracle.music(sampleRate: sampleRate, channels: channels, seconds: 0.6)
        let (frames, _) = try AACEncoderOracle.encode(input, sampleRate: sampleRate, bitRate: bitRate)
        #expect(frames.count == (input[0].count + 1023) / 1024 + 1)
        #expect(frames.allSatisfy { $0.count * 8 <= 6144 * channels })
        let decoded = try AACOracle.nativeDecode(try AACEncoderOracle.adts(frames, sampleRate: sampleRate, channels: channels))
        #expect(decoded.channels == channels)
        #expect(decoded.statuses.allSatisfy { $0 == .decoded })
        let snr = AACEncoderOracle.snr(input: input, decoded: decoded.samples, channels: channels)
        print("\(channels) ch \(sampleRate) Hz \(bitRate) bit/s: SNR \(String(format: "%.1f", snr)) dB over \(frames.count) frames")
        #expect(snr > 8)
    }

    /// No PCM traps the encoder: NaN, infinities, full-scale and beyond-full-scale square waves, silence.
    @Test func anyPCMEncodes() throws {
        let count = 5000
        let signals: [[Float]] = [
            [Float](repeating: .nan, count: count),
            (0..<count).map { $0 % 3 == 0 ? .infinity : -.infinity },
            (0..<count).map { ($0 / 20) % 2 == 0 ? 1 : -1 },
            (0..<count).map { ($0 / 3) % 2 == 0 ? 1e30 : -1e30 },
            (0..<count).map { $0 % 2 == 0 ? Float.greatestFiniteMagnitude : -.leastNonzeroMagnitude },
            [Float](repeating: 0, count: count),
        ]
        for (index, signal) in signals.enumerated() {
            for bitRate in [8000, 64000, 500000] {
                let (frames, _) = try AACEncoderOracle.encode([signal, signal.reversed()], sampleRate: 48000, bitRate: bitRate)
                #expect(frames.allSatisfy { $0.count * 8 <= 6144 * 2 })
                let decoded = try AACOracle.nativeDecode(try AACEncoderOracle.adts(frames, sampleRate: 48000, channels: 2))
                #expect(decoded.statuses.allSatisfy { $0 == .decoded }, "signal \(index) at \(bitRate)")
                #expect(decoded.samples.allSatisfy { $0.isFinite })
            }
        }
    }

    /// The session-facing encoder: the format names the priming, the first pts is −1024, a flush
    /// restarts the time line where the input ended.
    @Test func audioEncoderTimeLine() throws {
        let encoder = try NativeAACAudioEncoder(configuration: AudioEncoderConfiguration(sampleRate: 48000, channelCount: 2, bitRate: 96000))
        #expect(encoder.format.encoderDelay == 1024)
        let config = try AudioSpecificConfig.parse(encoder.format.audioSpecificConfig)
        #expect(config.audioObjectType == .aacLC)
        let planar = AACEncoderOracle.music(sampleRate: 48000, channels: 2, seconds: 0.1)
        let buffer = try AudioBuffer(sampleRate: 48000, channelCount: 2, format: .float32, isInterleaved: false,
                                     channelData: planar.map { samples in samples.withUnsafeBytes { Array($0) } })
        var frames = try encoder.encode(buffer)
        frames += try encoder.flush()
        #expect(frames.first?.pts == MediaTime(value: -1024, timescale: 48000))
        #expect(frames.count == (4800 + 1023) / 1024 + 1)
        try encoder.setBitRate(64000)
        let again = try encoder.encode(buffer)
        #expect(again.first?.pts == MediaTime(value: 4800 - 1024, timescale: 48000))
        #expect(throws: CodecError.self) { try encoder.setBitRate(0) }
    }
}
