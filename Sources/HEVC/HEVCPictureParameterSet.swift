import Bitstream

/// A picture parameter set: `pic_parameter_set_rbsp()` of ITU-T H.265 §7.3.2.3.1.
///
/// Every element of the base specification is parsed, including tiles (uniform or explicit
/// spacing), deblocking control, `scaling_list_data()` and `pps_range_extension()`. The multilayer,
/// 3D and SCC extensions and `pps_extension_4bits` data are kept as raw bits in ``extensionData``.
///
/// A PPS can be parsed without its SPS, so ranges that depend on the SPS are first checked with the
/// loosest bound any SPS allows; ``validate(against:)`` applies the exact ones.
public struct HEVCPictureParameterSet: Sendable, Hashable {
    /// The tiles group (`tiles_enabled_flag` = 1).
    public struct Tiles: Sendable, Hashable {
        /// `num_tile_columns_minus1`, 0…PicWidthInCtbsY − 1.
        public var numTileColumnsMinus1: Int
        /// `num_tile_rows_minus1`, 0…PicHeightInCtbsY − 1.
        public var numTileRowsMinus1: Int
        /// `uniform_spacing_flag`.
        public var uniformSpacingFlag: Bool
        /// `column_width_minus1[i]` for the first `num_tile_columns_minus1` columns (explicit spacing).
        public var columnWidthsMinus1: [Int]
        /// `row_height_minus1[i]` for the first `num_tile_rows_minus1` rows (explicit spacing).
        public var rowHeightsMinus1: [Int]
        /// `loop_filter_across_tiles_enabled_flag` (inferred 1 when absent).
        public var loopFilterAcrossTilesEnabledFlag: Bool

        /// Creates a tiles group.
        /// - Parameters:
        ///   - numTileColumnsMinus1: `num_tile_columns_minus1`.
        ///   - numTileRowsMinus1: `num_tile_rows_minus1`.
        ///   - uniformSpacingFlag: `uniform_spacing_flag`.
        ///   - columnWidthsMinus1: `column_width_minus1[i]` when spacing is explicit.
        ///   - rowHeightsMinus1: `row_height_minus1[i]` when spacing is explicit.
        ///   - loopFilterAcrossTilesEnabledFlag: `loop_filter_across_tiles_enabled_flag`.
        public init(numTileColumnsMinus1: Int = 0, numTileRowsMinus1: Int = 0, uniformSpacingFlag: Bool = true,
                    columnWidthsMinus1: [Int] = [], rowHeightsMinus1: [Int] = [],
                    loopFilterAcrossTilesEnabledFlag: Bool = true) {
            self.numTileColumnsMinus1 = numTileColumnsMinus1
            self.numTileRowsMinus1 = numTileRowsMinus1
            self.uniformSpacingFlag = uniformSpacingFlag
            self.columnWidthsMinus1 = columnWidthsMinus1
            self.rowHeightsMinus1 = rowHeightsMinus1
            self.loopFilterAcrossTilesEnabledFlag = loopFilterAcrossTilesEnabledFlag
        }
    }

    /// The deblocking filter control group (`deblocking_filter_control_present_flag` = 1).
    public struct DeblockingFilterControl: Sendable, Hashable {
        /// `deblocking_filter_override_enabled_flag`.
        public var overrideEnabledFlag: Bool
        /// `pps_deblocking_filter_disabled_flag`.
        public var disabledFlag: Bool
        /// `pps_beta_offset_div2`, −6…6 (coded when the filter is not disabled).
        public var betaOffsetDiv2: Int
        /// `pps_tc_offset_div2`, −6…6 (coded when the filter is not disabled).
        public var tcOffsetDiv2: Int

        /// Creates a deblocking control group.
        /// - Parameters:
        ///   - overrideEnabledFlag: `deblocking_filter_override_enabled_flag`.
        ///   - disabledFlag: `pps_deblocking_filter_disabled_flag`.
        ///   - betaOffsetDiv2: `pps_beta_offset_div2`.
        ///   - tcOffsetDiv2: `pps_tc_offset_div2`.
        public init(overrideEnabledFlag: Bool = false, disabledFlag: Bool = false, betaOffsetDiv2: Int = 0,
                    tcOffsetDiv2: Int = 0) {
            self.overrideEnabledFlag = overrideEnabledFlag
            self.disabledFlag = disabledFlag
            self.betaOffsetDiv2 = betaOffsetDiv2
            self.tcOffsetDiv2 = tcOffsetDiv2
        }
    }

