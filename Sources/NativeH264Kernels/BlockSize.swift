/// The rectangular block shapes an H.264 macroblock is partitioned into for prediction and cost
/// (§6.4.2: macroblock and sub-macroblock partitions, 16x16 down to 4x4).
public enum BlockSize: CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// 16 samples wide, 16 high (a whole macroblock).
    case w16h16
    /// 16 wide, 8 high.
    case w16h8
    /// 8 wide, 16 high.
    case w8h16
    /// 8 wide, 8 high (one sub-macroblock).
    case w8h8
    /// 8 wide, 4 high.
    case w8h4
    /// 4 wide, 8 high.
    case w4h8
    /// 4 wide, 4 high (one transform block).
    case w4h4

    /// The width in samples.
    @inlinable public var width: Int {
        switch self {
        case .w16h16, .w16h8: 16
        case .w8h16, .w8h8, .w8h4: 8
        case .w4h8, .w4h4: 4
        }
    }

    /// The height in samples.
    @inlinable public var height: Int {
        switch self {
        case .w16h16, .w8h16: 16
        case .w16h8, .w8h8, .w4h8: 8
        case .w8h4, .w4h4: 4
        }
    }

    /// "16x8" and so on.
    public var description: String { "\(width)x\(height)" }
}
