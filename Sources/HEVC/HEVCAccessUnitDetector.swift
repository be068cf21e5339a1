/// Finds access-unit boundaries in a sequence of NAL units in decoding order (ITU-T H.265 §7.4.2.4.4).
///
/// After the last VCL NAL unit of an access unit, the first of these starts the next one: an
/// access unit delimiter, VPS, SPS, PPS, prefix SEI, a NAL unit of type 41…44 or 48…55, or the
/// first VCL NAL unit of a picture (`first_slice_segment_in_pic_flag` = 1). Only NAL units with
/// `nuh_layer_id` 0 start access units, as in the multi-layer text of the specification.
/// End of sequence, end of bitstream, filler data and suffix SEI stay in the current access unit.
public struct HEVCAccessUnitDetector: Sendable, Hashable {
    /// Whether any NAL unit has been seen.
    private var hasStarted = false
    /// Whether the current access unit already holds a VCL NAL unit.
    private var currentHasVCL = false

    /// Creates a detector for the start of a stream.
    public init() {}

    /// Whether a NAL unit type (with `nuh_layer_id` 0) starts a new access unit when it follows the
    /// last VCL NAL unit of the current one.
    /// - Parameter type: the NAL unit type.
    /// - Returns: `true` for AUD, VPS, SPS, PPS, prefix SEI, 41…44 and 48…55.
    public static func startsAccessUnitAfterVCL(_ type: HEVCNALUnitType) -> Bool {
        switch type.rawValue {
        case 32...35, 39, 41...44, 48...55: return true
        default: return false
        }
    }

    /// Looks at the next NAL unit in decoding order.
    /// - Parameter nalUnit: the NAL unit, without start code.
    /// - Returns: whether it is the first NAL unit of a new access unit.
    /// - Throws: ``HEVCError`` for a bad NAL unit header, or a syntax error naming
    ///   `first_slice_segment_in_pic_flag` when a VCL NAL unit has no payload.
    public mutating func startsNewAccessUnit<Bytes: Collection>(_ nalUnit: Bytes) throws(HEVCError) -> Bool where Bytes.Element == UInt8 {
        let header = try HEVCNALUnitHeader(parsing: nalUnit)
        var firstSliceSegment = false
        if header.type.isVCL {
            guard let byte = nalUnit.dropFirst(HEVCNALUnitHeader.byteCount).first else {
                throw .syntax(.init(field: "first_slice_segment_in_pic_flag", bitOffset: 0, reason: .endOfData),
                              nalUnitType: header.type)
            }
            firstSliceSegment = byte & 0x80 != 0
        }
        return startsNewAccessUnit(header: header, firstSliceSegmentInPicFlag: firstSliceSegment)
    }

    /// Looks at the next NAL unit in decoding order when its header is already parsed.
    /// - Parameters:
    ///   - header: the NAL unit header.
    ///   - firstSliceSegmentInPicFlag: for a VCL NAL unit, its `first_slice_segment_in_pic_flag`.
    /// - Returns: whether it is the first NAL unit of a new access unit.
    public mutating func startsNewAccessUnit(header: HEVCNALUnitHeader, firstSliceSegmentInPicFlag: Bool) -> Bool {
        defer { hasStarted = true }
        guard hasStarted else {
            currentHasVCL = header.type.isVCL
            return true
        }
        let baseLayer = header.layerID == 0
        if header.type.isVCL {
            let starts = baseLayer && firstSliceSegmentInPicFlag && currentHasVCL
            currentHasVCL = true
            return starts
        }
        if baseLayer && currentHasVCL && Self.startsAccessUnitAfterVCL(header.type) {
            currentHasVCL = false
            return true
        }
        return false
    }
}
