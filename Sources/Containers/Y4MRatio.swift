/// A ratio of two positive integers as YUV4MPEG2 writes it, `numerator:denominator`: the frame rate
/// (`F30000:1001`) or the pixel aspect ratio (`A128:117`).
public struct Y4MRatio: Sendable, Hashable, CustomStringConvertible {
    /// The numerator (> 0).
    public var numerator: Int
    /// The denominator (> 0).
    public var denominator: Int

    /// Creates a ratio.
    /// - Parameters:
    ///   - numerator: the numerator; must be positive for a writer to accept it.
    ///   - denominator: the denominator; must be positive for a writer to accept it.
    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Whether both terms are positive (and fit the 32-bit fields readers expect).
    public var isValid: Bool {
        numerator > 0 && denominator > 0 && numerator <= Int(Int32.max) && denominator <= Int(Int32.max)
    }

    /// `numerator:denominator`, as in the header.
    public var description: String { "\(numerator):\(denominator)" }
}
