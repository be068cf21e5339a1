import Bitstream

/// A sequence parameter set: `seq_parameter_set_rbsp( )` of ITU-T H.264 §7.3.2.1.1, complete,
/// with its VUI (Annex E.1.1).
///
/// Every syntax element is kept as coded (the scaling lists as their `delta_scale` values, the
/// constraint byte with its reserved bits), so ``rbsp()`` and ``nalUnit()`` write back the bytes the
/// parse read. Derived values (``width``, ``height``, ``frameRate``, ``profileName`` …) are computed
/// properties. Elements that are absent because of the profile keep the value the specification
/// infers (for example ``chromaFormatIDC`` is 1 for the Baseline profile).
///
/// After the VUI only `rbsp_trailing_bits( )` may follow; anything else is reported as an error
/// naming `rbsp_trailing_bits` (zero bytes after the trailing bits are accepted and dropped).
public struct H264SequenceParameterSet: Sendable, Hashable {
    /// The frame cropping rectangle (`frame_cropping_flag` = 1), in crop units (§7.4.2.1.1).
    public struct FrameCropping: Sendable, Hashable {
        /// `frame_crop_left_offset`.
        public var left: UInt32
        /// `frame_crop_right_offset`.
        public var right: UInt32
        /// `frame_crop_top_offset`.
        public var top: UInt32
        /// `frame_crop_bottom_offset`.
        public var bottom: UInt32

        /// Creates a cropping rectangle.
        /// - Parameters:
        ///   - left: `frame_crop_left_offset`.
        ///   - right: `frame_crop_right_offset`.
        ///   - top: `frame_crop_top_offset`.
        ///   - bottom: `frame_crop_bottom_offset`.
        public init(left: UInt32 = 0, right: UInt32 = 0, top: UInt32 = 0, bottom: UInt32 = 0) {
            self.left = left
            self.right = right
            self.top = top
            self.bottom = bottom
        }
    }

    /// The `profile_idc` values whose SPS carries `chroma_format_idc`, bit depths and scaling lists.
    public static let profilesWithChromaFormat: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// The `level_idc` values Table A-1 defines (9 is level 1b for the High profiles).
    public static let definedLevels: Set<UInt8> = [9, 10, 11, 12, 13, 20, 21, 22, 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61, 62]

    /// The largest picture width and height this parser accepts, in luma samples.
    public static let maximumDimension = 16384

