/// A run of consecutive GOPs of the same length: `30 ×4` is four GOPs of 30 frames.
public struct GOPLengthRun: Sendable, Hashable {
    /// The distance, in frames, from a key frame to the next (the last GOP runs to the end).
    public var length: Int
    /// How many GOPs in a row have that length.
    public var count: Int

    /// Creates a run.
    /// - Parameters:
    ///   - length: the GOP length in frames.
    ///   - count: how many consecutive GOPs have it.
    public init(length: Int, count: Int) {
        self.length = length
        self.count = count
    }
}
