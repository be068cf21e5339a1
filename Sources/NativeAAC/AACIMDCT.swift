import Foundation

/// The inverse modified discrete cosine transform of ISO/IEC 14496-3 §4.6.11.3.1:
/// `x[n] = scale · Σ_{k<N/2} X[k] · cos(2π/N · (n + n₀)(k + ½))`, `n₀ = (N/2 + 1)/2`, for `0 ≤ n < N`
/// (the specification's own scale is 2/N).
///
/// Computed through a DCT-IV of size N/2, itself a complex FFT of N/8 points between two twiddle
/// rotations: with `M = N/2`, `z[j] = (X[2j] + i·X[M−1−2j]) · e^(−iπ(j+⅛)/M)`, `Z = FFT(z)`,
/// `C[p] = Z[p] · e^(−iπ(p+⅛)/M)`; then `u[2p] = Re C[p]` and `u[M−1−2p] = −Im C[p]`. The IMDCT output
/// unfolds `u` by its symmetries: `x[n] = u[n + M/2]` for `n < M/2`, `−u[3M/2 − 1 − n]` for
/// `n < 3M/2`, `−u[n − 3M/2]` after.
public struct AACIMDCT: Sendable {
    /// The transform length N (output samples): 2048 or 256 for AAC.
    public let length: Int
    let fft: AACFFT
    /// `cos` and `sin` of `π(j + ⅛)/M`, j < M/2.
    let twiddleCos: [Float]
    let twiddleSin: [Float]

    /// Prepares a transform.
    /// - Parameter length: N, a power of two of at least 16.
    public init(length: Int) {
        self.length = length
        let m = length / 2
        fft = AACFFT(size: m / 2)
        twiddleCos = (0..<(m / 2)).map { Float(cos(Double.pi * (Double($0) + 0.125) / Double(m))) }
        twiddleSin = (0..<(m / 2)).map { Float(sin(Double.pi * (Double($0) + 0.125) / Double(m))) }
    }

    /// Transforms N/2 coefficients into N samples.
    /// - Parameters:
    ///   - input: N/2 spectral coefficients.
    ///   - output: room for N samples.
    ///   - scale: the factor applied to every output sample.
    ///   - scratch: room for N floats of work space.
    public func inverse(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, scale: Float,
                        scratch: UnsafeMutablePointer<Float>) {
        let m = length / 2
        let u = scratch + m
        dctIV(input, into: u, scale: scale, scratch: scratch)
        let half = m / 2
        for n in 0..<half { output[n] = u[n + half] }
        for n in half..<(3 * half) { output[n] = -u[3 * half - 1 - n] }
        for n in (3 * half)..<length { output[n] = -u[n - 3 * half] }
    }

    /// The DCT-IV of size M = N/2 at the heart of both transforms:
    /// `u[n] = scale · Σ_{k<M} X[k] · cos(π/M · (n + ½)(k + ½))`. The IMDCT unfolds its output; the
    /// forward MDCT (``AACMDCT``) folds its input into it.
    /// - Parameters:
    ///   - input: M values.
    ///   - output: room for M values (not overlapping `scratch`'s first M).
    ///   - scale: the factor applied to every output value.
    ///   - scratch: room for M floats of work space.
    public func dctIV(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, scale: Float,
                      scratch: UnsafeMutablePointer<Float>) {
        let m = length / 2
        let quarter = m / 2
        let real = scratch
        let imaginary = scratch + quarter
        let u = output
        twiddleCos.withUnsafeBufferPointer { cosines in
            twiddleSin.withUnsafeBufferPointer { sines in
                for j in 0..<quarter {
                    let a = input[2 * j]
                    let b = input[m - 1 - 2 * j]
                    let c = cosines[j]
                    let s = sines[j]
                    // (a + ib)(c − is)
                    real[j] = a * c + b * s
                    imaginary[j] = b * c - a * s
                }
                fft.transform(real: real, imaginary: imaginary)
                for p in 0..<quarter {
                    let a = real[p]
                    let b = imaginary[p]
                    let c = cosines[p]
                    let s = sines[p]
                    u[2 * p] = (a * c + b * s) * scale
                    u[m - 1 - 2 * p] = -(b * c - a * s) * scale
                }
            }
        }
    }

    /// The same transform computed term by term (O(N²)); for tests.
    /// - Parameters:
    ///   - input: N/2 coefficients.
    ///   - scale: the factor applied to every output sample.
    /// - Returns: N samples.
    public func referenceInverse(_ input: [Float], scale: Double) -> [Float] {
        let n0 = (Double(length) / 2 + 1) / 2
        return (0..<length).map { n in
            var sum = 0.0
            for k in 0..<(length / 2) {
                sum += Double(input[k]) * cos(2 * Double.pi / Double(length) * (Double(n) + n0) * (Double(k) + 0.5))
            }
            return Float(sum * scale)
        }
    }
}
