import Bitstream

/// A sequence parameter set: `seq_parameter_set_rbsp()` of ITU-T H.265 §7.3.2.2.1.
///
/// Every element of the base specification is parsed and range-checked, including
/// `scaling_list_data()` (§7.3.4, kept as coded), short-term reference picture sets with inter RPS
/// prediction (§7.3.7), long-term reference pictures, `vui_parameters()` (§E.2.1) and
/// `sps_range_extension()`. The multilayer, 3D and SCC extensions and `sps_extension_4bits` data
/// are kept as raw bits in ``extensionData`` so parse → write stays byte-identical.
///
/// Only SPSs with `nuh_layer_id` 0 are read (the Annex F multilayer syntax is not supported).
public struct HEVCSequenceParameterSet: Sendable, Hashable {
    /// The largest `pic_width_in_luma_samples` / `pic_height_in_luma_samples` accepted: a level 6.2
    /// picture (MaxLumaPs 35 651 584, Table A.8) may be at most √(MaxLumaPs × 8) = 16 888 samples wide.
    public static let maximumPictureDimension = 16_888

    /// The PCM group (`pcm_enabled_flag` = 1).
    public struct PCM: Sendable, Hashable {
        /// `pcm_sample_bit_depth_luma_minus1`, 0…BitDepthY − 1.
        public var sampleBitDepthLumaMinus1: Int
        /// `pcm_sample_bit_depth_chroma_minus1`, 0…BitDepthC − 1.
        public var sampleBitDepthChromaMinus1: Int
        /// `log2_min_pcm_luma_coding_block_size_minus3`.
        public var log2MinPCMLumaCodingBlockSizeMinus3: Int
        /// `log2_diff_max_min_pcm_luma_coding_block_size`.
        public var log2DiffMaxMinPCMLumaCodingBlockSize: Int
        /// `pcm_loop_filter_disabled_flag`.
        public var loopFilterDisabledFlag: Bool

        /// Creates a PCM group.
        /// - Parameters:
        ///   - sampleBitDepthLumaMinus1: `pcm_sample_bit_depth_luma_minus1`.
        ///   - sampleBitDepthChromaMinus1: `pcm_sample_bit_depth_chroma_minus1`.
        ///   - log2MinPCMLumaCodingBlockSizeMinus3: `log2_min_pcm_luma_coding_block_size_minus3`.
        ///   - log2DiffMaxMinPCMLumaCodingBlockSize: `log2_diff_max_min_pcm_luma_coding_block_size`.
        ///   - loopFilterDisabledFlag: `pcm_loop_filter_disabled_flag`.
        public init(sampleBitDepthLumaMinus1: Int = 7, sampleBitDepthChromaMinus1: Int = 7,
                    log2MinPCMLumaCodingBlockSizeMinus3: Int = 0, log2DiffMaxMinPCMLumaCodingBlockSize: Int = 0,
                    loopFilterDisabledFlag: Bool = false) {
            self.sampleBitDepthLumaMinus1 = sampleBitDepthLumaMinus1
            self.sampleBitDepthChromaMinus1 = sampleBitDepthChromaMinus1
            self.log2MinPCMLumaCodingBlockSizeMinus3 = log2MinPCMLumaCodingBlockSizeMinus3
            self.log2DiffMaxMinPCMLumaCodingBlockSize = log2DiffMaxMinPCMLumaCodingBlockSize
            self.loopFilterDisabledFlag = loopFilterDisabledFlag
        }
    }

    /// A long-term reference picture candidate of the SPS.
    public struct LongTermPicture: Sendable, Hashable {
        /// `lt_ref_pic_poc_lsb_sps[i]` (u(v), `log2_max_pic_order_cnt_lsb_minus4 + 4` bits).
        public var pocLsb: Int
        /// `used_by_curr_pic_lt_sps_flag[i]`.
        public var isUsedByCurrentPicture: Bool

        /// Creates a long-term candidate.
        /// - Parameters:
        ///   - pocLsb: `lt_ref_pic_poc_lsb_sps`.
        ///   - isUsedByCurrentPicture: `used_by_curr_pic_lt_sps_flag`.
        public init(pocLsb: Int, isUsedByCurrentPicture: Bool) {
            self.pocLsb = pocLsb
            self.isUsedByCurrentPicture = isUsedByCurrentPicture
        }
    }

