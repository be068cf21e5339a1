import AAC
import Bitstream
import Foundation
@testable import NativeAAC
import TestSupport
import Testing

/// Temporal noise shaping in the encoder (ISO/IEC 14496-3 §4.6.9): the filter we design and run over the
/// spectrum is undone by the decoder's `tns_data()` and all-pole filter, and streams that use it decode in
/// FFmpeg as in our decoder.
@Suite
struct NativeAACTNSTests {
    /// A long window of an impulse-like event: the MDCT of a short decaying burst late in the block,
    /// whose spectrum is a slowly turning sinusoid over frequency (what linear prediction across frequency
    /// captures), with some noise.
    static func burstSpectrum() -> [Float] {
        var input = [Float](repeating: 0, count: 2048)
        for n in 0..<160 { input[1400 + n] = Float(8000 * exp(-Double(n) / 30) * sin(2 * Double.pi * Double(n) / 9)) }
        let window = AACWindows.sineLong
        for n in 0..<1024 {
            input[n] *= window[n]
            input[1024 + n] *= window[1023 - n]
        }
        var output = AACMDCT(length: 2048).referenceForward(input, scale: 2)
        // Some noise under it, as in a recording: the prediction gain lands between the filter's bounds.
        var state: UInt32 = 0x1357_9BDF
        let peak = output.map(abs).max() ?? 1
        for line in output.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            output[line] += Float(Int32(bitPattern: state)) / Float(Int32.max) * peak * 0.15
        }
        return output
    }

    @Test("the encoder's filter, written as tns_data() and read back, is undone by the decoder's filter")
    func filterRoundTrips() throws {
        let bands = AACScalefactorBandTable.forIndex(.hz48000)
        let spectrum = Self.burstSpectrum()
        let start = 8, end = bands.tnsMaximumBandsLong
        let filter = try #require(AACTNSFilter.design(spectrum: spectrum, offsets: bands.long, startBand: start, endBand: end))
        #expect(filter.indices.count >= 2 && filter.indices.count <= AACTNSFilter.maximumOrder)
        var filtered = spectrum
        filter.apply(to: &filtered, offsets: bands.long, endBand: end)
        // Prediction flattens the spectrum: the filtered lines carry less energy.
        let range = bands.long[start]..<bands.long[end]
        let before = range.reduce(0.0) { $0 + Double(spectrum[$1] * spectrum[$1]) }
        let after = range.reduce(0.0) { $0 + Double(filtered[$1] * filtered[$1]) }
        #expect(after * Double(AACTNSFilter.minimumGain) < before, "energy \(before) → \(after)")

        var writer = BitWriter()
        filter.write(bandCount: bands.longBandCount, to: &writer)
        #expect(writer.bitCount == filter.bits)
        writer.alignWithZeros()
        var reader = BitReader(writer.bytes)
        var data = AACTNSData()
        try data.parse(&reader, isShort: false)
        var info = AACICSInfo()
        info.maxSFB = end
        data.apply(to: &filtered, info: info, bands: bands)
        let peak = spectrum.map(abs).max() ?? 1
        let worst = zip(filtered, spectrum).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= peak * 1e-4, "largest difference \(worst) of \(peak)")
        // Lines outside the range are untouched.
        #expect(Array(filtered[0..<bands.long[start]]) == Array(spectrum[0..<bands.long[start]]))
    }

    @Test("a flat (white) spectrum gets no filter: prediction gains nothing")
    func noiseGetsNoFilter() {
        let bands = AACScalefactorBandTable.forIndex(.hz48000)
        var state: UInt32 = 12345
        let noise = (0..<1024).map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: state)) / Float(Int32.max) * 1000
        }
        #expect(AACTNSFilter.design(spectrum: noise, offsets: bands.long, startBand: 8, endBand: bands.tnsMaximumBandsLong) == nil)
    }

    /// Voiced-speech-like material (a 110 Hz pulse train through two decaying resonances): pulses inside
    /// long blocks that TNS shapes the noise around.
    @Test(.enabled(if: ExternalTool.isRunnable("ffmpeg")), arguments: [(1, 48000, 32000), (2, 44100, 64000)])
    func ffmpegDecodesTNS(_ channels: Int, _ sampleRate: Int, _ bitRate: Int) throws {
        let count = sampleRate * 3 / 2
        let period = sampleRate / 110
        let planar = (0..<channels).map { channel in
            (0..<count).map { n -> Float in
                let phase = Double((n + channel * 37) % period) / Double(sampleRate)
                let formants = 0.5 * exp(-phase * 900) * sin(2 * Double.pi * 700 * phase)
                    + 0.25 * exp(-phase * 1500) * sin(2 * Double.pi * 2300 * phase)
                return Float(formants)
            }
        }
        let (frames, encoder) = try AACEncoderOracle.encode(planar, sampleRate: sampleRate, bitRate: bitRate)
        let bytes = try AACEncoderOracle.adts(frames, sampleRate: sampleRate, channels: channels)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (reference, ffmpegLog, ours, difference) = try AACEncoderOracle.decodings(of: bytes, channels: channels,
                                                                                     at: directory.appendingPathComponent("tns.aac"),
                                                                                     strict: true)
        #expect(ffmpegLog.isEmpty, "ffmpeg: \(ffmpegLog)")
        let snr = AACEncoderOracle.snr(input: planar, decoded: reference, channels: channels)
        print("TNS, \(channels) ch \(bitRate) bit/s: \(encoder.statistics.tnsFrames) channel frames with TNS of "
              + "\(frames.count * channels), SNR \(String(format: "%.1f", snr)) dB; ours vs FFmpeg \(difference)")
        #expect(encoder.statistics.tnsFrames >= frames.count * channels / 2)
        #expect(ours.statistics.tnsStreams == encoder.statistics.tnsFrames)
        #expect(ours.statuses.allSatisfy { $0 == .decoded })
        #expect(difference.maximum <= 1.0 / 16384)
        #expect(difference.rms <= 1.0 / 131072)
        #expect(snr > 8)
    }
}
