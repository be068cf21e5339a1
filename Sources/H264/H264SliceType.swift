/// The coding type of a slice: `slice_type` modulo 5 (ITU-T H.264 §7.4.3, Table 7-6).
///
/// `slice_type` values 5…9 mean the same types and add that every slice of the picture has that
/// type; ``H264SliceHeader`` keeps that as ``H264SliceHeader/allSlicesHaveSameType``.
public enum H264SliceType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// P slice (0, 5).
    case p = 0
    /// B slice (1, 6).
    case b = 1
    /// I slice (2, 7).
    case i = 2
    /// SP slice (3, 8).
    case sp = 3
    /// SI slice (4, 9).
    case si = 4

    /// Creates the type from a coded `slice_type`.
    /// - Parameter sliceType: `slice_type`, 0…9.
    /// - Returns: `nil` for values above 9.
    public init?(sliceType: UInt32) {
        guard sliceType <= 9 else { return nil }
        self.init(rawValue: UInt8(sliceType % 5))
    }

    /// Whether macroblocks may use inter prediction from list 0 (P, SP and B slices).
    public var usesList0: Bool { self == .p || self == .sp || self == .b }

    /// Whether macroblocks may use inter prediction from list 1 (B slices).
    public var usesList1: Bool { self == .b }

    /// Whether the slice is intra only (I and SI slices).
    public var isIntra: Bool { self == .i || self == .si }

    /// "P", "B", "I", "SP" or "SI".
    public var description: String {
        switch self {
        case .p: return "P"
        case .b: return "B"
        case .i: return "I"
        case .sp: return "SP"
        case .si: return "SI"
        }
    }
}
