import Foundation

/// The forward modified discrete cosine transform, the analysis filterbank an AAC encoder pairs with the
/// decoder's IMDCT (ISO/IEC 14496-3 §4.6.11.3.1, and the encoder's transform of §4.6.11 read backwards):
/// `X[k] = scale · Σ_{n<N} z[n] · cos(2π/N · (n + n₀)(k + ½))`, `n₀ = (N/2 + 1)/2`, for `0 ≤ k < N/2`,
/// on windowed input `z` (the specification's own scale is 2).
///
/// The N inputs are folded into M = N/2 values (time-domain aliasing: with quarters `a b c d`,
/// `u = (−c_r − d, a − b_r)`), then transformed by the same DCT-IV as ``AACIMDCT``.
public struct AACMDCT: Sendable {
    /// The transform length N (input samples): 2048 or 256 for AAC.
    public let length: Int
    let kernel: AACIMDCT

    /// Prepares a transform.
    /// - Parameter length: N, a power of two of at least 16.
    public init(length: Int) {
        self.length = length
        kernel = AACIMDCT(length: length)
    }

    /// Transforms N windowed samples into N/2 coefficients.
    /// - Parameters:
    ///   - input: N samples, already windowed.
    ///   - output: room for N/2 coefficients.
    ///   - scale: the factor applied to every coefficient.
    ///   - scratch: room for N floats of work space.
    public func forward(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, scale: Float,
                        scratch: UnsafeMutablePointer<Float>) {
        let m = length / 2
        let h = m / 2
        let folded = scratch + m
        for n in 0..<h {
            folded[n] = -input[3 * h - 1 - n] - input[3 * h + n]
            folded[h + n] = input[n] - input[m - 1 - n]
        }
        kernel.dctIV(folded, into: output, scale: scale, scratch: scratch)
    }

    /// The same transform computed term by term (O(N²)); for tests.
    /// - Parameters:
    ///   - input: N windowed samples.
    ///   - scale: the factor applied to every coefficient.
    /// - Returns: N/2 coefficients.
    public func referenceForward(_ input: [Float], scale: Double) -> [Float] {
        let n0 = (Double(length) / 2 + 1) / 2
        return (0..<(length / 2)).map { k in
            var sum = 0.0
            for n in 0..<length {
                sum += Double(input[n]) * cos(2 * Double.pi / Double(length) * (Double(n) + n0) * (Double(k) + 0.5))
            }
            return Float(sum * scale)
        }
    }
}