    /// `nal_ref_idc` of the NAL unit header (written by ``nalUnit()``).
    public var nalRefIDC: UInt8
    /// `profile_idc`.
    public var profileIDC: UInt8
    /// `constraint_set0_flag` … `constraint_set5_flag` and `reserved_zero_2bits`.
    public var constraintFlags: H264ConstraintFlags
    /// `level_idc`: ten times the level number (9 for level 1b in the High profiles).
    public var levelIDC: UInt8
    /// `seq_parameter_set_id`, 0…31.
    public var id: UInt32
    /// `chroma_format_idc`, 0…3 (0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4); 1 when not coded.
    public var chromaFormatIDC: UInt32
    /// `separate_colour_plane_flag`: the three colour planes of 4:4:4 are coded separately.
    public var separateColourPlaneFlag: Bool
    /// `bit_depth_luma_minus8`, 0…6.
    public var bitDepthLumaMinus8: UInt32
    /// `bit_depth_chroma_minus8`, 0…6.
    public var bitDepthChromaMinus8: UInt32
    /// `qpprime_y_zero_transform_bypass_flag`.
    public var qpprimeYZeroTransformBypassFlag: Bool
    /// The sequence scaling matrix, `nil` when `seq_scaling_matrix_present_flag` is 0.
    public var scalingMatrix: H264ScalingMatrix?
    /// `log2_max_frame_num_minus4`, 0…12.
    public var log2MaxFrameNumMinus4: UInt32
    /// `pic_order_cnt_type`, 0…2.
    public var picOrderCntType: UInt32
    /// `log2_max_pic_order_cnt_lsb_minus4`, 0…12 (picture order count type 0).
    public var log2MaxPicOrderCntLsbMinus4: UInt32
    /// `delta_pic_order_always_zero_flag` (type 1).
    public var deltaPicOrderAlwaysZeroFlag: Bool
    /// `offset_for_non_ref_pic` (type 1).
    public var offsetForNonRefPic: Int32
    /// `offset_for_top_to_bottom_field` (type 1).
    public var offsetForTopToBottomField: Int32
    /// `offset_for_ref_frame[ i ]`, 0…255 entries (`num_ref_frames_in_pic_order_cnt_cycle`) (type 1).
    public var offsetForRefFrame: [Int32]
    /// `max_num_ref_frames`, 0…16.
    public var maxNumRefFrames: UInt32
    /// `gaps_in_frame_num_value_allowed_flag`.
    public var gapsInFrameNumValueAllowedFlag: Bool
    /// `pic_width_in_mbs_minus1`.
    public var picWidthInMbsMinus1: UInt32
    /// `pic_height_in_map_units_minus1`.
    public var picHeightInMapUnitsMinus1: UInt32
    /// `frame_mbs_only_flag`: every picture is a frame of frame macroblocks.
    public var frameMbsOnlyFlag: Bool
    /// `mb_adaptive_frame_field_flag` (MBAFF); coded only when ``frameMbsOnlyFlag`` is false.
    public var mbAdaptiveFrameFieldFlag: Bool
    /// `direct_8x8_inference_flag`.
    public var direct8x8InferenceFlag: Bool
    /// The cropping rectangle, `nil` when `frame_cropping_flag` is 0.
    public var frameCropping: FrameCropping?
    /// The VUI, `nil` when `vui_parameters_present_flag` is 0.
    public var vuiParameters: H264VUIParameters?

    /// Creates an SPS with the given picture size and simple defaults for everything else (4:2:0,
    /// 8 bits, `pic_order_cnt_type` 0 with a 16-bit lsb, one reference frame, frames only, no
    /// cropping, no VUI); set the properties to change them.
    /// - Parameters:
    ///   - profileIDC: `profile_idc` (66 Baseline, 77 Main, 100 High …).
    ///   - constraintFlags: the constraint flags.
    ///   - levelIDC: `level_idc`.
    ///   - id: `seq_parameter_set_id`, 0…31.
    ///   - picWidthInMbsMinus1: the width in macroblocks minus 1.
    ///   - picHeightInMapUnitsMinus1: the height in map units minus 1.
    public init(profileIDC: UInt8, constraintFlags: H264ConstraintFlags = [], levelIDC: UInt8, id: UInt32 = 0,
                picWidthInMbsMinus1: UInt32, picHeightInMapUnitsMinus1: UInt32) {
        nalRefIDC = 3
        self.profileIDC = profileIDC
        self.constraintFlags = constraintFlags
        self.levelIDC = levelIDC
        self.id = id
        chromaFormatIDC = 1
        separateColourPlaneFlag = false
        bitDepthLumaMinus8 = 0
        bitDepthChromaMinus8 = 0
        qpprimeYZeroTransformBypassFlag = false
        scalingMatrix = nil
        log2MaxFrameNumMinus4 = 0
        picOrderCntType = 0
        log2MaxPicOrderCntLsbMinus4 = 12
        deltaPicOrderAlwaysZeroFlag = false
        offsetForNonRefPic = 0
        offsetForTopToBottomField = 0
        offsetForRefFrame = []
        maxNumRefFrames = 1
        gapsInFrameNumValueAllowedFlag = false
        self.picWidthInMbsMinus1 = picWidthInMbsMinus1
        self.picHeightInMapUnitsMinus1 = picHeightInMapUnitsMinus1
        frameMbsOnlyFlag = true
        mbAdaptiveFrameFieldFlag = false
        direct8x8InferenceFlag = true
        frameCropping = nil
        vuiParameters = nil
    }