    /// Loosest bound on a CTB count any SPS allows: ⌈16 888 / 16⌉.
    static let maximumCTBsPerDimension = (HEVCSequenceParameterSet.maximumPictureDimension + 15) / 16

    /// The NAL unit header used by ``nalUnit()`` (type `PPS_NUT`).
    public var nalUnitHeader = HEVCNALUnitHeader(type: .pps)
    /// `pps_pic_parameter_set_id`, 0…63.
    public var picParameterSetID = 0
    /// `pps_seq_parameter_set_id`, 0…15.
    public var seqParameterSetID = 0
    /// `dependent_slice_segments_enabled_flag`.
    public var dependentSliceSegmentsEnabledFlag = false
    /// `output_flag_present_flag`.
    public var outputFlagPresentFlag = false
    /// `num_extra_slice_header_bits`, 0…7 (u(3)).
    public var numExtraSliceHeaderBits = 0
    /// `sign_data_hiding_enabled_flag`.
    public var signDataHidingEnabledFlag = false
    /// `cabac_init_present_flag`.
    public var cabacInitPresentFlag = false
    /// `num_ref_idx_l0_default_active_minus1`, 0…14.
    public var numRefIdxL0DefaultActiveMinus1 = 0
    /// `num_ref_idx_l1_default_active_minus1`, 0…14.
    public var numRefIdxL1DefaultActiveMinus1 = 0
    /// `init_qp_minus26`, −(26 + QpBdOffsetY)…25.
    public var initQPMinus26 = 0
    /// `constrained_intra_pred_flag`.
    public var constrainedIntraPredFlag = false
    /// `transform_skip_enabled_flag`.
    public var transformSkipEnabledFlag = false
    /// `cu_qp_delta_enabled_flag`.
    public var cuQPDeltaEnabledFlag = false
    /// `diff_cu_qp_delta_depth`, 0…`log2_diff_max_min_luma_coding_block_size` (coded when the flag is 1).
    public var diffCUQPDeltaDepth = 0
    /// `pps_cb_qp_offset`, −12…12.
    public var cbQPOffset = 0
    /// `pps_cr_qp_offset`, −12…12.
    public var crQPOffset = 0
    /// `pps_slice_chroma_qp_offsets_present_flag`.
    public var sliceChromaQPOffsetsPresentFlag = false
    /// `weighted_pred_flag`.
    public var weightedPredFlag = false
    /// `weighted_bipred_flag`.
    public var weightedBipredFlag = false
    /// `transquant_bypass_enabled_flag`.
    public var transquantBypassEnabledFlag = false
    /// The tiles; `nil` when `tiles_enabled_flag` is 0.
    public var tiles: Tiles?
    /// `entropy_coding_sync_enabled_flag` (wavefront parallel processing).
    public var entropyCodingSyncEnabledFlag = false
    /// `pps_loop_filter_across_slices_enabled_flag`.
    public var loopFilterAcrossSlicesEnabledFlag = false
    /// The deblocking control; `nil` when `deblocking_filter_control_present_flag` is 0.
    public var deblockingFilterControl: DeblockingFilterControl?
    /// The PPS scaling lists; `nil` when `pps_scaling_list_data_present_flag` is 0.
    public var scalingListData: HEVCScalingListData?
    /// `lists_modification_present_flag`.
    public var listsModificationPresentFlag = false
    /// `log2_parallel_merge_level_minus2`, 0…CtbLog2SizeY − 2.
    public var log2ParallelMergeLevelMinus2 = 0
    /// `slice_segment_header_extension_present_flag`.
    public var sliceSegmentHeaderExtensionPresentFlag = false
    /// `pps_extension_present_flag`: 1 whenever an extension is set; setting it to `true` with no
    /// extension writes the flag with all four extension flags 0 (legal, and kept when parsed).
    public var extensionPresentFlag: Bool {
        get { extensions.extensionPresentFlag }
        set { extensions.extensionPresentFlag = newValue }
    }
    /// The range extension; `nil` when `pps_range_extension_flag` is 0.
    public var rangeExtension: HEVCPPSRangeExtension? {
        get { extensions.rangeExtension }
        set { extensions.rangeExtension = newValue }
    }
    /// `pps_multilayer_extension_flag` (its data is in ``extensionData``).
    public var multilayerExtensionFlag: Bool {
        get { extensions.multilayerExtensionFlag }
        set { extensions.multilayerExtensionFlag = newValue }
    }
    /// `pps_3d_extension_flag` (its data is in ``extensionData``).
    public var threeDExtensionFlag: Bool {
        get { extensions.threeDExtensionFlag }
        set { extensions.threeDExtensionFlag = newValue }
    }
    /// `pps_scc_extension_flag` (its data is in ``extensionData``).
    public var sccExtensionFlag: Bool {
        get { extensions.sccExtensionFlag }
        set { extensions.sccExtensionFlag = newValue }
    }
    /// `pps_extension_4bits` (its data is in ``extensionData``).
    public var extension4Bits: Int {
        get { extensions.extension4Bits }
        set { extensions.extension4Bits = newValue }
    }
    /// The unparsed multilayer / 3D / SCC extensions and `pps_extension_data_flag`s, up to the stop bit.
    public var extensionData: HEVCRawBits {
        get { extensions.extensionData }
        set { extensions.extensionData = newValue }
    }
    /// The storage behind the extension properties above; its reading and writing are shared with the SPS.
    private var extensions = HEVCParameterSetExtensions<HEVCPPSRangeExtension>()

