#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The synthetic microphone's signal: a sine tone plus a little white noise, as interleaved 16-bit samples,
/// the same tone on every channel.
///
/// The phase is computed from the absolute sample number at the start of every block, so blocks can be made
/// in any order (or skipped, after an overrun) without the tone drifting.
struct ToneGenerator: Sendable {
    /// Samples per second per channel.
    let sampleRate: Int
    /// Channels, interleaved.
    let channelCount: Int
    /// The tone's frequency in hertz.
    let frequency: Double
    /// The tone's peak amplitude as a fraction of full scale.
    let amplitude: Double
    /// The noise's peak amplitude as a fraction of full scale (uniform noise).
    let noiseLevel: Double
    /// The state of the noise generator (xorshift64); never zero.
    private var noiseState: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Creates a generator; the parameters are assumed validated by the caller.
    init(sampleRate: Int, channelCount: Int, frequency: Double, amplitude: Double, noiseLevel: Double) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.frequency = frequency
        self.amplitude = amplitude
        self.noiseLevel = noiseLevel
    }

    /// Makes one block of samples.
    /// - Parameters:
    ///   - firstSample: the absolute number of the block's first sample (per channel).
    ///   - frameCount: samples per channel in the block.
    /// - Returns: `frameCount * channelCount` interleaved samples in native byte order, as raw bytes.
    mutating func block(startingAt firstSample: Int64, frameCount: Int) -> [UInt8] {
        let sampleCount = frameCount * channelCount
        let cyclesPerSample = frequency / Double(sampleRate)
        // The phase at the first sample, in cycles, reduced to 0 ..< 1 before it loses precision.
        var phase = (Double(firstSample % Int64(sampleRate)) * cyclesPerSample).truncatingRemainder(dividingBy: 1)
        let wholeSeconds = Double(firstSample / Int64(sampleRate))
        phase = (phase + (wholeSeconds * frequency).truncatingRemainder(dividingBy: 1)).truncatingRemainder(dividingBy: 1)
        let scale = 32767.0
        var state = noiseState
        let channels = channelCount
        let tone = amplitude, noise = noiseLevel
        let bytes = [UInt8](unsafeUninitializedCapacity: 2 * sampleCount) { raw, initialized in
            raw.withMemoryRebound(to: Int16.self) { samples in
                for frame in 0..<frameCount {
                    let sine = tone * sin(2 * Double.pi * phase)
                    phase += cyclesPerSample
                    if phase >= 1 { phase -= 1 }
                    for channel in 0..<channels {
                        state ^= state << 13
                        state ^= state >> 7
                        state ^= state << 17
                        let uniform = Double(state >> 11) / Double(1 << 53) * 2 - 1  // −1 ..< 1
                        let value = (sine + noise * uniform) * scale
                        samples[frame * channels + channel] = Int16(max(-32768, min(32767, value.rounded())))
                    }
                }
            }
            initialized = 2 * sampleCount
        }
        noiseState = state
        return bytes
    }
}
