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
                // Two stages per pass (radix 2²): the stage joining halves of h points and the next one,
                // over the four points k, k + h, k + 2h, k + 3h of each block of 4h. The second stage's
                // twiddle for k + h is the one for k times −i.
                var half = 2
                while half * 2 < size {
                    let first = half - 1
                    let second = 2 * half - 1
                    for k in 0..<half {
                        let wr = cosines[first + k], wi = sines[first + k]
                        let vr = cosines[second + k], vi = sines[second + k]
                        var p0 = k
                        while p0 < size {
                            let p1 = p0 + half, p2 = p1 + half, p3 = p2 + half
                            let b1r = real[p1] * wr - imaginary[p1] * wi, b1i = real[p1] * wi + imaginary[p1] * wr
                            let b3r = real[p3] * wr - imaginary[p3] * wi, b3i = real[p3] * wi + imaginary[p3] * wr
                            let t0r = real[p0] + b1r, t0i = imaginary[p0] + b1i
                            let t1r = real[p0] - b1r, t1i = imaginary[p0] - b1i
                            let t2r = real[p2] + b3r, t2i = imaginary[p2] + b3i
                            let t3r = real[p2] - b3r, t3i = imaginary[p2] - b3i
                            let u2r = t2r * vr - t2i * vi, u2i = t2r * vi + t2i * vr
                            // (−i·v)·t3 = −i·(v·t3): (a + ib)·(−i) = b − ia.
                            let m3r = t3r * vr - t3i * vi, m3i = t3r * vi + t3i * vr
                            let u3r = m3i, u3i = -m3r
                            real[p0] = t0r + u2r; imaginary[p0] = t0i + u2i
                            real[p2] = t0r - u2r; imaginary[p2] = t0i - u2i
                            real[p1] = t1r + u3r; imaginary[p1] = t1i + u3i
                            real[p3] = t1r - u3r; imaginary[p3] = t1i - u3i
                            p0 += 4 * half
                        }
                    }
                    half *= 4
                }
                // An odd number of remaining stages leaves one radix-2 stage.
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
