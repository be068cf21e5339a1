// `slice_header()` of ITU-T H.264 §7.3.3, read with the legacy and the current reader: the benchmark's parse, the
// same reads in the same order as H264SliceHeader (checked against it on every slice before timing).
import Bitstream
import H264

/// What a slice header parse needs from its SPS and PPS, flattened.
struct SliceHeaderContext {
    var nalUnitType: UInt8
    var nalRefIDC: UInt8
    var separateColourPlane: Bool
    var frameNumBits: Int
    var frameMbsOnly: Bool
    var picOrderCntType: UInt32
    var pocLsbBits: Int
    var deltaPicOrderAlwaysZero: Bool
    var bottomFieldPicOrderInFramePresent: Bool
    var redundantPicCntPresent: Bool
    var numRefIdxL0Default: UInt32
    var numRefIdxL1Default: UInt32
    var weightedPred: Bool
    var weightedBipredIDC: UInt32
    var chromaArrayType: UInt32
    var entropyCodingMode: Bool
    var deblockingFilterControlPresent: Bool

    init(nalUnitHeaderByte: UInt8, sps: H264SequenceParameterSet, pps: H264PictureParameterSet) {
        nalUnitType = nalUnitHeaderByte & 0x1F
        nalRefIDC = nalUnitHeaderByte >> 5
        separateColourPlane = sps.separateColourPlaneFlag
        frameNumBits = Int(sps.log2MaxFrameNumMinus4) + 4
        frameMbsOnly = sps.frameMbsOnlyFlag
        picOrderCntType = sps.picOrderCntType
        pocLsbBits = Int(sps.log2MaxPicOrderCntLsbMinus4) + 4
        deltaPicOrderAlwaysZero = sps.deltaPicOrderAlwaysZeroFlag
        bottomFieldPicOrderInFramePresent = pps.bottomFieldPicOrderInFramePresentFlag
        redundantPicCntPresent = pps.redundantPicCntPresentFlag
        numRefIdxL0Default = pps.numRefIdxL0DefaultActiveMinus1
        numRefIdxL1Default = pps.numRefIdxL1DefaultActiveMinus1
        weightedPred = pps.weightedPredFlag
        weightedBipredIDC = pps.weightedBipredIDC
        chromaArrayType = sps.separateColourPlaneFlag ? 0 : sps.chromaFormatIDC
        entropyCodingMode = pps.entropyCodingModeFlag
        deblockingFilterControlPresent = pps.deblockingFilterControlPresentFlag
    }
}

// The parse is written out once per reader type instead of once generically: a protocol requirement
// with typed throws is called through its witness thunk, never inlined (Swift 6.3), which would hide
// exactly the difference being measured. Both copies are the same text; `loadSlices` checks that they
// agree with each other and with H264SliceHeader on every slice.

