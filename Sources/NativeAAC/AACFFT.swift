import Foundation

/// An in-place radix-2 complex FFT of a fixed power-of-two size, with its twiddles and bit-reversal
/// order computed once. The kernel is `e^(−2πi·jk/size)` (forward); the (I)MDCT uses it at N/8 points.
public struct AACFFT: Sendable {
    /// The number of complex points.
    public let size: Int
    /// `cos` and `−sin` of `2πk/size` for `k < size/2`.
    let cosines: [Float]
    let sines: [Float]
    /// The bit-reversed position of each index.
    let reversed: [Int]

    /// Prepares an FFT.
    /// - Parameter size: a power of two, 2 or more.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        cosines = (0..<(size / 2)).map { Float(cos(2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<(size / 2)).map { Float(-sin(2 * Double.pi * Double($0) / Double(size))) }
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
        cosines.withUnsafeBufferPointer { cosines in
            sines.withUnsafeBufferPointer { sines in
                var half = 1
                while half < size {
                    let step = size / (half * 2)
                    var start = 0
                    while start < size {
                        for k in 0..<half {
                            let wr = cosines[k * step]
                            let wi = sines[k * step]
                            let a = start + k
                            let b = a + half
                            let tr = real[b] * wr - imaginary[b] * wi
                            let ti = real[b] * wi + imaginary[b] * wr
                            real[b] = real[a] - tr
                            imaginary[b] = imaginary[a] - ti
                            real[a] += tr
                            imaginary[a] += ti
                        }
                        start += half * 2
                    }
                    half *= 2
                }
            }
        }
    }
}
