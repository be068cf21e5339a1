import Foundation

/// Inverse quantisation (ISO/IEC 14496-3 §4.6.1.3) and scalefactor gains (§4.6.2.3), as tables.
public enum AACInverseQuantizer {
    /// `|q|^(4/3)` for |q| ≤ 8191 + 15 (the largest escape value plus the largest pulse).
    public static let powerFourThirds: [Float] = (0..<(8192 + 16)).map { Float(pow(Double($0), 4.0 / 3.0)) }

    /// `2^(¼(sf − 100))` for sf in 0…255.
    static let gains: [Float] = (0..<256).map { Float(pow(2.0, 0.25 * Double($0 - 100))) }

    /// The gain of a scalefactor.
    /// - Parameter scalefactor: 0 through 255.
    /// - Returns: `2^(¼(sf − 100))`.
    public static func gain(scalefactor: Int) -> Float {
        gains[min(max(scalefactor, 0), 255)]
    }
}
