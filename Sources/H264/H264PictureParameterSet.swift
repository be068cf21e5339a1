import Bitstream

/// A picture parameter set: `pic_parameter_set_rbsp( )` of ITU-T H.264 §7.3.2.2, complete
/// (slice groups, weighted prediction, deblocking control and the `more_rbsp_data( )` part added by
/// the High profiles).
///
/// Every syntax element is kept as coded, so ``rbsp()`` and ``nalUnit()`` write back the bytes the
/// parse read.
///
/// Parsing looks up the referenced SPS: its `chroma_format_idc` decides how many 8x8 scaling lists
/// follow (so an unknown SPS is an error only when the PPS carries 8x8 scaling lists), and when it is
/// known its picture size and bit depth tighten the range checks of §7.4.2.2.
public struct H264PictureParameterSet: Sendable, Hashable {
    /// The elements after `redundant_pic_cnt_present_flag`, present when `more_rbsp_data( )` is true
    /// (the High profiles' extension).
    public struct FidelityRangeExtension: Sendable, Hashable {
        /// `transform_8x8_mode_flag`: macroblocks may use the 8x8 transform.
        public var transform8x8ModeFlag: Bool
        /// The picture scaling matrix, `nil` when `pic_scaling_matrix_present_flag` is 0.
        public var scalingMatrix: H264ScalingMatrix?
        /// `second_chroma_qp_index_offset`, −12…12: the QP offset of the Cr component.
        public var secondChromaQPIndexOffset: Int32

        /// Creates the extension.
        /// - Parameters:
        ///   - transform8x8ModeFlag: `transform_8x8_mode_flag`.
        ///   - scalingMatrix: the picture scaling matrix, or `nil`.
        ///   - secondChromaQPIndexOffset: `second_chroma_qp_index_offset`.
        public init(transform8x8ModeFlag: Bool, scalingMatrix: H264ScalingMatrix? = nil, secondChromaQPIndexOffset: Int32) {
            self.transform8x8ModeFlag = transform8x8ModeFlag
            self.scalingMatrix = scalingMatrix
            self.secondChromaQPIndexOffset = secondChromaQPIndexOffset
        }
    }

    /// `nal_ref_idc` of the NAL unit header (written by ``nalUnit()``).
    public var nalRefIDC: UInt8
    /// `pic_parameter_set_id`, 0…255.
    public var id: UInt32
    /// `seq_parameter_set_id`, 0…31: the SPS this PPS refers to.
    public var seqParameterSetID: UInt32
    /// `entropy_coding_mode_flag`: CABAC when true, CAVLC when false.
    public var entropyCodingModeFlag: Bool
    /// `bottom_field_pic_order_in_frame_present_flag`: slice headers of frames carry
    /// `delta_pic_order_cnt_bottom` / `delta_pic_order_cnt[ 1 ]`.
    public var bottomFieldPicOrderInFramePresentFlag: Bool
    /// `num_slice_groups_minus1`, 0…7.
    public var numSliceGroupsMinus1: UInt32
    /// The slice group map, present when ``numSliceGroupsMinus1`` is above 0.
    public var sliceGroupMap: H264SliceGroupMap?
    /// `num_ref_idx_l0_default_active_minus1`, 0…31.
    public var numRefIdxL0DefaultActiveMinus1: UInt32
    /// `num_ref_idx_l1_default_active_minus1`, 0…31.
    public var numRefIdxL1DefaultActiveMinus1: UInt32
    /// `weighted_pred_flag`: explicit weighted prediction in P and SP slices.
    public var weightedPredFlag: Bool
    /// `weighted_bipred_idc`, 0…2: 0 default, 1 explicit, 2 implicit weighted prediction in B slices.
    public var weightedBipredIDC: UInt32
    /// `pic_init_qp_minus26`, −(26 + `QpBdOffsetY`)…25.
    public var picInitQPMinus26: Int32
    /// `pic_init_qs_minus26`, −26…25.
    public var picInitQSMinus26: Int32
    /// `chroma_qp_index_offset`, −12…12.
    public var chromaQPIndexOffset: Int32
    /// `deblocking_filter_control_present_flag`: slice headers carry deblocking filter controls.
    public var deblockingFilterControlPresentFlag: Bool
    /// `constrained_intra_pred_flag`.
    public var constrainedIntraPredFlag: Bool
    /// `redundant_pic_cnt_present_flag`: slice headers carry `redundant_pic_cnt`.
    public var redundantPicCntPresentFlag: Bool
    /// The `more_rbsp_data( )` part, `nil` when the PPS ends after ``redundantPicCntPresentFlag``.
    public var fidelityRangeExtension: FidelityRangeExtension?

