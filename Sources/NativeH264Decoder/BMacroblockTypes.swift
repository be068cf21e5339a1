/// The inter macroblock and sub-macroblock types of B slices as values (Tables 7-14 and 7-18), for
/// either entropy coder: the partition shape and which lists each partition predicts from.
enum BMacroblockTypes {
    /// Prediction from list 0 (Pred_L0).
    static let list0: UInt8 = 1
    /// Prediction from list 1 (Pred_L1).
    static let list1: UInt8 = 2
    /// Bi-prediction (BiPred): both bits.
    static let both: UInt8 = 3

    /// `mb_type` 0 of a B slice: B_Direct_16x16.
    static let direct16x16 = 0
    /// `mb_type` 22 of a B slice: B_8x8.
    static let b8x8 = 22
    /// The last inter `mb_type` of a B slice; 23… are the intra types of Table 7-11 (offset by 23).
    static let lastInter = 22

    /// Table 7-14, `mb_type` 1…21: (shape, prediction of partition 0, prediction of partition 1), shape 0
    /// for 16x16 (one partition), 1 for 16x8, 2 for 8x16. Index 0 and 22 are placeholders.
    static let macroblock: [(shape: Int, first: UInt8, second: UInt8)] = [
        (0, 0, 0),
        (0, list0, 0), (0, list1, 0), (0, both, 0),
        (1, list0, list0), (2, list0, list0), (1, list1, list1), (2, list1, list1),
        (1, list0, list1), (2, list0, list1), (1, list1, list0), (2, list1, list0),
        (1, list0, both), (2, list0, both), (1, list1, both), (2, list1, both),
        (1, both, list0), (2, both, list0), (1, both, list1), (2, both, list1),
        (1, both, both), (2, both, both),
        (0, 0, 0),
    ]

    /// Table 7-18, `sub_mb_type` 0…12: (prediction, shape); prediction 0 for B_Direct_8x8; shape 0 for 8x8,
    /// 1 for 8x4, 2 for 4x8, 3 for 4x4 (the shapes of P sub-macroblocks, Table 7-17).
    static let subMacroblock: [(prediction: UInt8, shape: Int)] = [
        (0, 0),
        (list0, 0), (list1, 0), (both, 0),
        (list0, 1), (list0, 2), (list1, 1), (list1, 2),
        (both, 1), (both, 2),
        (list0, 3), (list1, 3), (both, 3),
    ]

    /// The largest `sub_mb_type` of a B slice.
    static let lastSubMacroblock = 12

    /// The number of sub-partitions of an 8x8 sub-macroblock of the given shape (Table 7-17/7-18).
    @inline(__always)
    static func subPartitionCount(_ shape: Int) -> Int { shape == 0 ? 1 : (shape == 3 ? 4 : 2) }

    /// Sub-partition `index` of an 8x8 sub-macroblock of the given shape, as (x, y, w, h) in 4x4 blocks
    /// relative to the sub-macroblock's corner, in decoding order.
    @inline(__always)
    static func subPartition(_ shape: Int, _ index: Int) -> (x: Int, y: Int, w: Int, h: Int) {
        switch shape {
        case 0: (0, 0, 2, 2)
        case 1: (0, index, 2, 1)
        case 2: (index, 0, 1, 2)
        default: (index & 1, index >> 1, 1, 1)
        }
    }
}
