import Foundation

/// Perceptual noise substitution (ISO/IEC 14496-3 §4.6.13): the bands coded with `NOISE_HCB` get
/// pseudo-random values scaled to the band energy `2^(½·noise_nrg)`, window by window.
///
/// The generator is a 32-bit linear congruential one (multiplier 1664525, increment 1013904223), seeded
/// the same at every start, so a stream always decodes to the same samples. The specification leaves
/// the generator to the decoder; this one draws the same sequence as FFmpeg's float decoder, and like
/// it gives each channel of a pair its own noise even where `ms_used` marks a band that is noise in
/// both (§4.6.13.3 would reuse the first channel's vector there, which the `copying` argument does):
/// FFmpeg's `aac` encoder sets `ms_used` on such bands without meaning correlated noise, and
/// following FFmpeg keeps our output sample-close to the decoder most players use.
struct AACNoiseGenerator: Sendable {
    /// The generator's state.
    private var state: UInt32 = 0x1F2E_3D4C

    /// The next pseudo-random value, uniformly spread over the 32-bit signed range.
    mutating func next() -> Float {
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(Int32(bitPattern: state))
    }

    /// Fills the noise bands of a channel.
    /// - Parameters:
    ///   - channel: the channel, its noise energies in `scalefactors`.
    ///   - bands: the band table.
    ///   - copying: the other channel of a pair and the pair's `ms_used` flags: a band that is noise in
    ///     both channels and has `ms_used` set takes the other channel's random vector (§4.6.13.3),
    ///     rescaled to this channel's energy.
    mutating func fill(_ channel: inout AACChannelStream, bands: AACScalefactorBandTable,
                       copying: (other: AACChannelStream, msUsed: [Bool])? = nil) {
        let isShort = channel.info.windowSequence.isShort
        let offsets = isShort ? bands.short : bands.long
        var window = 0
        for (group, groupLength) in channel.info.groupLengths.enumerated() {
            for band in 0..<channel.info.maxSFB {
                let index = group * AACChannelStream.bandStride + band
                guard channel.bandTypes[index] == AACBandType.noise else { continue }
                let gain = Float(pow(2.0, 0.25 * Double(channel.scalefactors[index])))
                let correlated = copying.map { $0.msUsed[index] && $0.other.bandTypes[index] == AACBandType.noise } ?? false
                for member in 0..<groupLength {
                    let base = (window + member) * 128
                    let range = (base + offsets[band])..<(base + offsets[band + 1])
                    var energy: Float = 0
                    for line in range {
                        let value = correlated ? (copying?.other.spectrum[line] ?? 0) : next()
                        channel.spectrum[line] = value
                        energy += value * value
                    }
                    guard energy > 0 else { continue }
                    let scale = gain / energy.squareRoot()
                    for line in range { channel.spectrum[line] *= scale }
                }
            }
            window += groupLength
        }
    }
}