    /// Parses an SPS NAL unit (ITU-T H.264 §7.3.2.1.1 `seq_parameter_set_rbsp( )`).
    /// - Parameter nalUnit: the NAL unit (header byte and EBSP), without start code.
    /// - Throws: ``H264Error``: a wrong NAL unit type, a bad header, a missing emulation-prevention
    ///   byte, or ``H264Error/syntax(_:nalUnitType:)`` naming the field that is cut off or out of range.
    public init<Bytes: Collection>(nalUnit: Bytes) throws(H264Error) where Bytes.Element == UInt8 {
        let (header, rbsp) = try H264RBSP.split(nalUnit, expecting: .sequenceParameterSet)
        try self.init(rbsp: rbsp, nalRefIDC: header.nalRefIDC)
    }

    /// Parses an SPS RBSP (ITU-T H.264 §7.3.2.1.1 `seq_parameter_set_rbsp( )`): the data and the
    /// trailing bits.
    /// - Parameters:
    ///   - rbsp: the RBSP: the NAL unit after its header byte, emulation prevention removed.
    ///   - nalRefIDC: `nal_ref_idc` of the NAL unit, kept for ``nalUnit()``.
    /// - Throws: ``H264Error/syntax(_:nalUnitType:)`` naming the field that is cut off or out of range.
    public init(rbsp: [UInt8], nalRefIDC: UInt8 = 3) throws(H264Error) {
        self = try H264RBSP.parse(.sequenceParameterSet) { () throws(SyntaxError) -> H264SequenceParameterSet in
            var reader = BitReader(rbsp)
            var sps = try H264SequenceParameterSet(from: &reader)
            try reader.finishRBSP()
            sps.nalRefIDC = nalRefIDC & 3
            return sps
        }
    }

