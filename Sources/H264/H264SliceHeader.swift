import Bitstream

/// A slice header: `slice_header( )` of ITU-T H.264 §7.3.3, complete for the base specification
/// (NAL unit types 1, 2 and 5), with `ref_pic_list_modification( )`, `pred_weight_table( )` and
/// `dec_ref_pic_marking( )`.
///
/// Elements that are absent keep the value the specification infers (for example
/// ``numRefIdxL0ActiveMinus1`` comes from the PPS when not overridden, ``redundantPicCnt`` is 0).
/// Parsing needs the PPS the slice names and the SPS that PPS names; writing needs the same two.
public struct H264SliceHeader: Sendable, Hashable {
    /// The NAL unit header: `nal_ref_idc` and `nal_unit_type` (1, 2 or 5).
    public var nalUnitHeader: H264NALUnitHeader
    /// `first_mb_in_slice`.
    public var firstMbInSlice: UInt32
    /// `slice_type` modulo 5.
    public var sliceType: H264SliceType
    /// Whether `slice_type` is 5…9: every slice of the picture has type ``sliceType``.
    public var allSlicesHaveSameType: Bool
    /// `pic_parameter_set_id`, 0…255.
    public var picParameterSetID: UInt32
    /// `colour_plane_id`, 0…2; `nil` unless the SPS codes colour planes separately.
    public var colourPlaneID: UInt8?
    /// `frame_num`.
    public var frameNum: UInt32
    /// `field_pic_flag`: the slice belongs to a field.
    public var fieldPicFlag: Bool
    /// `bottom_field_flag`: the field is the bottom one.
    public var bottomFieldFlag: Bool
    /// `idr_pic_id`, 0…65535; `nil` for non-IDR slices.
    public var idrPicID: UInt32?
    /// `pic_order_cnt_lsb` (picture order count type 0), 0 when absent.
    public var picOrderCntLsb: UInt32
    /// `delta_pic_order_cnt_bottom` (type 0), 0 when absent.
    public var deltaPicOrderCntBottom: Int32
    /// `delta_pic_order_cnt[ 0 ]` (type 1), 0 when absent.
    public var deltaPicOrderCnt0: Int32
    /// `delta_pic_order_cnt[ 1 ]` (type 1), 0 when absent.
    public var deltaPicOrderCnt1: Int32
    /// `redundant_pic_cnt`, 0…127; 0 for a primary coded picture.
    public var redundantPicCnt: UInt32
    /// `direct_spatial_mv_pred_flag` (B slices).
    public var directSpatialMvPredFlag: Bool
    /// `num_ref_idx_active_override_flag` (P, SP and B slices).
    public var numRefIdxActiveOverrideFlag: Bool
    /// `num_ref_idx_l0_active_minus1`: coded, or the PPS default.
    public var numRefIdxL0ActiveMinus1: UInt32
    /// `num_ref_idx_l1_active_minus1`: coded, or the PPS default.
    public var numRefIdxL1ActiveMinus1: UInt32
    /// The list 0 modifications, `nil` when `ref_pic_list_modification_flag_l0` is 0 or absent.
    public var refPicListModificationL0: H264RefPicListModification?
    /// The list 1 modifications, `nil` when `ref_pic_list_modification_flag_l1` is 0 or absent.
    public var refPicListModificationL1: H264RefPicListModification?
    /// The prediction weight table, present for explicit weighted prediction.
    public var predWeightTable: H264PredWeightTable?
    /// The reference picture marking, present when `nal_ref_idc` is not 0.
    public var decRefPicMarking: H264DecRefPicMarking?
    /// `cabac_init_idc`, 0…2 (CABAC, not I/SI), 0 when absent.
    public var cabacInitIDC: UInt32
    /// `slice_qp_delta`.
    public var sliceQPDelta: Int32
    /// `sp_for_switch_flag` (SP slices).
    public var spForSwitchFlag: Bool
    /// `slice_qs_delta` (SP and SI slices), 0 when absent.
    public var sliceQSDelta: Int32
    /// `disable_deblocking_filter_idc`, 0…2; 0 when absent.
    public var disableDeblockingFilterIDC: UInt32
    /// `slice_alpha_c0_offset_div2`, −6…6; 0 when absent.
    public var sliceAlphaC0OffsetDiv2: Int32
    /// `slice_beta_offset_div2`, −6…6; 0 when absent.
    public var sliceBetaOffsetDiv2: Int32
    /// `slice_group_change_cycle` (slice group map types 3…5), `nil` when absent.
    public var sliceGroupChangeCycle: UInt32?
    /// `slice_id` of `slice_data_partition_a_layer_rbsp( )` (§7.3.2.9.1), for NAL unit type 2 only.
    public var sliceID: UInt32?
    /// The number of RBSP bits the header occupies (with `slice_id` for partition A): where
    /// `slice_data( )` starts. Set by the parser; not written.
    public var bitCount: Int

