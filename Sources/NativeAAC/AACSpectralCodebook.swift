/// How the index of a spectral codebook (ISO/IEC 14496-3 §4.6.3.3, Table 4.151) maps to quantised
/// values: 4-tuples (codebooks 1–4) or pairs (5–11), signed or followed by sign bits, and the escape
/// of codebook 11.
public struct AACSpectralCodebook: Sendable {
    /// Values per codeword: 4 or 2.
    public let dimension: Int
    /// Whether the values carry their sign (no sign bits follow).
    public let isSigned: Bool
    /// The largest absolute value (`LAV`); 16 means "escape follows" in codebook 11.
    public let largestValue: Int
    /// Whether ±16 is followed by an escape sequence (codebook 11).
    public var hasEscape: Bool { largestValue == 16 }
    /// The number of values each position can take.
    var modulus: Int { isSigned ? 2 * largestValue + 1 : largestValue + 1 }
    /// The values of every index, unpacked once: one signed byte per value, the first value in the
    /// highest byte (quads: bytes 3…0; pairs: bytes 1…0).
    let unpacked: [UInt32]

    /// Describes a codebook and unpacks its indices.
    /// - Parameters:
    ///   - dimension: values per codeword, 4 or 2.
    ///   - isSigned: whether the values carry their sign.
    ///   - largestValue: the largest absolute value (16: escape).
    init(dimension: Int, isSigned: Bool, largestValue: Int) {
        self.dimension = dimension
        self.isSigned = isSigned
        self.largestValue = largestValue
        let modulus = isSigned ? 2 * largestValue + 1 : largestValue + 1
        let offset = isSigned ? largestValue : 0
        var power = 1
        for _ in 0..<dimension { power *= modulus }
        unpacked = (0..<power).map { index in
            var packed: UInt32 = 0
            var divisor = power / modulus
            for _ in 0..<dimension {
                let value = (index / divisor) % modulus - offset
                packed = packed << 8 | UInt32(UInt8(bitPattern: Int8(value)))
                divisor /= modulus
            }
            return packed
        }
    }

    /// Codebooks 1 through 11 (element 0 is codebook 1).
    public static let all: [AACSpectralCodebook] = [
        .init(dimension: 4, isSigned: true, largestValue: 1), .init(dimension: 4, isSigned: true, largestValue: 1),
        .init(dimension: 4, isSigned: false, largestValue: 2), .init(dimension: 4, isSigned: false, largestValue: 2),
        .init(dimension: 2, isSigned: true, largestValue: 4), .init(dimension: 2, isSigned: true, largestValue: 4),
        .init(dimension: 2, isSigned: false, largestValue: 7), .init(dimension: 2, isSigned: false, largestValue: 7),
        .init(dimension: 2, isSigned: false, largestValue: 12), .init(dimension: 2, isSigned: false, largestValue: 12),
        .init(dimension: 2, isSigned: false, largestValue: 16),
    ]

    /// The four values of a 4-tuple index: `w x y z` as the digits of the index in base ``modulus``,
    /// offset by ``largestValue`` when signed.
    /// - Parameter index: the codebook index.
    /// - Returns: the values (unsigned codebooks: magnitudes).
    @inlinable
    public func quad(_ index: Int) -> SIMD4<Int> {
        let modulus = isSigned ? 2 * largestValue + 1 : largestValue + 1
        let offset = isSigned ? largestValue : 0
        return SIMD4(index / (modulus * modulus * modulus) - offset, (index / (modulus * modulus)) % modulus - offset,
                     (index / modulus) % modulus - offset, index % modulus - offset)
    }

    /// The two values of a pair index: `y z` as the digits of the index in base ``modulus``.
    /// - Parameter index: the codebook index.
    /// - Returns: the values (unsigned codebooks: magnitudes).
    @inlinable
    public func pair(_ index: Int) -> (Int, Int) {
        let modulus = isSigned ? 2 * largestValue + 1 : largestValue + 1
        let offset = isSigned ? largestValue : 0
        return (index / modulus - offset, index % modulus - offset)
    }
}