    /// The NAL unit header used by ``nalUnit()`` (type `SPS_NUT`).
    public var nalUnitHeader = HEVCNALUnitHeader(type: .sps)
    /// `sps_video_parameter_set_id`, 0…15.
    public var videoParameterSetID = 0
    /// `sps_max_sub_layers_minus1`, 0…6.
    public var maxSubLayersMinus1 = 0
    /// `sps_temporal_id_nesting_flag` (1 when `maxSubLayersMinus1` is 0).
    public var temporalIDNestingFlag = true
    /// `profile_tier_level( 1, sps_max_sub_layers_minus1 )`.
    public var profileTierLevel = HEVCProfileTierLevel(generalLevelIDC: 123)
    /// `sps_seq_parameter_set_id`, 0…15.
    public var seqParameterSetID = 0
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public var chromaFormatIDC = 1
    /// `separate_colour_plane_flag` (coded when `chroma_format_idc` is 3).
    public var separateColourPlaneFlag = false
    /// `pic_width_in_luma_samples`: a non-zero multiple of MinCbSizeY.
    public var picWidthInLumaSamples = 1920
    /// `pic_height_in_luma_samples`: a non-zero multiple of MinCbSizeY.
    public var picHeightInLumaSamples = 1080
    /// The conformance window; `nil` when `conformance_window_flag` is 0.
    public var conformanceWindow: HEVCWindow?
    /// `bit_depth_luma_minus8`, 0…8.
    public var bitDepthLumaMinus8 = 0
    /// `bit_depth_chroma_minus8`, 0…8.
    public var bitDepthChromaMinus8 = 0
    /// `log2_max_pic_order_cnt_lsb_minus4`, 0…12.
    public var log2MaxPicOrderCntLsbMinus4 = 4
    /// `sps_sub_layer_ordering_info_present_flag`.
    public var subLayerOrderingInfoPresentFlag = true
    /// `maxSubLayersMinus1 + 1` entries; when the present flag is 0 only the last is coded and all are equal.
    public var subLayerOrderingInfo = [HEVCSubLayerOrderingInfo()]
    /// `log2_min_luma_coding_block_size_minus3`.
    public var log2MinLumaCodingBlockSizeMinus3 = 0
    /// `log2_diff_max_min_luma_coding_block_size`.
    public var log2DiffMaxMinLumaCodingBlockSize = 3
    /// `log2_min_luma_transform_block_size_minus2`.
    public var log2MinLumaTransformBlockSizeMinus2 = 0
    /// `log2_diff_max_min_luma_transform_block_size`.
    public var log2DiffMaxMinLumaTransformBlockSize = 3
    /// `max_transform_hierarchy_depth_inter`.
    public var maxTransformHierarchyDepthInter = 0
    /// `max_transform_hierarchy_depth_intra`.
    public var maxTransformHierarchyDepthIntra = 0
    /// `scaling_list_enabled_flag`.
    public var scalingListEnabledFlag = false
    /// The SPS scaling lists; `nil` when `sps_scaling_list_data_present_flag` is 0 (defaults apply).
    public var scalingListData: HEVCScalingListData?
    /// `amp_enabled_flag`.
    public var ampEnabledFlag = false
    /// `sample_adaptive_offset_enabled_flag`.
    public var sampleAdaptiveOffsetEnabledFlag = false
    /// The PCM parameters; `nil` when `pcm_enabled_flag` is 0.
    public var pcm: PCM?
    /// The `num_short_term_ref_pic_sets` (0…64) short-term reference picture sets.
    public var shortTermReferencePictureSets: [HEVCShortTermReferencePictureSet] = []
    /// `long_term_ref_pics_present_flag`.
    public var longTermReferencePicturesPresentFlag = false
    /// The `num_long_term_ref_pics_sps` (0…32) long-term candidates.
    public var longTermReferencePictures: [LongTermPicture] = []
    /// `sps_temporal_mvp_enabled_flag`.
    public var temporalMVPEnabledFlag = false
    /// `strong_intra_smoothing_enabled_flag`.
    public var strongIntraSmoothingEnabledFlag = false
    /// The VUI; `nil` when `vui_parameters_present_flag` is 0.
    public var vui: HEVCVUIParameters?
    /// `sps_extension_present_flag`: 1 whenever an extension is set; setting it to `true` with no
    /// extension writes the flag with all four extension flags 0 (legal, and kept when parsed).
    public var extensionPresentFlag: Bool {
        get { extensions.extensionPresentFlag }
        set { extensions.extensionPresentFlag = newValue }
    }
    /// The range extension; `nil` when `sps_range_extension_flag` is 0.
    public var rangeExtension: HEVCSPSRangeExtension? {
        get { extensions.rangeExtension }
        set { extensions.rangeExtension = newValue }
    }
    /// `sps_multilayer_extension_flag` (its data is in ``extensionData``).
    public var multilayerExtensionFlag: Bool {
        get { extensions.multilayerExtensionFlag }
        set { extensions.multilayerExtensionFlag = newValue }
    }
    /// `sps_3d_extension_flag` (its data is in ``extensionData``).
    public var threeDExtensionFlag: Bool {
        get { extensions.threeDExtensionFlag }
        set { extensions.threeDExtensionFlag = newValue }
    }
    /// `sps_scc_extension_flag` (its data is in ``extensionData``).
    public var sccExtensionFlag: Bool {
        get { extensions.sccExtensionFlag }
        set { extensions.sccExtensionFlag = newValue }
    }
    /// `sps_extension_4bits` (its data is in ``extensionData``).
    public var extension4Bits: Int {
        get { extensions.extension4Bits }
        set { extensions.extension4Bits = newValue }
    }
    /// The unparsed multilayer / 3D / SCC extensions and `sps_extension_data_flag`s, up to the stop bit.
    public var extensionData: HEVCRawBits {
        get { extensions.extensionData }
        set { extensions.extensionData = newValue }
    }
    /// The storage behind the extension properties above; its reading and writing are shared with the PPS.
    private var extensions = HEVCParameterSetExtensions<HEVCSPSRangeExtension>()