    /// Creates a header for a slice of the given NAL unit type, every element at its inferred value.
    /// - Parameters:
    ///   - nalUnitHeader: the NAL unit header (type 1, 2 or 5).
    ///   - sliceType: the slice type.
    ///   - picParameterSetID: `pic_parameter_set_id`.
    public init(nalUnitHeader: H264NALUnitHeader, sliceType: H264SliceType = .i, picParameterSetID: UInt32 = 0) {
        self.nalUnitHeader = nalUnitHeader
        firstMbInSlice = 0
        self.sliceType = sliceType
        allSlicesHaveSameType = false
        self.picParameterSetID = picParameterSetID
        colourPlaneID = nil
        frameNum = 0
        fieldPicFlag = false
        bottomFieldFlag = false
        idrPicID = nalUnitHeader.nalUnitType == .idrSlice ? 0 : nil
        picOrderCntLsb = 0
        deltaPicOrderCntBottom = 0
        deltaPicOrderCnt0 = 0
        deltaPicOrderCnt1 = 0
        redundantPicCnt = 0
        directSpatialMvPredFlag = false
        numRefIdxActiveOverrideFlag = false
        numRefIdxL0ActiveMinus1 = 0
        numRefIdxL1ActiveMinus1 = 0
        refPicListModificationL0 = nil
        refPicListModificationL1 = nil
        predWeightTable = nil
        decRefPicMarking = nalUnitHeader.nalRefIDC != 0 ? H264DecRefPicMarking() : nil
        cabacInitIDC = 0
        sliceQPDelta = 0
        spForSwitchFlag = false
        sliceQSDelta = 0
        disableDeblockingFilterIDC = 0
        sliceAlphaC0OffsetDiv2 = 0
        sliceBetaOffsetDiv2 = 0
        sliceGroupChangeCycle = nil
        sliceID = nalUnitHeader.nalUnitType == .sliceDataPartitionA ? 0 : nil
        bitCount = 0
    }

    /// `IdrPicFlag`: the slice belongs to an IDR picture (NAL unit type 5).
    public var isIDR: Bool { nalUnitHeader.nalUnitType == .idrSlice }

    /// `nal_ref_idc` of the NAL unit.
    public var nalRefIDC: UInt8 { nalUnitHeader.nalRefIDC }

    /// Whether the slice belongs to a redundant coded picture (`redundant_pic_cnt` above 0).
    public var isRedundant: Bool { redundantPicCnt > 0 }

    /// Whether the slice has `memory_management_control_operation` 5 (§8.2.1).
    public var hasMemoryManagementControlOperation5: Bool { decRefPicMarking?.hasMarkAllUnused ?? false }

    /// The picture the slice belongs to: a frame, a top field or a bottom field.
    public var pictureStructure: H264PictureStructure {
        fieldPicFlag ? (bottomFieldFlag ? .bottomField : .topField) : .frame
    }

