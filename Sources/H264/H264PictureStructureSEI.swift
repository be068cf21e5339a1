import Bitstream

/// `pic_struct` of a picture timing SEI message (ITU-T H.264 §D.1.3, §D.2.3, Table D-1): how a
/// decoded picture is to be displayed — as a frame, a field, or two or three fields in a given order.
public enum H264PictureStructureSEI: UInt8, Sendable, Hashable, CaseIterable {
    /// 0: a progressive frame.
    case frame = 0
    /// 1: the top field.
    case topField = 1
    /// 2: the bottom field.
    case bottomField = 2
    /// 3: top field, bottom field, in that order.
    case topBottom = 3
    /// 4: bottom field, top field, in that order.
    case bottomTop = 4
    /// 5: top, bottom, top repeated.
    case topBottomTop = 5
    /// 6: bottom, top, bottom repeated.
    case bottomTopBottom = 6
    /// 7: frame doubling.
    case frameDoubling = 7
    /// 8: frame tripling.
    case frameTripling = 8

    /// Reads `pic_struct` from the payload of a picture timing SEI message (§D.1.3).
    ///
    /// The message codes `cpb_removal_delay` and `dpb_output_delay` first when the SPS has NAL or VCL
    /// HRD parameters, with the lengths those give; `pic_struct` follows only when the SPS's VUI sets
    /// `pic_struct_present_flag`.
    /// - Parameters:
    ///   - payload: the payload of an SEI message of type ``H264SEIPayloadType/picTiming``.
    ///   - sps: the active sequence parameter set.
    /// - Returns: the picture structure, or `nil` when the SPS does not make the message carry one.
    /// - Throws: ``SyntaxError`` when the payload ends early or `pic_struct` is a reserved value (9…15).
    public static func read(fromPictureTimingPayload payload: [UInt8], sequenceParameterSet sps: H264SequenceParameterSet) throws(SyntaxError) -> H264PictureStructureSEI? {
        guard let vui = sps.vuiParameters, vui.picStructPresentFlag else { return nil }
        var reader = BitReader(payload)
        if let hrd = vui.nalHRDParameters ?? vui.vclHRDParameters {
            _ = try reader.u(Int(hrd.cpbRemovalDelayLengthMinus1) + 1, "cpb_removal_delay")
            _ = try reader.u(Int(hrd.dpbOutputDelayLengthMinus1) + 1, "dpb_output_delay")
        }
        let offset = reader.bitPosition
        let value = try reader.u8(4, "pic_struct")
        guard let structure = H264PictureStructureSEI(rawValue: value) else {
            throw SyntaxError(field: "pic_struct", bitOffset: offset, reason: .outOfRange(value: Int64(value), allowed: 0...8))
        }
        return structure
    }

    /// The field order the structure shows: `nil` for the single-field values (1, 2), where the
    /// field pair decides.
    public var fieldOrder: H264FieldOrder? {
        switch self {
        case .frame, .frameDoubling, .frameTripling: return .progressive
        case .topBottom, .topBottomTop: return .topFieldFirst
        case .bottomTop, .bottomTopBottom: return .bottomFieldFirst
        case .topField, .bottomField: return nil
        }
    }
}
