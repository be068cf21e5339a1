/// `slice_type` of ITU-T H.265 Table 7-7.
public enum HEVCSliceType: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// B slice (0): intra, uni- and bi-prediction.
    case b = 0
    /// P slice (1): intra and uni-prediction.
    case p = 1
    /// I slice (2): intra prediction only.
    case i = 2

    /// "B", "P" or "I", as ffprobe prints `pict_type`.
    public var description: String {
        switch self {
        case .b: return "B"
        case .p: return "P"
        case .i: return "I"
        }
    }
}