    /// How many payload bytes the fast path converts before falling back to the whole NAL unit.
    static let fastPathByteCount = 96

    /// Parses the slice header at the start of a slice NAL unit (ITU-T H.264 §7.3.3 `slice_header( )`).
    ///
    /// Only the first bytes of the NAL unit are unescaped unless the header is longer. Each call
    /// allocates the RBSP it reads; a parser that reads every slice of a stream should keep a buffer
    /// and use ``init(nalUnit:parameterSets:scratch:)``.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (type 1, 2 or 5), without start code.
    ///   - parameterSets: the parameter sets received so far.
    /// - Throws: ``H264Error``: a wrong NAL unit type, a bad header, a missing emulation-prevention
    ///   byte, an unknown PPS or SPS id, or ``H264Error/syntax(_:nalUnitType:)`` naming the field.
    public init<Bytes: Collection>(nalUnit: Bytes, parameterSets: H264ParameterSets) throws(H264Error) where Bytes.Element == UInt8 {
        var scratch = [UInt8]()
        try self.init(nalUnit: nalUnit, parameterSets: parameterSets, scratch: &scratch)
    }

    /// Parses the slice header at the start of a slice NAL unit (ITU-T H.264 §7.3.3 `slice_header( )`),
    /// unescaping it into a buffer the caller keeps from one slice to the next.
    ///
    /// The result is that of ``init(nalUnit:parameterSets:)``. `scratch` is overwritten; when it is
    /// uniquely referenced and large enough, parsing does not allocate for the RBSP.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (type 1, 2 or 5), without start code.
    ///   - parameterSets: the parameter sets received so far.
    ///   - scratch: a buffer reused for the RBSP; its contents on return are unspecified.
    /// - Throws: ``H264Error`` as ``init(nalUnit:parameterSets:)``.
    public init<Bytes: Collection>(
        nalUnit: Bytes, parameterSets: H264ParameterSets, scratch: inout [UInt8]
    ) throws(H264Error) where Bytes.Element == UInt8 {
        try self.init(nalUnit: nalUnit,
                      pictureParameterSet: { parameterSets.pictureParameterSet(id: $0) },
                      sequenceParameterSet: { parameterSets.sequenceParameterSet(id: $0) },
                      scratch: &scratch)
    }

    /// Parses the slice header at the start of a slice NAL unit (ITU-T H.264 §7.3.3 `slice_header( )`),
    /// looking parameter sets up with closures.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (type 1, 2 or 5), without start code.
    ///   - pictureParameterSet: looks up a PPS by `pic_parameter_set_id`.
    ///   - sequenceParameterSet: looks up an SPS by `seq_parameter_set_id`.
    /// - Throws: ``H264Error`` as ``init(nalUnit:parameterSets:)``.
    public init<Bytes: Collection>(
        nalUnit: Bytes,
        pictureParameterSet: (_ id: UInt32) -> H264PictureParameterSet?,
        sequenceParameterSet: (_ id: UInt32) -> H264SequenceParameterSet?
    ) throws(H264Error) where Bytes.Element == UInt8 {
        var scratch = [UInt8]()
        try self.init(nalUnit: nalUnit, pictureParameterSet: pictureParameterSet,
                      sequenceParameterSet: sequenceParameterSet, scratch: &scratch)
    }