    /// Creates a PPS with simple defaults (CAVLC, one slice group, one reference, no weighted
    /// prediction, QP 26); set the properties to change them.
    /// - Parameters:
    ///   - id: `pic_parameter_set_id`, 0…255.
    ///   - seqParameterSetID: `seq_parameter_set_id`, 0…31.
    public init(id: UInt32 = 0, seqParameterSetID: UInt32 = 0) {
        nalRefIDC = 3
        self.id = id
        self.seqParameterSetID = seqParameterSetID
        entropyCodingModeFlag = false
        bottomFieldPicOrderInFramePresentFlag = false
        numSliceGroupsMinus1 = 0
        sliceGroupMap = nil
        numRefIdxL0DefaultActiveMinus1 = 0
        numRefIdxL1DefaultActiveMinus1 = 0
        weightedPredFlag = false
        weightedBipredIDC = 0
        picInitQPMinus26 = 0
        picInitQSMinus26 = 0
        chromaQPIndexOffset = 0
        deblockingFilterControlPresentFlag = true
        constrainedIntraPredFlag = false
        redundantPicCntPresentFlag = false
        fidelityRangeExtension = nil
    }

    /// `transform_8x8_mode_flag`, false when the extension is absent.
    public var transform8x8ModeFlag: Bool { fidelityRangeExtension?.transform8x8ModeFlag ?? false }

    /// `second_chroma_qp_index_offset`, inferred equal to ``chromaQPIndexOffset`` when absent (§7.4.2.2).
    public var secondChromaQPIndexOffset: Int32 { fidelityRangeExtension?.secondChromaQPIndexOffset ?? chromaQPIndexOffset }

    /// Parses a PPS NAL unit (ITU-T H.264 §7.3.2.2 `pic_parameter_set_rbsp( )`).
    /// - Parameters:
    ///   - nalUnit: the NAL unit (header byte and EBSP), without start code.
    ///   - sequenceParameterSet: looks up an SPS by `seq_parameter_set_id`.
    /// - Throws: ``H264Error``: a wrong NAL unit type, a bad header, a missing emulation-prevention
    ///   byte, ``H264Error/unknownSequenceParameterSet(id:referencedBy:)`` when the SPS is needed and
    ///   missing, or ``H264Error/syntax(_:nalUnitType:)`` naming the field that is cut off or out of range.
    public init<Bytes: Collection>(
        nalUnit: Bytes, sequenceParameterSet: (_ id: UInt32) -> H264SequenceParameterSet?
    ) throws(H264Error) where Bytes.Element == UInt8 {
        let (header, rbsp) = try H264RBSP.split(nalUnit, expecting: .pictureParameterSet)
        try self.init(rbsp: rbsp, nalRefIDC: header.nalRefIDC, sequenceParameterSet: sequenceParameterSet)
    }

    /// Parses a PPS NAL unit, looking the SPS up in stored parameter sets.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (header byte and EBSP), without start code.
    ///   - parameterSets: the parameter sets received so far.
    /// - Throws: ``H264Error`` as ``init(nalUnit:sequenceParameterSet:)``.
    public init<Bytes: Collection>(nalUnit: Bytes, parameterSets: H264ParameterSets) throws(H264Error) where Bytes.Element == UInt8 {
        try self.init(nalUnit: nalUnit, sequenceParameterSet: { parameterSets.sequenceParameterSet(id: $0) })
    }

