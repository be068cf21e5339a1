import Bitstream

/// One list of `ref_pic_list_modification( )` (ITU-T H.264 §7.3.3.1): the operations that reorder
/// reference picture list 0 or 1, in order, without the final `modification_of_pic_nums_idc` = 3.
public struct H264RefPicListModification: Sendable, Hashable {
    /// One `modification_of_pic_nums_idc` with its argument (§7.4.3.1, Table 7-7).
    public enum Operation: Sendable, Hashable {
        /// `modification_of_pic_nums_idc` = 0: a short-term picture, `abs_diff_pic_num_minus1` below the prediction.
        case subtractShortTerm(absDiffPicNumMinus1: UInt32)
        /// `modification_of_pic_nums_idc` = 1: a short-term picture, `abs_diff_pic_num_minus1` above the prediction.
        case addShortTerm(absDiffPicNumMinus1: UInt32)
        /// `modification_of_pic_nums_idc` = 2: the long-term picture `long_term_pic_num`.
        case longTerm(longTermPicNum: UInt32)

        /// `modification_of_pic_nums_idc`, 0…2.
        public var modificationOfPicNumsIDC: UInt32 {
            switch self {
            case .subtractShortTerm: return 0
            case .addShortTerm: return 1
            case .longTerm: return 2
            }
        }
    }

    /// The operations, at most `num_ref_idx_lX_active_minus1` + 1.
    public var operations: [Operation]

    /// Creates a modification list.
    /// - Parameter operations: the operations, in order.
    public init(operations: [Operation]) {
        self.operations = operations
    }

    /// Reads the operations of one list, after its `ref_pic_list_modification_flag_lX` = 1
    /// (ITU-T H.264 §7.3.3.1).
    /// - Parameters:
    ///   - reader: the RBSP reader.
    ///   - maxPicNum: `MaxPicNum` (§7.4.3), bounding `abs_diff_pic_num_minus1`.
    ///   - maxOperations: `num_ref_idx_lX_active_minus1` + 1, the most operations allowed.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(from reader: inout BitReader, maxPicNum: UInt32, maxOperations: Int) throws(SyntaxError) {
        var operations: [Operation] = []
        while true {
            let offset = reader.bitPosition
            let idc = try reader.ue("modification_of_pic_nums_idc", max: 3)
            if idc == 3 { break }
            guard operations.count < maxOperations else {
                throw SyntaxError(field: "modification_of_pic_nums_idc", bitOffset: offset,
                                  reason: .invalid("more than \(maxOperations) modifications (num_ref_idx_active_minus1 + 1)"))
            }
            switch idc {
            case 0: operations.append(.subtractShortTerm(absDiffPicNumMinus1: try reader.ue("abs_diff_pic_num_minus1", max: maxPicNum - 1)))
            case 1: operations.append(.addShortTerm(absDiffPicNumMinus1: try reader.ue("abs_diff_pic_num_minus1", max: maxPicNum - 1)))
            default: operations.append(.longTerm(longTermPicNum: try reader.ue("long_term_pic_num")))
            }
        }
        self.operations = operations
    }

    /// Writes the operations and the closing `modification_of_pic_nums_idc` = 3 (§7.3.3.1).
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        for operation in operations {
            writer.ue(operation.modificationOfPicNumsIDC)
            switch operation {
            case let .subtractShortTerm(value), let .addShortTerm(value): writer.ue(value)
            case let .longTerm(value): writer.ue(value)
            }
        }
        writer.ue(3)
    }
}
