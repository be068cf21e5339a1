import Bitstream

/// How macroblocks map to slice groups (flexible macroblock ordering, FMO): the
/// `slice_group_map_type`-dependent part of `pic_parameter_set_rbsp( )`, ITU-T H.264 §7.3.2.2
/// and §8.2.2.
public enum H264SliceGroupMap: Sendable, Hashable {
    /// Type 0, interleaved: `run_length_minus1[ iGroup ]` for each slice group.
    case interleaved(runLengthMinus1: [UInt32])
    /// Type 1, dispersed.
    case dispersed
    /// Type 2, foreground with left-over: `top_left[ iGroup ]` and `bottom_right[ iGroup ]` for each
    /// slice group but the last.
    case foreground(topLeft: [UInt32], bottomRight: [UInt32])
    /// Type 3, box-out.
    case boxOut(changeDirectionFlag: Bool, changeRateMinus1: UInt32)
    /// Type 4, raster scan.
    case rasterScan(changeDirectionFlag: Bool, changeRateMinus1: UInt32)
    /// Type 5, wipe.
    case wipe(changeDirectionFlag: Bool, changeRateMinus1: UInt32)
    /// Type 6, explicit: `slice_group_id[ i ]` for each map unit (`pic_size_in_map_units_minus1` + 1 values).
    case explicit(sliceGroupIDs: [UInt32])

    /// `slice_group_map_type`, 0…6.
    public var mapType: UInt32 {
        switch self {
        case .interleaved: return 0
        case .dispersed: return 1
        case .foreground: return 2
        case .boxOut: return 3
        case .rasterScan: return 4
        case .wipe: return 5
        case .explicit: return 6
        }
    }

    /// `slice_group_change_rate_minus1` for types 3…5, `nil` otherwise.
    public var changeRateMinus1: UInt32? {
        switch self {
        case let .boxOut(_, rate), let .rasterScan(_, rate), let .wipe(_, rate): return rate
        default: return nil
        }
    }

    /// Reads `slice_group_map_type` and the elements that depend on it (ITU-T H.264 §7.3.2.2).
    /// - Parameters:
    ///   - reader: the RBSP reader, at `slice_group_map_type`.
    ///   - numSliceGroupsMinus1: `num_slice_groups_minus1`, 1…7.
    ///   - picSizeInMapUnits: `PicSizeInMapUnits` of the referenced SPS when it is known, for the
    ///     range checks of §7.4.2.2; `nil` skips them.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(from reader: inout BitReader, numSliceGroupsMinus1: UInt32, picSizeInMapUnits: Int?) throws(SyntaxError) {
        let mapUnitMax = picSizeInMapUnits.map { UInt32(clamping: max($0, 1) - 1) } ?? UInt32.max - 1
        let groups = Int(numSliceGroupsMinus1) + 1
        switch try reader.ue("slice_group_map_type", max: 6) {
        case 0:
            var runs: [UInt32] = []
            for _ in 0..<groups { runs.append(try reader.ue("run_length_minus1", max: mapUnitMax)) }
            self = .interleaved(runLengthMinus1: runs)
        case 1:
            self = .dispersed
        case 2:
            var topLeft: [UInt32] = []
            var bottomRight: [UInt32] = []
            for _ in 0..<(groups - 1) {
                let topLeftValue = try reader.ue("top_left", max: mapUnitMax)
                let offset = reader.bitPosition
                let bottomRightValue = try reader.ue("bottom_right", max: mapUnitMax)
                guard topLeftValue <= bottomRightValue else {
                    throw SyntaxError(field: "bottom_right", bitOffset: offset,
                                      reason: .invalid("value \(bottomRightValue) is less than top_left \(topLeftValue)"))
                }
                topLeft.append(topLeftValue)
                bottomRight.append(bottomRightValue)
            }
            self = .foreground(topLeft: topLeft, bottomRight: bottomRight)
        case let type:
            if type <= 5 {
                let direction = try reader.flag("slice_group_change_direction_flag")
                let rate = try reader.ue("slice_group_change_rate_minus1", max: mapUnitMax)
                switch type {
                case 3: self = .boxOut(changeDirectionFlag: direction, changeRateMinus1: rate)
                case 4: self = .rasterScan(changeDirectionFlag: direction, changeRateMinus1: rate)
                default: self = .wipe(changeDirectionFlag: direction, changeRateMinus1: rate)
                }
            } else {
                let offset = reader.bitPosition
                let count = try reader.ue("pic_size_in_map_units_minus1") + 1
                if let picSizeInMapUnits, Int(count) != picSizeInMapUnits {
                    throw SyntaxError(field: "pic_size_in_map_units_minus1", bitOffset: offset,
                                      reason: .invalid("value \(count - 1) differs from PicSizeInMapUnits − 1 = \(picSizeInMapUnits - 1) of the SPS"))
                }
                let bits = Self.sliceGroupIDBitCount(numSliceGroupsMinus1: numSliceGroupsMinus1)
                guard bits > 0 else {
                    throw SyntaxError(field: "slice_group_map_type", bitOffset: offset,
                                      reason: .invalid("type 6 needs num_slice_groups_minus1 above 0"))
                }
                var ids: [UInt32] = []
                ids.reserveCapacity(min(Int(count), reader.bitsRemaining / max(bits, 1) + 1))
                for _ in 0..<count {
                    ids.append(try reader.u(bits, "slice_group_id", allowed: 0...numSliceGroupsMinus1))
                }
                self = .explicit(sliceGroupIDs: ids)
            }
        }
    }

    /// Writes `slice_group_map_type` and the elements that depend on it (§7.3.2.2).
    /// - Parameters:
    ///   - writer: the RBSP writer.
    ///   - numSliceGroupsMinus1: `num_slice_groups_minus1` (sets the width of `slice_group_id`).
    public func write(to writer: inout BitWriter, numSliceGroupsMinus1: UInt32) {
        writer.ue(mapType)
        switch self {
        case let .interleaved(runs):
            for run in runs { writer.ue(run) }
        case .dispersed:
            break
        case let .foreground(topLeft, bottomRight):
            for (first, second) in zip(topLeft, bottomRight) {
                writer.ue(first)
                writer.ue(second)
            }
        case let .boxOut(direction, rate), let .rasterScan(direction, rate), let .wipe(direction, rate):
            writer.flag(direction)
            writer.ue(rate)
        case let .explicit(ids):
            writer.ue(UInt32(max(ids.count, 1) - 1))
            let bits = Self.sliceGroupIDBitCount(numSliceGroupsMinus1: numSliceGroupsMinus1)
            for id in ids { writer.u(bits, id) }
        }
    }

    /// The width of `slice_group_id`: Ceil( Log2( `num_slice_groups_minus1` + 1 ) ) bits (§7.4.2.2).
    /// - Parameter numSliceGroupsMinus1: `num_slice_groups_minus1`.
    /// - Returns: the number of bits, 0…3.
    public static func sliceGroupIDBitCount(numSliceGroupsMinus1: UInt32) -> Int {
        var bits = 0
        while (UInt32(1) << bits) < numSliceGroupsMinus1 + 1 { bits += 1 }
        return bits
    }
}