    /// Creates a PPS with every optional tool off.
    public init() {}

    /// Parses a PPS NAL unit.
    /// - Parameter nalUnit: the NAL unit (header and EBSP), without start code.
    /// - Throws: ``HEVCError`` for a bad header, a type other than `PPS_NUT`, a missing
    ///   emulation-prevention byte, or a syntax error naming the field.
    public init<Bytes: Collection>(nalUnit: Bytes) throws(HEVCError) where Bytes.Element == UInt8 {
        let (header, rbsp) = try NALUnitPayload.split(nalUnit, expecting: [.pps], name: "PPS_NUT")
        try self.init(rbsp: rbsp)
        nalUnitHeader = header
    }

    /// Parses `pic_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.3.1).
    /// - Parameter rbsp: the RBSP (after the NAL unit header, emulation prevention removed).
    /// - Throws: ``HEVCError/syntax(_:nalUnitType:)`` naming the field that is truncated or out of range.
    public init(rbsp: [UInt8]) throws(HEVCError) {
        self.init()
        var reader = BitReader(rbsp)
        try NALUnitPayload.parse(.pps) { () throws(SyntaxError) in try read(from: &reader) }
    }

    /// The body of `pic_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.3.1).
    private mutating func read(from reader: inout BitReader) throws(SyntaxError) {
        picParameterSetID = try reader.ueInt("pps_pic_parameter_set_id", range: 0...63)
        seqParameterSetID = try reader.ueInt("pps_seq_parameter_set_id", range: 0...15)
        dependentSliceSegmentsEnabledFlag = try reader.flag("dependent_slice_segments_enabled_flag")
        outputFlagPresentFlag = try reader.flag("output_flag_present_flag")
        numExtraSliceHeaderBits = Int(try reader.u(3, "num_extra_slice_header_bits"))
        signDataHidingEnabledFlag = try reader.flag("sign_data_hiding_enabled_flag")
        cabacInitPresentFlag = try reader.flag("cabac_init_present_flag")
        numRefIdxL0DefaultActiveMinus1 = try reader.ueInt("num_ref_idx_l0_default_active_minus1", range: 0...14)
        numRefIdxL1DefaultActiveMinus1 = try reader.ueInt("num_ref_idx_l1_default_active_minus1", range: 0...14)
        initQPMinus26 = try reader.seInt("init_qp_minus26", range: -(26 + 6 * 8)...25)
        constrainedIntraPredFlag = try reader.flag("constrained_intra_pred_flag")
        transformSkipEnabledFlag = try reader.flag("transform_skip_enabled_flag")
        cuQPDeltaEnabledFlag = try reader.flag("cu_qp_delta_enabled_flag")
        diffCUQPDeltaDepth = cuQPDeltaEnabledFlag ? try reader.ueInt("diff_cu_qp_delta_depth", range: 0...3) : 0
        cbQPOffset = try reader.seInt("pps_cb_qp_offset", range: -12...12)
        crQPOffset = try reader.seInt("pps_cr_qp_offset", range: -12...12)
        sliceChromaQPOffsetsPresentFlag = try reader.flag("pps_slice_chroma_qp_offsets_present_flag")
        weightedPredFlag = try reader.flag("weighted_pred_flag")
        weightedBipredFlag = try reader.flag("weighted_bipred_flag")
        transquantBypassEnabledFlag = try reader.flag("transquant_bypass_enabled_flag")
        let tilesEnabled = try reader.flag("tiles_enabled_flag")
        entropyCodingSyncEnabledFlag = try reader.flag("entropy_coding_sync_enabled_flag")
        tiles = tilesEnabled ? try Self.readTiles(from: &reader) : nil
        loopFilterAcrossSlicesEnabledFlag = try reader.flag("pps_loop_filter_across_slices_enabled_flag")
        deblockingFilterControl = nil
        if try reader.flag("deblocking_filter_control_present_flag") {
            var control = DeblockingFilterControl()
            control.overrideEnabledFlag = try reader.flag("deblocking_filter_override_enabled_flag")
            control.disabledFlag = try reader.flag("pps_deblocking_filter_disabled_flag")
            if !control.disabledFlag {
                control.betaOffsetDiv2 = try reader.seInt("pps_beta_offset_div2", range: -6...6)
                control.tcOffsetDiv2 = try reader.seInt("pps_tc_offset_div2", range: -6...6)
            }
            deblockingFilterControl = control
        }
        scalingListData = try reader.flag("pps_scaling_list_data_present_flag") ? try HEVCScalingListData(from: &reader) : nil
        listsModificationPresentFlag = try reader.flag("lists_modification_present_flag")
        log2ParallelMergeLevelMinus2 = try reader.ueInt("log2_parallel_merge_level_minus2", range: 0...4)
        sliceSegmentHeaderExtensionPresentFlag = try reader.flag("slice_segment_header_extension_present_flag")
        try readExtensions(from: &reader)
        try reader.finishRBSP()
    }