    /// Parses the slice header at the start of a slice NAL unit (ITU-T H.264 §7.3.3 `slice_header( )`),
    /// looking parameter sets up with closures and unescaping into a buffer the caller keeps.
    ///
    /// The result is that of ``init(nalUnit:pictureParameterSet:sequenceParameterSet:)``. `scratch`
    /// is overwritten; when it is uniquely referenced and large enough, parsing does not allocate for
    /// the RBSP.
    /// - Parameters:
    ///   - nalUnit: the NAL unit (type 1, 2 or 5), without start code.
    ///   - pictureParameterSet: looks up a PPS by `pic_parameter_set_id`.
    ///   - sequenceParameterSet: looks up an SPS by `seq_parameter_set_id`.
    ///   - scratch: a buffer reused for the RBSP; its contents on return are unspecified.
    /// - Throws: ``H264Error`` as ``init(nalUnit:parameterSets:)``.
    public init<Bytes: Collection>(
        nalUnit: Bytes,
        pictureParameterSet: (_ id: UInt32) -> H264PictureParameterSet?,
        sequenceParameterSet: (_ id: UInt32) -> H264SequenceParameterSet?,
        scratch: inout [UInt8]
    ) throws(H264Error) where Bytes.Element == UInt8 {
        let header = try H264NALUnitHeader(parsing: nalUnit)
        switch header.nalUnitType {
        case .nonIDRSlice, .idrSlice, .sliceDataPartitionA:
            break
        case .sliceExtension, .depthSliceExtension:
            throw .unsupported("slice headers of NAL unit type \(header.nalUnitType.rawValue) (MVC/SVC/3D-AVC)", nalUnitType: header.nalUnitType)
        default:
            throw .unexpectedNALUnitType(header.nalUnitType, expected: .nonIDRSlice)
        }
        let payloadCount = nalUnit.count - header.length
        try H264RBSP.rbsp(of: nalUnit, header: header, limit: Self.fastPathByteCount, into: &scratch)
        do {
            try self.init(rbsp: scratch, nalUnitHeader: header, pictureParameterSet: pictureParameterSet,
                          sequenceParameterSet: sequenceParameterSet)
        } catch let error {
            guard payloadCount > Self.fastPathByteCount, case let .syntax(syntax, _) = error,
                  syntax.reason == .endOfData || syntax.reason == .expGolombOverflow else {
                throw error
            }
            try H264RBSP.rbsp(of: nalUnit, header: header, into: &scratch)
            try self.init(rbsp: scratch, nalUnitHeader: header, pictureParameterSet: pictureParameterSet,
                          sequenceParameterSet: sequenceParameterSet)
        }
    }

    /// Parses a slice header from the RBSP of a slice NAL unit (ITU-T H.264 §7.3.3).
    /// - Parameters:
    ///   - rbsp: the RBSP (or its beginning): the NAL unit after its header, emulation prevention removed.
    ///   - nalUnitHeader: the NAL unit header (type 1, 2 or 5).
    ///   - pictureParameterSet: looks up a PPS by `pic_parameter_set_id`.
    ///   - sequenceParameterSet: looks up an SPS by `seq_parameter_set_id`.
    /// - Throws: ``H264Error`` as ``init(nalUnit:parameterSets:)``.
    public init(
        rbsp: [UInt8], nalUnitHeader: H264NALUnitHeader,
        pictureParameterSet: (_ id: UInt32) -> H264PictureParameterSet?,
        sequenceParameterSet: (_ id: UInt32) -> H264SequenceParameterSet?
    ) throws(H264Error) {
        let type = nalUnitHeader.nalUnitType
        var reader = BitReader(rbsp)
        var header = H264SliceHeader(nalUnitHeader: nalUnitHeader)
        var firstMbOffset = 0
        try H264RBSP.parse(type) { () throws(SyntaxError) in
            firstMbOffset = reader.bitPosition
            header.firstMbInSlice = try reader.ue("first_mb_in_slice")
            let sliceType = try reader.ue("slice_type", max: 9)
            header.sliceType = H264SliceType(sliceType: sliceType) ?? .i
            header.allSlicesHaveSameType = sliceType >= 5
            header.picParameterSetID = try reader.ue("pic_parameter_set_id", max: 255)
        }
        guard let pps = pictureParameterSet(header.picParameterSetID) else {
            throw .unknownPictureParameterSet(id: header.picParameterSetID, referencedBy: type)
        }
        guard let sps = sequenceParameterSet(pps.seqParameterSetID) else {
            throw .unknownSequenceParameterSet(id: pps.seqParameterSetID, referencedBy: type)
        }
        try H264RBSP.parse(type) { () throws(SyntaxError) in
            let picSizeInMbs = sps.picWidthInMbs * sps.frameHeightInMbs
            guard Int(header.firstMbInSlice) < picSizeInMbs else {
                throw SyntaxError(field: "first_mb_in_slice", bitOffset: firstMbOffset,
                                  reason: .outOfRange(value: Int64(header.firstMbInSlice), allowed: 0...Int64(picSizeInMbs - 1)))
            }
            try header.readRest(from: &reader, sps: sps, pps: pps)
        }
        header.bitCount = reader.bitPosition
        self = header
    }

