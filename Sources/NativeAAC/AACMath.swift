import Foundation

/// The few real functions the tables need, in one place.
enum AACMath {
    /// `base` raised to `exponent`.
    static func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }
}