    /// Reads the tiles group of §7.3.2.3.1.
    private static func readTiles(from reader: inout BitReader) throws(SyntaxError) -> Tiles {
        let limit = maximumCTBsPerDimension - 1
        var tiles = Tiles()
        tiles.numTileColumnsMinus1 = try reader.ueInt("num_tile_columns_minus1", range: 0...limit)
        tiles.numTileRowsMinus1 = try reader.ueInt("num_tile_rows_minus1", range: 0...limit)
        if tiles.numTileColumnsMinus1 == 0 && tiles.numTileRowsMinus1 == 0 {
            throw SyntaxError(field: "num_tile_rows_minus1", bitOffset: reader.bitPosition,
                              reason: .invalid("tiles are enabled but both num_tile_columns_minus1 and num_tile_rows_minus1 are 0"))
        }
        tiles.uniformSpacingFlag = try reader.flag("uniform_spacing_flag")
        if !tiles.uniformSpacingFlag {
            for _ in 0..<tiles.numTileColumnsMinus1 {
                tiles.columnWidthsMinus1.append(try reader.ueInt("column_width_minus1", range: 0...limit))
            }
            for _ in 0..<tiles.numTileRowsMinus1 {
                tiles.rowHeightsMinus1.append(try reader.ueInt("row_height_minus1", range: 0...limit))
            }
        }
        tiles.loopFilterAcrossTilesEnabledFlag = try reader.flag("loop_filter_across_tiles_enabled_flag")
        return tiles
    }

    /// Reads the extension flags of §7.3.2.3.1, `pps_range_extension()` and the raw rest.
    private mutating func readExtensions(from reader: inout BitReader) throws(SyntaxError) {
        let transformSkipEnabled = transformSkipEnabledFlag
        try extensions.read(from: &reader, names: Self.extensionFieldNames) { (reader) throws(SyntaxError) in
            try HEVCPPSRangeExtension(from: &reader, transformSkipEnabled: transformSkipEnabled)
        }
    }