/// Reads one slice header; returns its length in bits and `slice_qp_delta` (to keep the work observable).
func walkSliceHeader(_ reader: inout BitReader, _ context: SliceHeaderContext) throws(SyntaxError) -> (bits: Int, qpDelta: Int32) {
    let full = Int32.min...Int32.max
    _ = try reader.ue("first_mb_in_slice", max: .max - 1)
    let sliceType = try reader.ue("slice_type", max: 9) % 5  // 0 P, 1 B, 2 I, 3 SP, 4 SI
    _ = try reader.ue("pic_parameter_set_id", max: 255)
    if context.separateColourPlane { _ = try reader.u(2, "colour_plane_id") }
    _ = try reader.u(context.frameNumBits, "frame_num")
    var fieldPic = false
    if !context.frameMbsOnly {
        fieldPic = try reader.flag("field_pic_flag")
        if fieldPic { _ = try reader.flag("bottom_field_flag") }
    }
    let idr = context.nalUnitType == 5
    if idr { _ = try reader.ue("idr_pic_id", max: 65535) }
    if context.picOrderCntType == 0 {
        _ = try reader.u(context.pocLsbBits, "pic_order_cnt_lsb")
        if context.bottomFieldPicOrderInFramePresent && !fieldPic { _ = try reader.se("delta_pic_order_cnt_bottom", range: full) }
    }
    if context.picOrderCntType == 1 && !context.deltaPicOrderAlwaysZero {
        _ = try reader.se("delta_pic_order_cnt", range: full)
        if context.bottomFieldPicOrderInFramePresent && !fieldPic { _ = try reader.se("delta_pic_order_cnt", range: full) }
    }
    if context.redundantPicCntPresent { _ = try reader.ue("redundant_pic_cnt", max: 127) }
    if sliceType == 1 { _ = try reader.flag("direct_spatial_mv_pred_flag") }
    var l0 = context.numRefIdxL0Default
    var l1 = context.numRefIdxL1Default
    if sliceType == 0 || sliceType == 1 || sliceType == 3 {
        if try reader.flag("num_ref_idx_active_override_flag") {
            l0 = try reader.ue("num_ref_idx_l0_active_minus1", max: 31)
            if sliceType == 1 { l1 = try reader.ue("num_ref_idx_l1_active_minus1", max: 31) }
        }
    }
    if sliceType != 2 && sliceType != 4 {
        for _ in 0..<(sliceType == 1 ? 2 : 1) {
            guard try reader.flag("ref_pic_list_modification_flag") else { continue }
            while true {
                let idc = try reader.ue("modification_of_pic_nums_idc", max: 5)
                if idc == 3 { break }
                _ = try reader.ue("abs_diff_pic_num_minus1", max: .max - 1)
            }
        }
    }
    if (context.weightedPred && (sliceType == 0 || sliceType == 3)) || (context.weightedBipredIDC == 1 && sliceType == 1) {
        _ = try reader.ue("luma_log2_weight_denom", max: 7)
        if context.chromaArrayType != 0 { _ = try reader.ue("chroma_log2_weight_denom", max: 7) }
        for list in 0..<(sliceType == 1 ? 2 : 1) {
            for _ in 0...(list == 0 ? l0 : l1) {
                if try reader.flag("luma_weight_flag") {
                    _ = try reader.se("luma_weight", range: -128...127)
                    _ = try reader.se("luma_offset", range: -128...127)
                }
                if context.chromaArrayType != 0, try reader.flag("chroma_weight_flag") {
                    for _ in 0..<4 { _ = try reader.se("chroma_weight_or_offset", range: -512...511) }
                }
            }
        }
    }
    if context.nalRefIDC != 0 {
        if idr {
            _ = try reader.flag("no_output_of_prior_pics_flag")
            _ = try reader.flag("long_term_reference_flag")
        } else if try reader.flag("adaptive_ref_pic_marking_mode_flag") {
            while true {
                let operation = try reader.ue("memory_management_control_operation", max: 6)
                if operation == 0 { break }
                if operation == 1 || operation == 3 { _ = try reader.ue("difference_of_pic_nums_minus1", max: .max - 1) }
                if operation == 2 { _ = try reader.ue("long_term_pic_num", max: .max - 1) }
                if operation == 3 || operation == 6 { _ = try reader.ue("long_term_frame_idx", max: .max - 1) }
                if operation == 4 { _ = try reader.ue("max_long_term_frame_idx_plus1", max: .max - 1) }
            }
        }
    }
    if context.entropyCodingMode && sliceType != 2 && sliceType != 4 { _ = try reader.ue("cabac_init_idc", max: 2) }
    let qpDelta = try reader.se("slice_qp_delta", range: -87...77)
    if sliceType == 3 || sliceType == 4 {
        if sliceType == 3 { _ = try reader.flag("sp_for_switch_flag") }
        _ = try reader.se("slice_qs_delta", range: -51...51)
    }
    if context.deblockingFilterControlPresent {
        if try reader.ue("disable_deblocking_filter_idc", max: 2) != 1 {
            _ = try reader.se("slice_alpha_c0_offset_div2", range: -6...6)
            _ = try reader.se("slice_beta_offset_div2", range: -6...6)
        }
    }
    return (reader.bitPosition, qpDelta)
}

