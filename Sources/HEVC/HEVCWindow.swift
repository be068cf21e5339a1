/// A rectangle cut from the edges of a picture: the conformance window of an SPS (§7.4.3.2.1) or
/// the default display window of a VUI (§E.3.1). Offsets are in chroma sample units: multiply by
/// `SubWidthC` / `SubHeightC` for luma samples.
public struct HEVCWindow: Sendable, Hashable {
    /// `conf_win_left_offset` / `def_disp_win_left_offset`.
    public var leftOffset: Int
    /// `conf_win_right_offset` / `def_disp_win_right_offset`.
    public var rightOffset: Int
    /// `conf_win_top_offset` / `def_disp_win_top_offset`.
    public var topOffset: Int
    /// `conf_win_bottom_offset` / `def_disp_win_bottom_offset`.
    public var bottomOffset: Int

    /// Creates a window.
    /// - Parameters:
    ///   - leftOffset: left offset in chroma units.
    ///   - rightOffset: right offset in chroma units.
    ///   - topOffset: top offset in chroma units.
    ///   - bottomOffset: bottom offset in chroma units.
    public init(leftOffset: Int = 0, rightOffset: Int = 0, topOffset: Int = 0, bottomOffset: Int = 0) {
        self.leftOffset = leftOffset
        self.rightOffset = rightOffset
        self.topOffset = topOffset
        self.bottomOffset = bottomOffset
    }
}