    /// The names of the `pps_extension_*` syntax elements, for parse errors.
    private static let extensionFieldNames = HEVCParameterSetExtensions<HEVCPPSRangeExtension>.FieldNames(
        presentFlag: "pps_extension_present_flag", rangeFlag: "pps_range_extension_flag",
        multilayerFlag: "pps_multilayer_extension_flag", threeDFlag: "pps_3d_extension_flag",
        sccFlag: "pps_scc_extension_flag", fourBits: "pps_extension_4bits", dataFlag: "pps_extension_data_flag")

    /// Checks the ranges of §7.4.3.3 that depend on the SPS the PPS refers to.
    /// - Parameter sps: the SPS with `sps_seq_parameter_set_id` equal to ``seqParameterSetID``.
    /// - Throws: ``HEVCError/inconsistentParameterSets(field:reason:)`` naming the first field that
    ///   does not fit the SPS.
    public func validate(against sps: HEVCSequenceParameterSet) throws(HEVCError) {
        func fail(_ field: String, _ reason: String) -> HEVCError {
            .inconsistentParameterSets(field: field, reason: reason)
        }
        guard sps.seqParameterSetID == seqParameterSetID else {
            throw fail("pps_seq_parameter_set_id", "PPS \(picParameterSetID) refers to SPS \(seqParameterSetID), not \(sps.seqParameterSetID)")
        }
        let lowestQP = -(26 + 6 * sps.bitDepthLumaMinus8)
        if initQPMinus26 < lowestQP {
            throw fail("init_qp_minus26", "value \(initQPMinus26) below \(lowestQP) for \(sps.bitDepthLuma)-bit luma")
        }
        if diffCUQPDeltaDepth > sps.log2DiffMaxMinLumaCodingBlockSize {
            throw fail("diff_cu_qp_delta_depth", "value \(diffCUQPDeltaDepth) above log2_diff_max_min_luma_coding_block_size \(sps.log2DiffMaxMinLumaCodingBlockSize)")
        }
        if log2ParallelMergeLevelMinus2 > sps.ctbLog2SizeY - 2 {
            throw fail("log2_parallel_merge_level_minus2", "value \(log2ParallelMergeLevelMinus2) above CtbLog2SizeY − 2 = \(sps.ctbLog2SizeY - 2)")
        }
        if let tiles {
            if tiles.numTileColumnsMinus1 >= sps.picWidthInCtbsY {
                throw fail("num_tile_columns_minus1", "value \(tiles.numTileColumnsMinus1) but the picture is \(sps.picWidthInCtbsY) CTBs wide")
            }
            if tiles.numTileRowsMinus1 >= sps.picHeightInCtbsY {
                throw fail("num_tile_rows_minus1", "value \(tiles.numTileRowsMinus1) but the picture is \(sps.picHeightInCtbsY) CTBs high")
            }
            if !tiles.uniformSpacingFlag {
                let columns = tiles.columnWidthsMinus1.reduce(0) { $0 + $1 + 1 }
                if columns >= sps.picWidthInCtbsY {
                    throw fail("column_width_minus1", "explicit columns cover \(columns) of \(sps.picWidthInCtbsY) CTB columns, leaving none for the last")
                }
                let rows = tiles.rowHeightsMinus1.reduce(0) { $0 + $1 + 1 }
                if rows >= sps.picHeightInCtbsY {
                    throw fail("row_height_minus1", "explicit rows cover \(rows) of \(sps.picHeightInCtbsY) CTB rows, leaving none for the last")
                }
            }
        }
        if let range = rangeExtension {
            let maxTb = sps.log2MinLumaTransformBlockSizeMinus2 + 2 + sps.log2DiffMaxMinLumaTransformBlockSize
            if range.log2MaxTransformSkipBlockSizeMinus2 > maxTb - 2 {
                throw fail("log2_max_transform_skip_block_size_minus2", "value \(range.log2MaxTransformSkipBlockSizeMinus2) above MaxTbLog2SizeY − 2 = \(maxTb - 2)")
            }
            if range.diffCUChromaQPOffsetDepth > sps.log2DiffMaxMinLumaCodingBlockSize {
                throw fail("diff_cu_chroma_qp_offset_depth", "value \(range.diffCUChromaQPOffsetDepth) above log2_diff_max_min_luma_coding_block_size \(sps.log2DiffMaxMinLumaCodingBlockSize)")
            }
            if range.log2SAOOffsetScaleLuma > max(0, sps.bitDepthLuma - 10) {
                throw fail("log2_sao_offset_scale_luma", "value \(range.log2SAOOffsetScaleLuma) above Max(0, BitDepthY − 10) = \(max(0, sps.bitDepthLuma - 10))")
            }
            if range.log2SAOOffsetScaleChroma > max(0, sps.bitDepthChroma - 10) {
                throw fail("log2_sao_offset_scale_chroma", "value \(range.log2SAOOffsetScaleChroma) above Max(0, BitDepthC − 10) = \(max(0, sps.bitDepthChroma - 10))")
            }
        }
    }

