import Bitstream

/// `dec_ref_pic_marking( )` of ITU-T H.264 §7.3.3.3: how the current reference picture changes the
/// marking of reference pictures.
public struct H264DecRefPicMarking: Sendable, Hashable {
    /// One memory management control operation (§7.4.3.3, Table 7-9).
    public enum Operation: Sendable, Hashable {
        /// 1: mark a short-term picture as unused for reference.
        case markShortTermUnused(differenceOfPicNumsMinus1: UInt32)
        /// 2: mark a long-term picture as unused for reference.
        case markLongTermUnused(longTermPicNum: UInt32)
        /// 3: turn a short-term picture into a long-term one.
        case assignLongTermFrameIndex(differenceOfPicNumsMinus1: UInt32, longTermFrameIdx: UInt32)
        /// 4: set the largest long-term frame index.
        case setMaxLongTermFrameIndex(maxLongTermFrameIdxPlus1: UInt32)
        /// 5: mark all reference pictures as unused and reset frame numbers and picture order counts.
        case markAllUnused
        /// 6: make the current picture long-term.
        case assignCurrentLongTerm(longTermFrameIdx: UInt32)

        /// `memory_management_control_operation`, 1…6.
        public var memoryManagementControlOperation: UInt32 {
            switch self {
            case .markShortTermUnused: return 1
            case .markLongTermUnused: return 2
            case .assignLongTermFrameIndex: return 3
            case .setMaxLongTermFrameIndex: return 4
            case .markAllUnused: return 5
            case .assignCurrentLongTerm: return 6
            }
        }
    }

    /// `no_output_of_prior_pics_flag` (IDR pictures only).
    public var noOutputOfPriorPicsFlag: Bool
    /// `long_term_reference_flag` (IDR pictures only).
    public var longTermReferenceFlag: Bool
    /// The adaptive marking operations of a non-IDR picture, without the final 0; `nil` when
    /// `adaptive_ref_pic_marking_mode_flag` is 0 (sliding window) or the picture is IDR.
    public var adaptiveOperations: [Operation]?

    /// Creates a marking.
    /// - Parameters:
    ///   - noOutputOfPriorPicsFlag: `no_output_of_prior_pics_flag` (IDR).
    ///   - longTermReferenceFlag: `long_term_reference_flag` (IDR).
    ///   - adaptiveOperations: the operations (non-IDR), or `nil` for the sliding window.
    public init(noOutputOfPriorPicsFlag: Bool = false, longTermReferenceFlag: Bool = false, adaptiveOperations: [Operation]? = nil) {
        self.noOutputOfPriorPicsFlag = noOutputOfPriorPicsFlag
        self.longTermReferenceFlag = longTermReferenceFlag
        self.adaptiveOperations = adaptiveOperations
    }

    /// Whether the operations include `memory_management_control_operation` 5.
    public var hasMarkAllUnused: Bool {
        adaptiveOperations?.contains(.markAllUnused) ?? false
    }

    /// Reads `dec_ref_pic_marking( )` (ITU-T H.264 §7.3.3.3).
    /// - Parameters:
    ///   - reader: the RBSP reader.
    ///   - isIDR: `IdrPicFlag` of the slice.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(from reader: inout BitReader, isIDR: Bool) throws(SyntaxError) {
        noOutputOfPriorPicsFlag = false
        longTermReferenceFlag = false
        adaptiveOperations = nil
        if isIDR {
            noOutputOfPriorPicsFlag = try reader.flag("no_output_of_prior_pics_flag")
            longTermReferenceFlag = try reader.flag("long_term_reference_flag")
            return
        }
        guard try reader.flag("adaptive_ref_pic_marking_mode_flag") else { return }
        var operations: [Operation] = []
        while true {
            let operation = try reader.ue("memory_management_control_operation", max: 6)
            switch operation {
            case 0:
                adaptiveOperations = operations
                return
            case 1:
                operations.append(.markShortTermUnused(differenceOfPicNumsMinus1: try reader.ue("difference_of_pic_nums_minus1")))
            case 2:
                operations.append(.markLongTermUnused(longTermPicNum: try reader.ue("long_term_pic_num")))
            case 3:
                let difference = try reader.ue("difference_of_pic_nums_minus1")
                operations.append(.assignLongTermFrameIndex(differenceOfPicNumsMinus1: difference,
                                                            longTermFrameIdx: try reader.ue("long_term_frame_idx")))
            case 4:
                operations.append(.setMaxLongTermFrameIndex(maxLongTermFrameIdxPlus1: try reader.ue("max_long_term_frame_idx_plus1", max: 16)))
            case 5:
                operations.append(.markAllUnused)
            default:
                operations.append(.assignCurrentLongTerm(longTermFrameIdx: try reader.ue("long_term_frame_idx")))
            }
        }
    }

    /// Writes `dec_ref_pic_marking( )` (§7.3.3.3).
    /// - Parameters:
    ///   - writer: the RBSP writer.
    ///   - isIDR: `IdrPicFlag` of the slice.
    public func write(to writer: inout BitWriter, isIDR: Bool) {
        if isIDR {
            writer.flag(noOutputOfPriorPicsFlag)
            writer.flag(longTermReferenceFlag)
            return
        }
        writer.flag(adaptiveOperations != nil)
        guard let operations = adaptiveOperations else { return }
        for operation in operations {
            writer.ue(operation.memoryManagementControlOperation)
            switch operation {
            case let .markShortTermUnused(difference):
                writer.ue(difference)
            case let .markLongTermUnused(number):
                writer.ue(number)
            case let .assignLongTermFrameIndex(difference, index):
                writer.ue(difference)
                writer.ue(index)
            case let .setMaxLongTermFrameIndex(value):
                writer.ue(value)
            case .markAllUnused:
                break
            case let .assignCurrentLongTerm(index):
                writer.ue(index)
            }
        }
        writer.ue(0)
    }
}
