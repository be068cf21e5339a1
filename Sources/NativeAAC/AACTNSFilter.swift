import Bitstream
import Foundation

/// One temporal noise shaping filter of a long window as the encoder chooses it (ISO/IEC 14496-3 §4.6.9):
/// linear prediction over the spectrum of a range of bands, its reflection coefficients quantised with 4
/// bits (`coef_res` 1), and the prediction-error (all-zero) filter the encoder runs over the spectrum
/// before quantisation — the inverse of the decoder's all-pole filter of §4.6.9.3, so the quantisation
/// noise comes out of the decoder shaped like the signal's envelope in time (against pre-echo inside a
/// long block).
struct AACTNSFilter: Sendable {
    /// The most coefficients of a long window's filter in AAC-LC (§4.6.9.1, Table 4.137's `TNS_MAX_ORDER`).
    static let maximumOrder = 12
    /// The smallest prediction gain worth the side information and the noise shaping (with 1.4, the
    /// classic choice, Zimtohrli scores speech lower: 3.73 against 3.85 at 32 kbit/s mono).
    static let minimumGain: Float = 2.5

    /// The largest prediction gain taken: above it the spectrum is a tone's (a pure tone starting inside the
    /// window), the filter is so resonant that decoders' float rounding parts (FFmpeg's and ours by 2^-13.5 on a
    /// 2.5 kHz burst), and short windows or plain coding serve better.
    static let maximumGain: Float = 30

    /// The first band filtered; the range runs up to the last band of the window (`length`).
    let startBand: Int
    /// The quantised reflection coefficients (`coef`, 4 bits each, −8…7).
    let indices: [Int]
    /// The direct-form coefficients a[1…order] of the quantised filter, as the decoder derives them.
    let lpc: [Float]

    /// Designs the filter of a window's spectrum (§4.6.9.3 in reverse): the autocorrelation of the lines
    /// from `startBand` up to `endBand`, Levinson–Durbin up to order 12, reflection coefficients
    /// quantised as the decoder reads them (`sin(index / ((2^3 ∓ 0.5) / (π/2)))`), trailing zeros dropped.
    /// - Parameters:
    ///   - spectrum: the window's 1024 MDCT coefficients.
    ///   - offsets: the long band table.
    ///   - startBand: the first band to filter.
    ///   - endBand: one past the last band that can carry the filtered lines (TNS maximum and bandwidth).
    /// - Returns: the filter, or `nil` when prediction gains less than ``minimumGain``.
    static func design(spectrum: [Float], offsets: [Int], startBand: Int, endBand: Int) -> AACTNSFilter? {
        design(spectra: [spectrum], offsets: offsets, startBand: startBand, endBand: endBand)
    }