    /// Writes `pic_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.3.1), including `rbsp_trailing_bits()`.
    /// - Returns: the RBSP (no NAL unit header, no emulation prevention).
    public func rbsp() -> [UInt8] {
        var writer = BitWriter()
        writer.ue(picParameterSetID)
        writer.ue(seqParameterSetID)
        writer.flag(dependentSliceSegmentsEnabledFlag)
        writer.flag(outputFlagPresentFlag)
        writer.u(3, numExtraSliceHeaderBits)
        writer.flag(signDataHidingEnabledFlag)
        writer.flag(cabacInitPresentFlag)
        writer.ue(numRefIdxL0DefaultActiveMinus1)
        writer.ue(numRefIdxL1DefaultActiveMinus1)
        writer.se(initQPMinus26)
        writer.flag(constrainedIntraPredFlag)
        writer.flag(transformSkipEnabledFlag)
        writer.flag(cuQPDeltaEnabledFlag)
        if cuQPDeltaEnabledFlag { writer.ue(diffCUQPDeltaDepth) }
        writer.se(cbQPOffset)
        writer.se(crQPOffset)
        writer.flag(sliceChromaQPOffsetsPresentFlag)
        writer.flag(weightedPredFlag)
        writer.flag(weightedBipredFlag)
        writer.flag(transquantBypassEnabledFlag)
        writer.flag(tiles != nil)
        writer.flag(entropyCodingSyncEnabledFlag)
        if let tiles {
            writer.ue(tiles.numTileColumnsMinus1)
            writer.ue(tiles.numTileRowsMinus1)
            writer.flag(tiles.uniformSpacingFlag)
            if !tiles.uniformSpacingFlag {
                for index in 0..<tiles.numTileColumnsMinus1 {
                    writer.ue(index < tiles.columnWidthsMinus1.count ? tiles.columnWidthsMinus1[index] : 0)
                }
                for index in 0..<tiles.numTileRowsMinus1 {
                    writer.ue(index < tiles.rowHeightsMinus1.count ? tiles.rowHeightsMinus1[index] : 0)
                }
            }
            writer.flag(tiles.loopFilterAcrossTilesEnabledFlag)
        }
        writer.flag(loopFilterAcrossSlicesEnabledFlag)
        writer.flag(deblockingFilterControl != nil)
        if let control = deblockingFilterControl {
            writer.flag(control.overrideEnabledFlag)
            writer.flag(control.disabledFlag)
            if !control.disabledFlag {
                writer.se(control.betaOffsetDiv2)
                writer.se(control.tcOffsetDiv2)
            }
        }
        writer.flag(scalingListData != nil)
        scalingListData?.write(to: &writer)
        writer.flag(listsModificationPresentFlag)
        writer.ue(log2ParallelMergeLevelMinus2)
        writer.flag(sliceSegmentHeaderExtensionPresentFlag)
        extensions.write(to: &writer) { range, writer in
            range.write(to: &writer, transformSkipEnabled: transformSkipEnabledFlag)
        }
        writer.rbspTrailingBits()
        return writer.bytes
    }

    /// The complete NAL unit: ``nalUnitHeader`` followed by the EBSP of ``rbsp()``.
    /// - Returns: the NAL unit bytes, without start code.
    public func nalUnit() -> [UInt8] {
        NALUnitPayload.build(header: nalUnitHeader, rbsp: rbsp())
    }
}
