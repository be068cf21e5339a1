/// Joint stereo of a `channel_pair_element` (ISO/IEC 14496-3 §4.6.8): M/S (§4.6.8.1) and intensity
/// stereo (§4.6.8.2), applied to the inverse-quantised spectra.
enum AACStereoProcessing {
    /// M/S: in each band with `ms_used` where both channels are coded with spectral codebooks (not
    /// noise, not intensity), `left = mid + side`, `right = mid − side`.
    /// - Parameters:
    ///   - left: the first channel (mid on entry).
    ///   - right: the second channel (side on entry).
    ///   - msUsed: `ms_used[g][sfb]` at `g * 64 + sfb`.
    ///   - bands: the band table.
    static func applyMidSide(_ left: inout AACChannelStream, _ right: inout AACChannelStream, msUsed: [Bool],
                             bands: AACScalefactorBandTable) {
        let info = left.info
        let offsets = info.windowSequence.isShort ? bands.short : bands.long
        var window = 0
        for (group, groupLength) in info.groupLengths.enumerated() {
            for band in 0..<info.maxSFB {
                let index = group * AACChannelStream.bandStride + band
                guard msUsed[index], left.bandTypes[index] < AACBandType.noise, right.bandTypes[index] < AACBandType.noise else { continue }
                for member in 0..<groupLength {
                    let base = (window + member) * 128
                    for line in (base + offsets[band])..<(base + offsets[band + 1]) {
                        let mid = left.spectrum[line]
                        let side = right.spectrum[line]
                        left.spectrum[line] = mid + side
                        right.spectrum[line] = mid - side
                    }
                }
            }
            window += groupLength
        }
    }

    /// Intensity stereo: each band of the second channel coded with `INTENSITY_HCB` (in phase) or
    /// `INTENSITY_HCB2` (out of phase) becomes the first channel's band scaled by
    /// `±0.5^(¼·is_position)`, the sign also inverted where `ms_used` is set.
    ///
    /// §4.6.8.2.3 `invert_intensity()` inverts only when `ms_mask_present` is 1. FFmpeg's decoder (5.1
    /// through 7) also inverts when it is 2 (every band "used"), and FFmpeg's `aac` encoder — the one most
    /// builds ship — writes 2 when all its bands carry the flag, intending the inversion: we follow
    /// FFmpeg, so its streams decode as it means them and as it decodes them.
    /// - Parameters:
    ///   - left: the first channel (after M/S).
    ///   - right: the second channel, its intensity positions in `scalefactors`.
    ///   - msMaskPresent: `ms_mask_present`.
    ///   - msUsed: `ms_used[g][sfb]` at `g * 64 + sfb`.
    ///   - bands: the band table.
    static func applyIntensity(_ left: AACChannelStream, _ right: inout AACChannelStream, msMaskPresent: Int, msUsed: [Bool],
                               bands: AACScalefactorBandTable) {
        let info = right.info
        let offsets = info.windowSequence.isShort ? bands.short : bands.long
        var window = 0
        for (group, groupLength) in info.groupLengths.enumerated() {
            for band in 0..<info.maxSFB {
                let index = group * AACChannelStream.bandStride + band
                let type = right.bandTypes[index]
                guard AACBandType.isIntensity(type) else { continue }
                var sign: Float = type == AACBandType.intensityInPhase ? 1 : -1
                if msMaskPresent != 0, msUsed[index] { sign = -sign }
                let scale = sign * AACIntensityGain.gain(position: right.scalefactors[index])
                for member in 0..<groupLength {
                    let base = (window + member) * 128
                    for line in (base + offsets[band])..<(base + offsets[band + 1]) {
                        right.spectrum[line] = left.spectrum[line] * scale
                    }
                }
            }
            window += groupLength
        }
    }
}

/// `0.5^(¼·is_position)` for the clipped positions −155…100.
enum AACIntensityGain {
    private static let table: [Float] = (-155...100).map { Float(AACMath.power(0.5, 0.25 * Double($0))) }

    /// The gain of an intensity position.
    /// - Parameter position: −155 through 100 (clamped).
    /// - Returns: `0.5^(¼·position)`.
    static func gain(position: Int) -> Float { table[min(max(position, -155), 100) + 155] }
}
