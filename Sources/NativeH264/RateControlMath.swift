/// The few logarithms and powers rate control needs, without Foundation.
enum RateControlMath {
    /// log₂ x for x > 0: the binary exponent plus ln of the significand (in 1…2) by the series
    /// ln m = 2·(z + z³/3 + z⁵/5 + …), z = (m − 1)/(m + 1) ≤ 1/3.
    /// - Parameter x: a positive, finite value.
    /// - Returns: log₂ x (−1074 for x ≤ 0).
    static func log2(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x > 0 ? 1024 : -1074 }
        let m = x.significand, z = (m - 1) / (m + 1), z2 = z * z
        var term = z, sum = 0.0
        for n in stride(from: 1, through: 25, by: 2) { sum += term / Double(n); term *= z2 }
        return Double(x.exponent) + 2 * sum / 0.6931471805599453
    }

    /// 2^x.
    /// - Parameter x: the exponent (clamped to ±60).
    /// - Returns: 2^x.
    static func exp2(_ x: Double) -> Double { SliceCoder.pow2(min(max(x, -60), 60)) }

    /// The quantiser step size of a QP, up to a constant: 0.85·2^((qp − 12)/6), doubling every 6 QP
    /// as the scaling of §8.5.12.1 does.
    /// - Parameter qp: QPY (may be fractional).
    /// - Returns: the step.
    static func qscale(_ qp: Double) -> Double { 0.85 * exp2((qp - 12) / 6) }

    /// The QP of a step size, the inverse of ``qscale(_:)``.
    /// - Parameter qscale: a positive step.
    /// - Returns: the QP (fractional).
    static func qp(_ qscale: Double) -> Double { 12 + 6 * log2(qscale / 0.85) }
}