    /// Reads the slice header from `colour_plane_id` on (ITU-T H.264 §7.3.3) and checks the ranges of §7.4.3.
    private mutating func readRest(from reader: inout BitReader, sps: H264SequenceParameterSet,
                                   pps: H264PictureParameterSet) throws(SyntaxError) {
        if sps.separateColourPlaneFlag {
            colourPlaneID = try reader.u8(2, "colour_plane_id", allowed: 0...2)
        }
        let frameNumOffset = reader.bitPosition
        frameNum = try reader.u(sps.frameNumBitCount, "frame_num")
        if isIDR && frameNum != 0 {
            throw SyntaxError(field: "frame_num", bitOffset: frameNumOffset, reason: .invalid("value \(frameNum) in an IDR picture, must be 0"))
        }
        if !sps.frameMbsOnlyFlag {
            fieldPicFlag = try reader.flag("field_pic_flag")
            if fieldPicFlag { bottomFieldFlag = try reader.flag("bottom_field_flag") }
        }
        if isIDR {
            idrPicID = try reader.ue("idr_pic_id", max: 65535)
        }
        if sps.picOrderCntType == 0 {
            picOrderCntLsb = try reader.u(sps.picOrderCntLsbBitCount, "pic_order_cnt_lsb")
            if pps.bottomFieldPicOrderInFramePresentFlag && !fieldPicFlag {
                deltaPicOrderCntBottom = try reader.se("delta_pic_order_cnt_bottom", range: (Int32.min + 1)...Int32.max)
            }
        }
        if sps.picOrderCntType == 1 && !sps.deltaPicOrderAlwaysZeroFlag {
            deltaPicOrderCnt0 = try reader.se("delta_pic_order_cnt", range: (Int32.min + 1)...Int32.max)
            if pps.bottomFieldPicOrderInFramePresentFlag && !fieldPicFlag {
                deltaPicOrderCnt1 = try reader.se("delta_pic_order_cnt", range: (Int32.min + 1)...Int32.max)
            }
        }
        if pps.redundantPicCntPresentFlag {
            redundantPicCnt = try reader.ue("redundant_pic_cnt", max: 127)
        }
        if sliceType == .b {
            directSpatialMvPredFlag = try reader.flag("direct_spatial_mv_pred_flag")
        }
        numRefIdxL0ActiveMinus1 = pps.numRefIdxL0DefaultActiveMinus1
        numRefIdxL1ActiveMinus1 = pps.numRefIdxL1DefaultActiveMinus1
        if sliceType.usesList0 {
            numRefIdxActiveOverrideFlag = try reader.flag("num_ref_idx_active_override_flag")
            if numRefIdxActiveOverrideFlag {
                let maximum: UInt32 = fieldPicFlag ? 31 : 15
                numRefIdxL0ActiveMinus1 = try reader.ue("num_ref_idx_l0_active_minus1", max: maximum)
                if sliceType == .b {
                    numRefIdxL1ActiveMinus1 = try reader.ue("num_ref_idx_l1_active_minus1", max: maximum)
                }
            }
        }
        let maxPicNum = sps.maxFrameNum * (fieldPicFlag ? 2 : 1)
        if sliceType != .i && sliceType != .si {
            if try reader.flag("ref_pic_list_modification_flag_l0") {
                refPicListModificationL0 = try H264RefPicListModification(
                    from: &reader, maxPicNum: maxPicNum, maxOperations: Int(numRefIdxL0ActiveMinus1) + 1)
            }
        }
        if sliceType == .b {
            if try reader.flag("ref_pic_list_modification_flag_l1") {
                refPicListModificationL1 = try H264RefPicListModification(
                    from: &reader, maxPicNum: maxPicNum, maxOperations: Int(numRefIdxL1ActiveMinus1) + 1)
            }
        }
        if (pps.weightedPredFlag && (sliceType == .p || sliceType == .sp)) || (pps.weightedBipredIDC == 1 && sliceType == .b) {
            predWeightTable = try H264PredWeightTable(
                from: &reader, chromaArrayType: sps.chromaArrayType,
                list0Count: Int(numRefIdxL0ActiveMinus1) + 1,
                list1Count: sliceType == .b ? Int(numRefIdxL1ActiveMinus1) + 1 : 0)
        }
        if nalRefIDC != 0 {
            decRefPicMarking = try H264DecRefPicMarking(from: &reader, isIDR: isIDR)
        }
        if pps.entropyCodingModeFlag && !sliceType.isIntra {
            cabacInitIDC = try reader.ue("cabac_init_idc", max: 2)
        }
        let qpBdOffsetY = Int32(6 * sps.bitDepthLumaMinus8)
        let initQP = 26 + pps.picInitQPMinus26
        sliceQPDelta = try reader.se("slice_qp_delta", range: (-qpBdOffsetY - initQP)...(51 - initQP))
        if sliceType == .sp || sliceType == .si {
            if sliceType == .sp { spForSwitchFlag = try reader.flag("sp_for_switch_flag") }
            let initQS = 26 + pps.picInitQSMinus26
            sliceQSDelta = try reader.se("slice_qs_delta", range: (-initQS)...(51 - initQS))
        }
        if pps.deblockingFilterControlPresentFlag {
            disableDeblockingFilterIDC = try reader.ue("disable_deblocking_filter_idc", max: 2)
            if disableDeblockingFilterIDC != 1 {
                sliceAlphaC0OffsetDiv2 = try reader.se("slice_alpha_c0_offset_div2", range: -6...6)
                sliceBetaOffsetDiv2 = try reader.se("slice_beta_offset_div2", range: -6...6)
            }
        }
        if pps.numSliceGroupsMinus1 > 0, let rate = pps.sliceGroupMap?.changeRateMinus1 {
            let (bits, maximum) = Self.sliceGroupChangeCycleBits(picSizeInMapUnits: sps.picSizeInMapUnits,
                                                                 changeRate: Int(rate) + 1)
            sliceGroupChangeCycle = try reader.u(bits, "slice_group_change_cycle", allowed: 0...maximum)
        }
        if nalUnitHeader.nalUnitType == .sliceDataPartitionA {
            sliceID = try reader.ue("slice_id")
        }
    }

    /// The width of `slice_group_change_cycle`, Ceil( Log2( PicSizeInMapUnits ÷ SliceGroupChangeRate + 1 ) )
    /// bits, and its largest value, Ceil( PicSizeInMapUnits ÷ SliceGroupChangeRate ) (§7.4.3).
    static func sliceGroupChangeCycleBits(picSizeInMapUnits: Int, changeRate: Int) -> (bits: Int, maximum: UInt32) {
        let rate = max(changeRate, 1)
        var bits = 0
        while bits < 32 && (rate << bits) < picSizeInMapUnits + rate { bits += 1 }
        let maximum = (picSizeInMapUnits + rate - 1) / rate
        return (bits, UInt32(clamping: maximum))
    }
}