    /// Creates an SPS for 1920×1080 4:2:0 8-bit, Main profile level 4.1, 64×64 CTBs; change what you need.
    public init() {}

    // MARK: - Derived values

    /// `ChromaArrayType`: 0 when colour planes are separate, else `chroma_format_idc`.
    public var chromaArrayType: Int { separateColourPlaneFlag ? 0 : chromaFormatIDC }
    /// `SubWidthC` (Table 6-1).
    public var subWidthC: Int { (chromaFormatIDC == 1 || chromaFormatIDC == 2) && !separateColourPlaneFlag ? 2 : 1 }
    /// `SubHeightC` (Table 6-1).
    public var subHeightC: Int { chromaFormatIDC == 1 && !separateColourPlaneFlag ? 2 : 1 }
    /// `BitDepthY`.
    public var bitDepthLuma: Int { bitDepthLumaMinus8 + 8 }
    /// `BitDepthC`.
    public var bitDepthChroma: Int { bitDepthChromaMinus8 + 8 }
    /// `MaxPicOrderCntLsb` = 2^(`log2_max_pic_order_cnt_lsb_minus4` + 4).
    public var maxPicOrderCntLsb: Int { 1 << (log2MaxPicOrderCntLsbMinus4 + 4) }
    /// `MinCbLog2SizeY`.
    public var minCbLog2SizeY: Int { log2MinLumaCodingBlockSizeMinus3 + 3 }
    /// `CtbLog2SizeY`.
    public var ctbLog2SizeY: Int { minCbLog2SizeY + log2DiffMaxMinLumaCodingBlockSize }
    /// `CtbSizeY`.
    public var ctbSizeY: Int { 1 << ctbLog2SizeY }
    /// `PicWidthInCtbsY`.
    public var picWidthInCtbsY: Int { (picWidthInLumaSamples + ctbSizeY - 1) >> ctbLog2SizeY }
    /// `PicHeightInCtbsY`.
    public var picHeightInCtbsY: Int { (picHeightInLumaSamples + ctbSizeY - 1) >> ctbLog2SizeY }
    /// `PicSizeInCtbsY`.
    public var picSizeInCtbsY: Int {
        let (size, overflow) = picWidthInCtbsY.multipliedReportingOverflow(by: picHeightInCtbsY)
        return overflow ? Int.max : size
    }

