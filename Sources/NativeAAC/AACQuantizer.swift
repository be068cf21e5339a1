import Foundation

/// Quantisation, the encoder's side of ISO/IEC 14496-3 §4.6.1.3 and §4.6.2.3: a coefficient `x` with
/// scalefactor `sf` becomes `q = ⌊(|x| · 2^(−¼(sf − 100)))^¾ + 0.4054⌋` (the rounding offset that
/// minimises the error after the decoder's `q^(4/3)`), capped at 8191, the largest escape value.
///
/// The tables hold `2^(−3/16·(sf − 100))`, so quantising is one multiply of the precomputed `|x|^¾`.
enum AACQuantizer {
    /// The rounding offset.
    static let roundingOffset: Float = 0.4054
    /// The largest quantised magnitude (escape codebook, §4.6.3.3).
    static let largestValue: Int32 = 8191
    /// `2^(−3/16·(sf − 100))` for sf 0…255.
    static let inverseSteps: [Float] = (0..<256).map { Float(pow(2.0, -3.0 / 16.0 * Double($0 - 100))) }
    /// `2^(¼(sf − 100))` for sf 0…255 (the decoder's gain).
    static let gains: [Float] = (0..<256).map { Float(pow(2.0, 0.25 * Double($0 - 100))) }

    /// The smallest scalefactor at which a band's largest `|x|^¾` still quantises to at most 8191.
    /// - Parameter largest34: the band's largest `|x|^¾`.
    /// - Returns: 0…255.
    static func smallestScalefactor(forLargest largest34: Float) -> Int {
        guard largest34 > 0 else { return 0 }
        // (8191 − offset) ≥ largest34 · 2^(−3/16·(sf − 100))  ⇔  sf ≥ 100 + 16/3 · log2(largest34 / 8190.6)
        let estimate = Int((100 + 16.0 / 3.0 * log2(Double(largest34) / 8190.5)).rounded(.up))
        var sf = min(max(estimate, 0), 255)
        while sf < 255, largest34 * inverseSteps[sf] + roundingOffset >= 8192 { sf += 1 }
        return sf
    }

    /// Quantises a band and measures the squared error the decoder will hear.
    /// - Parameters:
    ///   - x: the coefficients.
    ///   - x34: their `|x|^¾`.
    ///   - count: how many.
    ///   - scalefactor: 0…255.
    ///   - output: receives the signed quantised values, or `nil` to measure only.
    /// - Returns: the squared error and the largest magnitude.
    @inline(__always)
    static func quantize(_ x: UnsafePointer<Float>, _ x34: UnsafePointer<Float>, count: Int, scalefactor: Int,
                         into output: UnsafeMutablePointer<Int32>?, power: UnsafePointer<Float>) -> (error: Float, largest: Int32) {
        let inverse = inverseSteps[scalefactor]
        let gain = gains[scalefactor]
        var error: Float = 0
        var largest: Int32 = 0
        for i in 0..<count {
            let q = min(Int32(x34[i] * inverse + roundingOffset), largestValue)
            let magnitude = abs(x[i])
            let difference = magnitude - power[Int(q)] * gain
            error += difference * difference
            largest = max(largest, q)
            if let output { output[i] = x[i] < 0 ? -q : q }
        }
        return (error, largest)
    }
}