    /// Reads `seq_parameter_set_data( )` (ITU-T H.264 §7.3.2.1.1, the part shared with the subset SPS)
    /// and checks every element against the range §7.4.2.1.1 allows.
    /// - Parameter reader: the RBSP reader, at `profile_idc`.
    /// - Throws: ``SyntaxError`` naming the field that is cut off, out of range or inconsistent.
    public init(from reader: inout BitReader) throws(SyntaxError) {
        nalRefIDC = 3
        profileIDC = try reader.u8(8, "profile_idc")
        constraintFlags = H264ConstraintFlags(rawValue: try reader.u8(8, "constraint_set_flags"))
        let levelOffset = reader.bitPosition
        levelIDC = try reader.u8(8, "level_idc")
        guard Self.definedLevels.contains(levelIDC) else {
            throw SyntaxError(field: "level_idc", bitOffset: levelOffset,
                              reason: .invalid("value \(levelIDC) is not a defined level"))
        }
        id = try reader.ue("seq_parameter_set_id", max: 31)

        chromaFormatIDC = 1
        separateColourPlaneFlag = false
        bitDepthLumaMinus8 = 0
        bitDepthChromaMinus8 = 0
        qpprimeYZeroTransformBypassFlag = false
        scalingMatrix = nil
        if Self.profilesWithChromaFormat.contains(profileIDC) {
            chromaFormatIDC = try reader.ue("chroma_format_idc", max: 3)
            if chromaFormatIDC == 3 {
                separateColourPlaneFlag = try reader.flag("separate_colour_plane_flag")
            }
            bitDepthLumaMinus8 = try reader.ue("bit_depth_luma_minus8", max: 6)
            bitDepthChromaMinus8 = try reader.ue("bit_depth_chroma_minus8", max: 6)
            qpprimeYZeroTransformBypassFlag = try reader.flag("qpprime_y_zero_transform_bypass_flag")
            if try reader.flag("seq_scaling_matrix_present_flag") {
                scalingMatrix = try H264ScalingMatrix(from: &reader, count: chromaFormatIDC != 3 ? 8 : 12)
            }
        }

        log2MaxFrameNumMinus4 = try reader.ue("log2_max_frame_num_minus4", max: 12)
        picOrderCntType = try reader.ue("pic_order_cnt_type", max: 2)
        log2MaxPicOrderCntLsbMinus4 = 0
        deltaPicOrderAlwaysZeroFlag = false
        offsetForNonRefPic = 0
        offsetForTopToBottomField = 0
        offsetForRefFrame = []
        if picOrderCntType == 0 {
            log2MaxPicOrderCntLsbMinus4 = try reader.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12)
        } else if picOrderCntType == 1 {
            let range = (Int32.min + 1)...Int32.max
            deltaPicOrderAlwaysZeroFlag = try reader.flag("delta_pic_order_always_zero_flag")
            offsetForNonRefPic = try reader.se("offset_for_non_ref_pic", range: range)
            offsetForTopToBottomField = try reader.se("offset_for_top_to_bottom_field", range: range)
            let count = try reader.ue("num_ref_frames_in_pic_order_cnt_cycle", max: 255)
            offsetForRefFrame.reserveCapacity(Int(count))
            for _ in 0..<count {
                offsetForRefFrame.append(try reader.se("offset_for_ref_frame", range: range))
            }
        }
        maxNumRefFrames = try reader.ue("max_num_ref_frames", max: 16)
        gapsInFrameNumValueAllowedFlag = try reader.flag("gaps_in_frame_num_value_allowed_flag")
        let maximumMbs = UInt32(Self.maximumDimension / 16)
        picWidthInMbsMinus1 = try reader.ue("pic_width_in_mbs_minus1", max: maximumMbs - 1)
        let heightOffset = reader.bitPosition
        picHeightInMapUnitsMinus1 = try reader.ue("pic_height_in_map_units_minus1", max: maximumMbs - 1)
        frameMbsOnlyFlag = try reader.flag("frame_mbs_only_flag")
        mbAdaptiveFrameFieldFlag = false
        if !frameMbsOnlyFlag {
            guard picHeightInMapUnitsMinus1 < maximumMbs / 2 else {
                throw SyntaxError(field: "pic_height_in_map_units_minus1", bitOffset: heightOffset,
                                  reason: .invalid("value \(picHeightInMapUnitsMinus1) gives a frame height above \(Self.maximumDimension) samples"))
            }
            mbAdaptiveFrameFieldFlag = try reader.flag("mb_adaptive_frame_field_flag")
        }
        let inferenceOffset = reader.bitPosition
        direct8x8InferenceFlag = try reader.flag("direct_8x8_inference_flag")
        if !frameMbsOnlyFlag && !direct8x8InferenceFlag {
            throw SyntaxError(field: "direct_8x8_inference_flag", bitOffset: inferenceOffset,
                              reason: .invalid("must be 1 when frame_mbs_only_flag is 0"))
        }
        frameCropping = nil
        vuiParameters = nil
        if try reader.flag("frame_cropping_flag") {
            let left = try reader.ue("frame_crop_left_offset")
            let rightOffset = reader.bitPosition
            let right = try reader.ue("frame_crop_right_offset")
            let top = try reader.ue("frame_crop_top_offset")
            let bottomOffset = reader.bitPosition
            let bottom = try reader.ue("frame_crop_bottom_offset")
            frameCropping = FrameCropping(left: left, right: right, top: top, bottom: bottom)
            let widthUnits = UInt64(codedWidth) / UInt64(cropUnitX)
            let heightUnits = UInt64(codedHeight) / UInt64(cropUnitY)
            guard UInt64(left) + UInt64(right) < widthUnits else {
                throw SyntaxError(field: "frame_crop_right_offset", bitOffset: rightOffset,
                                  reason: .invalid("crop window left \(left) + right \(right) (units of \(cropUnitX)) leaves no column of the \(codedWidth)-sample picture"))
            }
            guard UInt64(top) + UInt64(bottom) < heightUnits else {
                throw SyntaxError(field: "frame_crop_bottom_offset", bitOffset: bottomOffset,
                                  reason: .invalid("crop window top \(top) + bottom \(bottom) (units of \(cropUnitY)) leaves no row of the \(codedHeight)-sample picture"))
            }
        }
        if try reader.flag("vui_parameters_present_flag") {
            vuiParameters = try H264VUIParameters(from: &reader)
        }
    }
}