    /// The output width in luma samples: the picture width minus the conformance window.
    public var width: Int {
        let window = conformanceWindow ?? HEVCWindow()
        return picWidthInLumaSamples - subWidthC * (window.leftOffset + window.rightOffset)
    }

    /// The output height in luma samples: the picture height minus the conformance window.
    public var height: Int {
        let window = conformanceWindow ?? HEVCWindow()
        return picHeightInLumaSamples - subHeightC * (window.topOffset + window.bottomOffset)
    }

    /// Pictures per second from the VUI timing (`vui_time_scale` / `vui_num_units_in_tick`), or `nil`.
    public var frameRate: Double? {
        guard let timing = vui?.timing, timing.numUnitsInTick > 0 else { return nil }
        return Double(timing.timeScale) / Double(timing.numUnitsInTick)
    }

    /// The general profile's name as ffprobe prints it ("Main", "Main 10", "Rext" …).
    public var profileName: String? { profileTierLevel.profileName }
    /// The general level, for example "3.1".
    public var levelName: String { profileTierLevel.levelName }

    // MARK: - Parsing

    /// Parses an SPS NAL unit.
    /// - Parameter nalUnit: the NAL unit (header and EBSP), without start code.
    /// - Throws: ``HEVCError`` for a bad header, a type other than `SPS_NUT`, `nuh_layer_id` > 0,
    ///   a missing emulation-prevention byte, or a syntax error naming the field.
    public init<Bytes: Collection>(nalUnit: Bytes) throws(HEVCError) where Bytes.Element == UInt8 {
        let (header, rbsp) = try NALUnitPayload.split(nalUnit, expecting: [.sps], name: "SPS_NUT")
        guard header.layerID == 0 else {
            throw .unsupported("SPS with nuh_layer_id \(header.layerID) (multilayer syntax of Annex F)")
        }
        try self.init(rbsp: rbsp)
        nalUnitHeader = header
    }

    /// Parses `seq_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.2.1) of a base-layer SPS.
    /// - Parameter rbsp: the RBSP (after the NAL unit header, emulation prevention removed).
    /// - Throws: ``HEVCError/syntax(_:nalUnitType:)`` naming the field that is truncated or out of range.
    public init(rbsp: [UInt8]) throws(HEVCError) {
        self.init()
        var reader = BitReader(rbsp)
        try NALUnitPayload.parse(.sps) { () throws(SyntaxError) in try read(from: &reader) }
    }

