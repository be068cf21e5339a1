/// Which neighbouring samples of a block are available for intra prediction (§6.4.11 and the
/// "available for Intra prediction" rules of §8.3.1.2, §8.3.3, §8.3.4): a neighbour outside the
/// picture or slice, or not yet decoded, is not available.
public struct IntraNeighbours: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a set from its raw bits.
    /// - Parameter rawValue: the bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The column left of the block (p[−1, y]).
    public static let left = IntraNeighbours(rawValue: 1)
    /// The row above the block (p[x, −1] for x in the block's width).
    public static let top = IntraNeighbours(rawValue: 2)
    /// The sample above-left (p[−1, −1]).
    public static let topLeft = IntraNeighbours(rawValue: 4)
    /// The row above-right (p[x, −1] for x = 4…7 of a 4x4 block).
    public static let topRight = IntraNeighbours(rawValue: 8)
    /// All four.
    public static let all: IntraNeighbours = [.left, .top, .topLeft, .topRight]
}
