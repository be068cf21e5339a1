import Foundation

/// An in-place radix-2 complex FFT of a fixed power-of-two size, with its twiddles and bit-reversal
/// order computed once. The kernel is `e^(−2πi·jk/size)` (forward); the (I)MDCT uses it at N/8 points.
public struct AACFFT: Sendable {
    /// The number of complex points.
    public let size: Int
    /// The twiddles of every butterfly stage, one stage after another: for the stage joining halves of
    /// `h` points, `cos` and `−sin` of `πk/h` for `k < h` start at offset `h − 1`.
    let cosines: [Float]
    let sines: [Float]
    /// The bit-reversed position of each index.
    let reversed: [Int]

    /// Prepares an FFT.
    /// - Parameter size: a power of two, 2 or more.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        var cosines: [Float] = []
        var sines: [Float] = []
        var half = 1
        while half < size {
            for k in 0..<half {
                cosines.append(Float(cos(Double.pi * Double(k) / Double(half))))
                sines.append(Float(-sin(Double.pi * Double(k) / Double(half))))
            }
            half *= 2
        }
        self.cosines = cosines
        self.sines = sines
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { index in
            var value = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { value |= 1 << (bits - 1 - bit) }
            return value
        }
    }

    /// Transforms `size` complex values in place.
    /// - Parameters:
    ///   - real: the real parts (at least `size`).
    ///   - imaginary: the imaginary parts (at least `size`).
    public func transform(real: UnsafeMutablePointer<Float>, imaginary: UnsafeMutablePointer<Float>) {
        reversed.withUnsafeBufferPointer { order in
            for index in 0..<size {
                let other = order[index]
                if other > index {
                    swap(&real[index], &real[other])
                    swap(&imaginary[index], &imaginary[other])
                }
            }
        }
        // The first stage's twiddle is 1: sums and differences of neighbours.
        var pair = 0
        while pair < size {
            let (ar, ai, br, bi) = (real[pair], imaginary[pair], real[pair + 1], imaginary[pair + 1])
            real[pair] = ar + br
            imaginary[pair] = ai + bi
            real[pair + 1] = ar - br
            imaginary[pair + 1] = ai - bi
            pair += 2
        }
        cosines.withUnsafeBufferPointer { cosines in
            sines.withUnsafeBufferPointer { sines in
                guard let cosines = cosines.baseAddress, let sines = sines.baseAddress else { return }
                var half = 2
                while half < size {
                    let stage = half - 1
                    for k in 0..<half {
                        let wr = cosines[stage + k]
                        let wi = sines[stage + k]
                        var a = k
                        while a < size {
                            let b = a + half
                            let tr = real[b] * wr - imaginary[b] * wi
                            let ti = real[b] * wi + imaginary[b] * wr
                            real[b] = real[a] - tr
                            imaginary[b] = imaginary[a] - ti
                            real[a] += tr
                            imaginary[a] += ti
                            a += 2 * half
                        }
                    }
                    half *= 2
                }
            }
        }
    }
}