    /// The body of `seq_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.2.1).
    private mutating func read(from reader: inout BitReader) throws(SyntaxError) {
        videoParameterSetID = Int(try reader.u(4, "sps_video_parameter_set_id"))
        maxSubLayersMinus1 = try reader.uInt(3, "sps_max_sub_layers_minus1", range: 0...6)
        let nestingStart = reader.bitPosition
        temporalIDNestingFlag = try reader.flag("sps_temporal_id_nesting_flag")
        if maxSubLayersMinus1 == 0 && !temporalIDNestingFlag {
            throw SyntaxError(field: "sps_temporal_id_nesting_flag", bitOffset: nestingStart,
                              reason: .invalid("must be 1 when sps_max_sub_layers_minus1 is 0"))
        }
        profileTierLevel = try HEVCProfileTierLevel(from: &reader, profilePresent: true,
                                                    maxNumSubLayersMinus1: maxSubLayersMinus1)
        seqParameterSetID = try reader.ueInt("sps_seq_parameter_set_id", range: 0...15)
        chromaFormatIDC = try reader.ueInt("chroma_format_idc", range: 0...3)
        separateColourPlaneFlag = chromaFormatIDC == 3 ? try reader.flag("separate_colour_plane_flag") : false
        let widthStart = reader.bitPosition
        picWidthInLumaSamples = try reader.ueInt("pic_width_in_luma_samples", range: 1...Self.maximumPictureDimension)
        let heightStart = reader.bitPosition
        picHeightInLumaSamples = try reader.ueInt("pic_height_in_luma_samples", range: 1...Self.maximumPictureDimension)
        conformanceWindow = nil
        if try reader.flag("conformance_window_flag") {
            let start = reader.bitPosition
            let window = HEVCWindow(leftOffset: try reader.ueInt("conf_win_left_offset", range: 0...Self.maximumPictureDimension),
                                    rightOffset: try reader.ueInt("conf_win_right_offset", range: 0...Self.maximumPictureDimension),
                                    topOffset: try reader.ueInt("conf_win_top_offset", range: 0...Self.maximumPictureDimension),
                                    bottomOffset: try reader.ueInt("conf_win_bottom_offset", range: 0...Self.maximumPictureDimension))
            conformanceWindow = window
            if subWidthC * (window.leftOffset + window.rightOffset) >= picWidthInLumaSamples {
                throw SyntaxError(field: "conf_win_right_offset", bitOffset: start,
                                  reason: .invalid("the conformance window leaves no column of the \(picWidthInLumaSamples)-sample-wide picture"))
            }
            if subHeightC * (window.topOffset + window.bottomOffset) >= picHeightInLumaSamples {
                throw SyntaxError(field: "conf_win_bottom_offset", bitOffset: start,
                                  reason: .invalid("the conformance window leaves no row of the \(picHeightInLumaSamples)-sample-high picture"))
            }
        }
        bitDepthLumaMinus8 = try reader.ueInt("bit_depth_luma_minus8", range: 0...8)
        bitDepthChromaMinus8 = try reader.ueInt("bit_depth_chroma_minus8", range: 0...8)
        log2MaxPicOrderCntLsbMinus4 = try reader.ueInt("log2_max_pic_order_cnt_lsb_minus4", range: 0...12)
        subLayerOrderingInfoPresentFlag = try reader.flag("sps_sub_layer_ordering_info_present_flag")
        subLayerOrderingInfo = try HEVCSubLayerOrderingInfo.readList(
            from: &reader, infoPresent: subLayerOrderingInfoPresentFlag,
            maxSubLayersMinus1: maxSubLayersMinus1, video: false)
        try readBlockSizes(from: &reader)
        let minCbSize = 1 << minCbLog2SizeY
        if picWidthInLumaSamples % minCbSize != 0 {
            throw SyntaxError(field: "pic_width_in_luma_samples", bitOffset: widthStart,
                              reason: .invalid("\(picWidthInLumaSamples) is not a multiple of MinCbSizeY \(minCbSize)"))
        }
        if picHeightInLumaSamples % minCbSize != 0 {
            throw SyntaxError(field: "pic_height_in_luma_samples", bitOffset: heightStart,
                              reason: .invalid("\(picHeightInLumaSamples) is not a multiple of MinCbSizeY \(minCbSize)"))
        }
        scalingListEnabledFlag = try reader.flag("scaling_list_enabled_flag")
        scalingListData = nil
        if scalingListEnabledFlag, try reader.flag("sps_scaling_list_data_present_flag") {
            scalingListData = try HEVCScalingListData(from: &reader)
        }
        ampEnabledFlag = try reader.flag("amp_enabled_flag")
        sampleAdaptiveOffsetEnabledFlag = try reader.flag("sample_adaptive_offset_enabled_flag")
        pcm = nil
        if try reader.flag("pcm_enabled_flag") {
            pcm = try readPCM(from: &reader)
        }
        let setCount = try reader.ueInt("num_short_term_ref_pic_sets", range: 0...64)
        let dpbLimit = subLayerOrderingInfo.last?.maxDecPicBufferingMinus1 ?? 0
        shortTermReferencePictureSets = []
        for index in 0..<setCount {
            shortTermReferencePictureSets.append(try HEVCShortTermReferencePictureSet(
                from: &reader, index: index, earlierSets: shortTermReferencePictureSets,
                setCount: setCount, maxDecPicBufferingMinus1: dpbLimit))
        }
        longTermReferencePicturesPresentFlag = try reader.flag("long_term_ref_pics_present_flag")
        longTermReferencePictures = []
        if longTermReferencePicturesPresentFlag {
            let count = try reader.ueInt("num_long_term_ref_pics_sps", range: 0...32)
            for _ in 0..<count {
                let lsb = Int(try reader.u(log2MaxPicOrderCntLsbMinus4 + 4, "lt_ref_pic_poc_lsb_sps"))
                let used = try reader.flag("used_by_curr_pic_lt_sps_flag")
                longTermReferencePictures.append(LongTermPicture(pocLsb: lsb, isUsedByCurrentPicture: used))
            }
        }
        temporalMVPEnabledFlag = try reader.flag("sps_temporal_mvp_enabled_flag")
        strongIntraSmoothingEnabledFlag = try reader.flag("strong_intra_smoothing_enabled_flag")
        vui = nil
        if try reader.flag("vui_parameters_present_flag") {
            vui = try HEVCVUIParameters(from: &reader, maxSubLayersMinus1: maxSubLayersMinus1)
        }
        try readExtensions(from: &reader)
        try reader.finishRBSP()
    }