/// The same parse with the legacy reader (the text is identical to the one above).
/// Reads one slice header; returns its length in bits and `slice_qp_delta` (to keep the work observable).
func walkSliceHeader(_ reader: inout LegacyBitReader, _ context: SliceHeaderContext) throws(SyntaxError) -> (bits: Int, qpDelta: Int32) {
    let full = Int32.min...Int32.max
    _ = try reader.ue("first_mb_in_slice", max: .max - 1)
    let sliceType = try reader.ue("slice_type", max: 9) % 5  // 0 P, 1 B, 2 I, 3 SP, 4 SI
    _ = try reader.ue("pic_parameter_set_id", max: 255)
    if context.separateColourPlane { _ = try reader.u(2, "colour_plane_id") }
    _ = try reader.u(context.frameNumBits, "frame_num")
    var fieldPic = false
    if !context.frameMbsOnly {
        fieldPic = try reader.flag("field_pic_flag")
        if fieldPic { _ = try reader.flag("bottom_field_flag") }
    }
    let idr = context.nalUnitType == 5
    if idr { _ = try reader.ue("idr_pic_id", max: 65535) }
    if context.picOrderCntType == 0 {
        _ = try reader.u(context.pocLsbBits, "pic_order_cnt_lsb")
        if context.bottomFieldPicOrderInFramePresent && !fieldPic { _ = try reader.se("delta_pic_order_cnt_bottom", range: full) }
    }
    if context.picOrderCntType == 1 && !context.deltaPicOrderAlwaysZero {
        _ = try reader.se("delta_pic_order_cnt", range: full)
        if context.bottomFieldPicOrderInFramePresent && !fieldPic { _ = try reader.se("delta_pic_order_cnt", range: full) }
    }
    if context.redundantPicCntPresent { _ = try reader.ue("redundant_pic_cnt", max: 127) }
    if sliceType == 1 { _ = try reader.flag("direct_spatial_mv_pred_flag") }
    var l0 = context.numRefIdxL0Default
    var l1 = context.numRefIdxL1Default
    if sliceType == 0 || sliceType == 1 || sliceType == 3 {
        if try reader.flag("num_ref_idx_active_override_flag") {
            l0 = try reader.ue("num_ref_idx_l0_active_minus1", max: 31)
            if sliceType == 1 { l1 = try reader.ue("num_ref_idx_l1_active_minus1", max: 31) }
        }
    }
    if sliceType != 2 && sliceType != 4 {
        for _ in 0..<(sliceType == 1 ? 2 : 1) {
            guard try reader.flag("ref_pic_list_modification_flag") else { continue }
            while true {
                let idc = try reader.ue("modification_of_pic_nums_idc", max: 5)
                if idc == 3 { break }
                _ = try reader.ue("abs_diff_pic_num_minus1", max: .max - 1)
            }
        }
    }
    if (context.weightedPred && (sliceType == 0 || sliceType == 3)) || (context.weightedBipredIDC == 1 && sliceType == 1) {
        _ = try reader.ue("luma_log2_weight_denom", max: 7)
        if context.chromaArrayType != 0 { _ = try reader.ue("chroma_log2_weight_denom", max: 7) }
        for list in 0..<(sliceType == 1 ? 2 : 1) {
            for _ in 0...(list == 0 ? l0 : l1) {
                if try reader.flag("luma_weight_flag") {
                    _ = try reader.se("luma_weight", range: -128...127)
                    _ = try reader.se("luma_offset", range: -128...127)
                }
                if context.chromaArrayType != 0, try reader.flag("chroma_weight_flag") {
                    for _ in 0..<4 { _ = try reader.se("chroma_weight_or_offset", range: -512...511) }
                }
            }
        }
    }
    if context.nalRefIDC != 0 {
        if idr {
            _ = try reader.flag("no_output_of_prior_pics_flag")
            _ = try reader.flag("long_term_reference_flag")
        } else if try reader.flag("adaptive_ref_pic_marking_mode_flag") {
            while true {
                let operation = try reader.ue("memory_management_control_operation", max: 6)
                if operation == 0 { break }
                if operation == 1 || operation == 3 { _ = try reader.ue("difference_of_pic_nums_minus1", max: .max - 1) }
                if operation == 2 { _ = try reader.ue("long_term_pic_num", max: .max - 1) }
                if operation == 3 || operation == 6 { _ = try reader.ue("long_term_frame_idx", max: .max - 1) }
                if operation == 4 { _ = try reader.ue("max_long_term_frame_idx_plus1", max: .max - 1) }
            }
        }
    }
    if context.entropyCodingMode && sliceType != 2 && sliceType != 4 { _ = try reader.ue("cabac_init_idc", max: 2) }
    let qpDelta = try reader.se("slice_qp_delta", range: -87...77)
    if sliceType == 3 || sliceType == 4 {
        if sliceType == 3 { _ = try reader.flag("sp_for_switch_flag") }
        _ = try reader.se("slice_qs_delta", range: -51...51)
    }
    if context.deblockingFilterControlPresent {
        if try reader.ue("disable_deblocking_filter_idc", max: 2) != 1 {
            _ = try reader.se("slice_alpha_c0_offset_div2", range: -6...6)
            _ = try reader.se("slice_beta_offset_div2", range: -6...6)
        }
    }
    return (reader.bitPosition, qpDelta)
}
