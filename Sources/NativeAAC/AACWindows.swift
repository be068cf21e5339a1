import Foundation

/// The rising halves of the AAC transform windows (ISO/IEC 14496-3 §4.6.11.3.2): sine and
/// Kaiser-Bessel derived, for long (2048) and short (256) transforms. Entry `n` of a table is
/// `W(n)` for `0 ≤ n < N/2`; the falling half is the same table read backwards (`W(N − 1 − n)`).
/// Computed once, in double precision; shared by the decoder's filterbank and an encoder's MDCT.
public enum AACWindows {
    /// Sine window, 1024 values (long).
    public static let sineLong = sine(length: 2048)
    /// Sine window, 128 values (short).
    public static let sineShort = sine(length: 256)
    /// KBD window with α = 4, 1024 values (long).
    public static let kbdLong = kaiserBesselDerived(length: 2048, alpha: 4)
    /// KBD window with α = 6, 128 values (short).
    public static let kbdShort = kaiserBesselDerived(length: 256, alpha: 6)

    /// The rising half of a window of a shape.
    /// - Parameters:
    ///   - shape: the window shape.
    ///   - isShort: the short (256) window instead of the long (2048) one.
    /// - Returns: N/2 values.
    public static func rising(_ shape: AACWindowShape, short isShort: Bool) -> [Float] {
        switch (shape, isShort) {
        case (.sine, false): return sineLong
        case (.sine, true): return sineShort
        case (.kaiserBesselDerived, false): return kbdLong
        case (.kaiserBesselDerived, true): return kbdShort
        }
    }

    /// `W_SIN(n) = sin(π/N · (n + ½))` for `0 ≤ n < N/2`.
    static func sine(length: Int) -> [Float] {
        (0..<(length / 2)).map { Float(sin(Double.pi / Double(length) * (Double($0) + 0.5))) }
    }

    /// `W_KBD(n) = sqrt(Σ_{p≤n} w'(p) / Σ_{p≤N/2} w'(p))` with the Kaiser-Bessel kernel
    /// `w'(p) = I0(πα · sqrt(1 − ((p − N/4) / (N/4))²))`, for `0 ≤ n < N/2`.
    static func kaiserBesselDerived(length: Int, alpha: Double) -> [Float] {
        let quarter = Double(length / 4)
        let kernel = (0...(length / 2)).map { p -> Double in
            let ratio = (Double(p) - quarter) / quarter
            return besselI0(Double.pi * alpha * (1 - ratio * ratio).squareRoot())
        }
        let total = kernel.reduce(0, +)
        var running = 0.0
        return (0..<(length / 2)).map { n in
            running += kernel[n]
            return Float((running / total).squareRoot())
        }
    }

    /// The modified Bessel function of the first kind, order 0, by its power series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        let half = x / 2
        for k in 1..<64 {
            term *= (half / Double(k)) * (half / Double(k))
            sum += term
            if term < sum * 1e-17 { break }
        }
        return sum
    }
}