    /// Reads the coding and transform block sizes of §7.3.2.2.1 and checks them against §7.4.3.2.1
    /// and the CTB sizes every profile allows (CtbLog2SizeY 4…6, §A.3).
    private mutating func readBlockSizes(from reader: inout BitReader) throws(SyntaxError) {
        log2MinLumaCodingBlockSizeMinus3 = try reader.ueInt("log2_min_luma_coding_block_size_minus3", range: 0...3)
        let minCb = minCbLog2SizeY
        log2DiffMaxMinLumaCodingBlockSize = try reader.ueInt("log2_diff_max_min_luma_coding_block_size",
                                                             range: max(0, 4 - minCb)...(6 - minCb))
        let ctb = ctbLog2SizeY
        log2MinLumaTransformBlockSizeMinus2 = try reader.ueInt("log2_min_luma_transform_block_size_minus2",
                                                               range: 0...(minCb - 3))
        let minTb = log2MinLumaTransformBlockSizeMinus2 + 2
        log2DiffMaxMinLumaTransformBlockSize = try reader.ueInt("log2_diff_max_min_luma_transform_block_size",
                                                                range: 0...(min(ctb, 5) - minTb))
        maxTransformHierarchyDepthInter = try reader.ueInt("max_transform_hierarchy_depth_inter", range: 0...(ctb - minTb))
        maxTransformHierarchyDepthIntra = try reader.ueInt("max_transform_hierarchy_depth_intra", range: 0...(ctb - minTb))
    }

    /// Reads the PCM group of §7.3.2.2.1 with the ranges of §7.4.3.2.1.
    private func readPCM(from reader: inout BitReader) throws(SyntaxError) -> PCM {
        var pcm = PCM()
        pcm.sampleBitDepthLumaMinus1 = try reader.uInt(4, "pcm_sample_bit_depth_luma_minus1", range: 0...(bitDepthLuma - 1))
        pcm.sampleBitDepthChromaMinus1 = try reader.uInt(4, "pcm_sample_bit_depth_chroma_minus1", range: 0...(bitDepthChroma - 1))
        let lowest = min(minCbLog2SizeY, 5)
        let highest = min(ctbLog2SizeY, 5)
        pcm.log2MinPCMLumaCodingBlockSizeMinus3 = try reader.ueInt("log2_min_pcm_luma_coding_block_size_minus3",
                                                                   range: (lowest - 3)...(highest - 3))
        pcm.log2DiffMaxMinPCMLumaCodingBlockSize = try reader.ueInt(
            "log2_diff_max_min_pcm_luma_coding_block_size",
            range: 0...(highest - pcm.log2MinPCMLumaCodingBlockSizeMinus3 - 3))
        pcm.loopFilterDisabledFlag = try reader.flag("pcm_loop_filter_disabled_flag")
        return pcm
    }

    /// Reads the extension flags of §7.3.2.2.1, `sps_range_extension()` and the raw rest.
    private mutating func readExtensions(from reader: inout BitReader) throws(SyntaxError) {
        try extensions.read(from: &reader, names: Self.extensionFieldNames) { (reader) throws(SyntaxError) in
            try HEVCSPSRangeExtension(from: &reader)
        }
    }

