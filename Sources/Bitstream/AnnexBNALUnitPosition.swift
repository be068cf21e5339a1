/// Where a NAL unit that ``AnnexBStreamScanner`` hands out lies in its stream.
///
/// Offsets count from the first byte appended to the scanner (or from the first byte after the last
/// ``AnnexBStreamScanner/finish(_:)``).
public struct AnnexBNALUnitPosition: Sendable, Hashable {
    /// The stream offset of the NAL unit's first byte, its header (just after the start code).
    public var byteOffset: Int
    /// The stream offset of its start code: 4 bytes before ``byteOffset`` when a zero byte precedes
    /// `00 00 01`, else 3 (H.264 and H.265 B.1.2: the `zero_byte` belongs to the unit it introduces).
    public var startCodeOffset: Int

    /// Creates a position.
    /// - Parameters:
    ///   - byteOffset: the offset of the NAL unit's header byte.
    ///   - startCodeOffset: the offset of its start code.
    public init(byteOffset: Int, startCodeOffset: Int) {
        self.byteOffset = byteOffset
        self.startCodeOffset = startCodeOffset
    }
}