    /// Parses a PPS RBSP (ITU-T H.264 §7.3.2.2 `pic_parameter_set_rbsp( )`).
    /// - Parameters:
    ///   - rbsp: the RBSP: the NAL unit after its header byte, emulation prevention removed.
    ///   - nalRefIDC: `nal_ref_idc` of the NAL unit, kept for ``nalUnit()``.
    ///   - sequenceParameterSet: looks up an SPS by `seq_parameter_set_id`.
    /// - Throws: ``H264Error`` as ``init(nalUnit:sequenceParameterSet:)``.
    public init(rbsp: [UInt8], nalRefIDC: UInt8 = 3,
                sequenceParameterSet: (_ id: UInt32) -> H264SequenceParameterSet?) throws(H264Error) {
        var reader = BitReader(rbsp)
        var pps = H264PictureParameterSet()
        pps.nalRefIDC = nalRefIDC & 3
        var sps: H264SequenceParameterSet?
        try H264RBSP.parse(.pictureParameterSet) { () throws(SyntaxError) in
            pps.id = try reader.ue("pic_parameter_set_id", max: 255)
            pps.seqParameterSetID = try reader.ue("seq_parameter_set_id", max: 31)
            sps = sequenceParameterSet(pps.seqParameterSetID)
            try pps.readCore(from: &reader, sequenceParameterSet: sps)
        }
        guard try H264RBSP.parse(.pictureParameterSet, { () throws(SyntaxError) -> Bool in reader.hasMoreRBSPData() }) else {
            try H264RBSP.parse(.pictureParameterSet) { () throws(SyntaxError) in try reader.finishRBSP() }
            self = pps
            return
        }
        var transform8x8 = false
        var hasScalingMatrix = false
        try H264RBSP.parse(.pictureParameterSet) { () throws(SyntaxError) in
            transform8x8 = try reader.flag("transform_8x8_mode_flag")
            hasScalingMatrix = try reader.flag("pic_scaling_matrix_present_flag")
        }
        var listCount = 6
        if hasScalingMatrix && transform8x8 {
            guard let sps else {
                throw .unknownSequenceParameterSet(id: pps.seqParameterSetID, referencedBy: .pictureParameterSet)
            }
            listCount += sps.chromaFormatIDC != 3 ? 2 : 6
        }
        pps.fidelityRangeExtension = try H264RBSP.parse(.pictureParameterSet) { () throws(SyntaxError) -> FidelityRangeExtension in
            let matrix = hasScalingMatrix ? try H264ScalingMatrix(from: &reader, count: listCount) : nil
            let second = try reader.se("second_chroma_qp_index_offset", range: -12...12)
            try reader.finishRBSP()
            return FidelityRangeExtension(transform8x8ModeFlag: transform8x8, scalingMatrix: matrix, secondChromaQPIndexOffset: second)
        }
        self = pps
    }

    /// Reads the elements from `entropy_coding_mode_flag` to `redundant_pic_cnt_present_flag`
    /// (ITU-T H.264 §7.3.2.2) and checks them against §7.4.2.2.
    /// - Parameters:
    ///   - reader: the RBSP reader, after `seq_parameter_set_id`.
    ///   - sps: the referenced SPS when it is known.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    private mutating func readCore(from reader: inout BitReader, sequenceParameterSet sps: H264SequenceParameterSet?) throws(SyntaxError) {
        entropyCodingModeFlag = try reader.flag("entropy_coding_mode_flag")
        bottomFieldPicOrderInFramePresentFlag = try reader.flag("bottom_field_pic_order_in_frame_present_flag")
        numSliceGroupsMinus1 = try reader.ue("num_slice_groups_minus1", max: 7)
        if numSliceGroupsMinus1 > 0 {
            sliceGroupMap = try H264SliceGroupMap(from: &reader, numSliceGroupsMinus1: numSliceGroupsMinus1,
                                                  picSizeInMapUnits: sps?.picSizeInMapUnits)
        }
        numRefIdxL0DefaultActiveMinus1 = try reader.ue("num_ref_idx_l0_default_active_minus1", max: 31)
        numRefIdxL1DefaultActiveMinus1 = try reader.ue("num_ref_idx_l1_default_active_minus1", max: 31)
        weightedPredFlag = try reader.flag("weighted_pred_flag")
        weightedBipredIDC = try reader.u(2, "weighted_bipred_idc", allowed: 0...2)
        let qpBdOffsetY = Int32(6 * (sps?.bitDepthLumaMinus8 ?? 6))
        picInitQPMinus26 = try reader.se("pic_init_qp_minus26", range: -(26 + qpBdOffsetY)...25)
        picInitQSMinus26 = try reader.se("pic_init_qs_minus26", range: -26...25)
        chromaQPIndexOffset = try reader.se("chroma_qp_index_offset", range: -12...12)
        deblockingFilterControlPresentFlag = try reader.flag("deblocking_filter_control_present_flag")
        constrainedIntraPredFlag = try reader.flag("constrained_intra_pred_flag")
        redundantPicCntPresentFlag = try reader.flag("redundant_pic_cnt_present_flag")
    }
}