    /// The names of the `sps_extension_*` syntax elements, for parse errors.
    private static let extensionFieldNames = HEVCParameterSetExtensions<HEVCSPSRangeExtension>.FieldNames(
        presentFlag: "sps_extension_present_flag", rangeFlag: "sps_range_extension_flag",
        multilayerFlag: "sps_multilayer_extension_flag", threeDFlag: "sps_3d_extension_flag",
        sccFlag: "sps_scc_extension_flag", fourBits: "sps_extension_4bits", dataFlag: "sps_extension_data_flag")

    // MARK: - Writing

    /// Writes `seq_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.2.1), including `rbsp_trailing_bits()`.
    /// - Returns: the RBSP (no NAL unit header, no emulation prevention).
    public func rbsp() -> [UInt8] {
        var writer = BitWriter()
        writer.u(4, videoParameterSetID)
        writer.u(3, maxSubLayersMinus1)
        writer.flag(temporalIDNestingFlag)
        profileTierLevel.write(to: &writer)
        writer.ue(seqParameterSetID)
        writer.ue(chromaFormatIDC)
        if chromaFormatIDC == 3 { writer.flag(separateColourPlaneFlag) }
        writer.ue(picWidthInLumaSamples)
        writer.ue(picHeightInLumaSamples)
        writer.flag(conformanceWindow != nil)
        if let window = conformanceWindow {
            writer.ue(window.leftOffset)
            writer.ue(window.rightOffset)
            writer.ue(window.topOffset)
            writer.ue(window.bottomOffset)
        }
        writer.ue(bitDepthLumaMinus8)
        writer.ue(bitDepthChromaMinus8)
        writer.ue(log2MaxPicOrderCntLsbMinus4)
        writer.flag(subLayerOrderingInfoPresentFlag)
        HEVCSubLayerOrderingInfo.writeList(subLayerOrderingInfo, infoPresent: subLayerOrderingInfoPresentFlag, to: &writer)
        writer.ue(log2MinLumaCodingBlockSizeMinus3)
        writer.ue(log2DiffMaxMinLumaCodingBlockSize)
        writer.ue(log2MinLumaTransformBlockSizeMinus2)
        writer.ue(log2DiffMaxMinLumaTransformBlockSize)
        writer.ue(maxTransformHierarchyDepthInter)
        writer.ue(maxTransformHierarchyDepthIntra)
        writer.flag(scalingListEnabledFlag)
        if scalingListEnabledFlag {
            writer.flag(scalingListData != nil)
            scalingListData?.write(to: &writer)
        }
        writer.flag(ampEnabledFlag)
        writer.flag(sampleAdaptiveOffsetEnabledFlag)
        writer.flag(pcm != nil)
        if let pcm {
            writer.u(4, pcm.sampleBitDepthLumaMinus1)
            writer.u(4, pcm.sampleBitDepthChromaMinus1)
            writer.ue(pcm.log2MinPCMLumaCodingBlockSizeMinus3)
            writer.ue(pcm.log2DiffMaxMinPCMLumaCodingBlockSize)
            writer.flag(pcm.loopFilterDisabledFlag)
        }
        writer.ue(shortTermReferencePictureSets.count)
        for (index, set) in shortTermReferencePictureSets.enumerated() {
            set.write(to: &writer, index: index, setCount: shortTermReferencePictureSets.count)
        }
        writer.flag(longTermReferencePicturesPresentFlag)
        if longTermReferencePicturesPresentFlag {
            writer.ue(longTermReferencePictures.count)
            for picture in longTermReferencePictures {
                writer.u(min(max(log2MaxPicOrderCntLsbMinus4 + 4, 0), 32), picture.pocLsb)
                writer.flag(picture.isUsedByCurrentPicture)
            }
        }
        writer.flag(temporalMVPEnabledFlag)
        writer.flag(strongIntraSmoothingEnabledFlag)
        writer.flag(vui != nil)
        vui?.write(to: &writer)
        extensions.write(to: &writer) { range, writer in range.write(to: &writer) }
        writer.rbspTrailingBits()
        return writer.bytes
    }

    /// The complete NAL unit: ``nalUnitHeader`` followed by the EBSP of ``rbsp()``.
    /// - Returns: the NAL unit bytes, without start code.
    public func nalUnit() -> [UInt8] {
        NALUnitPayload.build(header: nalUnitHeader, rbsp: rbsp())
    }
}