    /// Designs one filter for several windows at once (the two channels of a pair, so that M/S still sees
    /// correlated channels after filtering): the sum of their autocorrelations, as ``design(spectrum:offsets:startBand:endBand:)``.
    /// - Parameters:
    ///   - spectra: the windows' 1024 MDCT coefficients each.
    ///   - offsets: the long band table.
    ///   - startBand: the first band to filter.
    ///   - endBand: one past the last band that can carry the filtered lines.
    /// - Returns: the filter, or `nil` when prediction gains less than ``minimumGain`` or more than ``maximumGain``.
    static func design(spectra: [[Float]], offsets: [Int], startBand: Int, endBand: Int) -> AACTNSFilter? {
        guard startBand < endBand, endBand < offsets.count else { return nil }
        let start = offsets[startBand], end = offsets[endBand]
        guard end - start > 4 * maximumOrder else { return nil }
        var correlation = [Double](repeating: 0, count: maximumOrder + 1)
        for lag in 0...maximumOrder {
            var sum = 0.0
            for spectrum in spectra {
                for line in (start + lag)..<end { sum += Double(spectrum[line]) * Double(spectrum[line - lag]) }
            }
            // A Gaussian lag window keeps the filter smooth (its response in time does not ring).
            correlation[lag] = sum * exp(-0.5 * pow(0.02 * Double(lag), 2))
        }
        guard correlation[0] > 1e-9 else { return nil }
        // Levinson–Durbin: reflection coefficients k[m] of A(z) = 1 + Σ a[i] z^-i.
        var a = [Double](repeating: 0, count: maximumOrder + 1)
        a[0] = 1
        var error = correlation[0]
        var reflection = [Double](repeating: 0, count: maximumOrder)
        for m in 1...maximumOrder {
            var acc = correlation[m]
            for i in 1..<m { acc += a[i] * correlation[m - i] }
            let k = -acc / error
            guard k.isFinite, abs(k) < 1 else { break }
            reflection[m - 1] = k
            let previous = a
            for i in 1..<m { a[i] = previous[i] + k * previous[m - i] }
            a[m] = k
            error *= 1 - k * k
        }
        let gain = Float(correlation[0] / max(error, 1e-30))
        guard gain >= minimumGain, gain <= maximumGain else { return nil }
        // 4-bit quantisation in the arcsine domain, the decoder's two scales for either sign.
        let positiveScale = (8 - 0.5) / (Double.pi / 2), negativeScale = (8 + 0.5) / (Double.pi / 2)
        var indices = reflection.map { k -> Int in
            let angle = asin(k)
            return min(max(Int((angle * (angle >= 0 ? positiveScale : negativeScale)).rounded()), -8), 7)
        }
        while let last = indices.last, last == 0 { indices.removeLast() }
        guard !indices.isEmpty else { return nil }
        // The decoder's conversion (§4.6.9.3): reflection to direct form, order by order.
        let parcor = indices.map { Float(sin(Double($0) / ($0 >= 0 ? positiveScale : negativeScale))) }
        var lpc = [Float](repeating: 0, count: parcor.count + 1)
        lpc[0] = 1
        for m in 1...parcor.count {
            let previous = lpc
            for i in 1..<m { lpc[i] = previous[i] + parcor[m - 1] * previous[m - i] }
            lpc[m] = parcor[m - 1]
        }
        return AACTNSFilter(startBand: startBand, indices: indices, lpc: Array(lpc.dropFirst()))
    }

    /// Runs the prediction-error filter upwards over the range, in place: `e[n] = x[n] + Σ a[i] x[n − i]`
    /// with only lines of the range as history, which the decoder's all-pole filter undoes exactly.
    /// - Parameters:
    ///   - spectrum: the window's 1024 coefficients.
    ///   - offsets: the long band table.
    ///   - endBand: one past the last band filtered.
    func apply(to spectrum: inout [Float], offsets: [Int], endBand: Int) {
        let start = offsets[startBand], end = offsets[min(endBand, offsets.count - 1)]
        guard end > start else { return }
        let original = Array(spectrum[start..<end])
        for m in 0..<original.count {
            var value = original[m]
            for i in 1...lpc.count where i <= m { value += lpc[i - 1] * original[m - i] }
            spectrum[start + m] = value
        }
    }

    /// The bits of this filter's `tns_data()` in a long window: `n_filt` 2, `coef_res` 1, `length` 6,
    /// `order` 5, `direction` 1, `coef_compress` 1, then 4 per coefficient.
    var bits: Int { 2 + 1 + 6 + 5 + 1 + 1 + 4 * indices.count }

    /// Writes `tns_data()` (§4.4.2.7, Table 4.48) of a long window with this one filter.
    /// - Parameters:
    ///   - bandCount: the window's `num_swb` (the filter's `length` counts down from it).
    ///   - writer: receives the bits.
    func write(bandCount: Int, to writer: inout BitWriter) {
        writer.u(2, 1)  // n_filt
        writer.u(1, 1)  // coef_res: 4 bits
        writer.u(6, UInt32(bandCount - startBand))  // length
        writer.u(5, UInt32(indices.count))  // order
        writer.u(1, 0)  // direction: upwards
        writer.u(1, 0)  // coef_compress
        for index in indices { writer.u(4, UInt32(index & 0xF)) }
    }
}
