import Foundation
import Testing
import Bitstream
import HEVC
import TestSupport

/// Writing: parameter sets built in Swift with the features the real streams lack (sub-layers,
/// layer sets, VPS timing with two HRD entries, sub-picture HRD, PCM, long-term pictures, inter RPS
/// prediction, every VUI group, explicit tiles, deblocking control, range extensions, raw extension
/// bits) are read back by ffmpeg's own parser (`trace_headers`) with the values we wrote.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct HEVCWriterTests {
    static func profileTierLevel() -> HEVCProfileTierLevel {
        // Format range extensions profile (4), compatible with 4; constraint flags: progressive,
        // frame only, max 12-bit, max 10-bit, max 4:2:2.
        let general = HEVCProfileTierLevel.Profile(profileIDC: 4, compatibilityFlags: 1 << (31 - 4),
                                                   constraintIndicatorFlags: 0b1001_1101 << 40)
        var ptl = HEVCProfileTierLevel(general: general, generalLevelIDC: 123,
                                       subLayers: [.init(profile: general, levelIDC: 90), .init(levelIDC: 93)])
        ptl.reservedZeroBits = 0
        return ptl
    }

    static func hrd(subLayers: Int) -> HEVCHRDParameters {
        var common = HEVCHRDParameters.Common()
        common.nalHRDParametersPresentFlag = true
        common.vclHRDParametersPresentFlag = true
        common.subPicHRDParamsPresentFlag = true
        common.tickDivisorMinus2 = 7
        common.duCPBRemovalDelayIncrementLengthMinus1 = 4
        common.dpbOutputDelayDULengthMinus1 = 6
        common.bitRateScale = 2
        common.cpbSizeScale = 3
        common.cpbSizeDUScale = 1
        common.initialCPBRemovalDelayLengthMinus1 = 20
        var entries = [HEVCHRDParameters.SubLayer]()
        for index in 0..<subLayers {
            var entry = HEVCHRDParameters.SubLayer()
            entry.fixedPicRateGeneralFlag = index == 0
            entry.fixedPicRateWithinCVSFlag = index != 2
            entry.elementalDurationInTcMinus1 = index == 2 ? 0 : index
            entry.lowDelayHRDFlag = false
            entry.cpbCountMinus1 = index == 1 ? 1 : 0
            let specs = (0...entry.cpbCountMinus1).map {
                HEVCHRDParameters.CPBSpecification(bitRateValueMinus1: 1000 + 500 * $0, cpbSizeValueMinus1: 3000 - $0,
                                                   cpbSizeDUValueMinus1: 77, bitRateDUValueMinus1: 66, cbrFlag: $0 == 1)
            }
            entry.nalCPBSpecifications = specs
            entry.vclCPBSpecifications = specs
            entries.append(entry)
        }
        return HEVCHRDParameters(common: common, subLayers: entries)
    }

    static func videoParameterSet() -> HEVCVideoParameterSet {
        var vps = HEVCVideoParameterSet()
        vps.videoParameterSetID = 3
        vps.maxSubLayersMinus1 = 2
        vps.temporalIDNestingFlag = false
        vps.profileTierLevel = profileTierLevel()
        vps.subLayerOrderingInfo = [.init(maxDecPicBufferingMinus1: 2, maxNumReorderPics: 0, maxLatencyIncreasePlus1: 0),
                                    .init(maxDecPicBufferingMinus1: 3, maxNumReorderPics: 1, maxLatencyIncreasePlus1: 5),
                                    .init(maxDecPicBufferingMinus1: 4, maxNumReorderPics: 2, maxLatencyIncreasePlus1: 9)]
        vps.maxLayerID = 2
        vps.layerIDIncludedFlags = [[true, false, true], [true, true, false]]
        // Only VCL HRD parameters, no sub-picture parameters (so no DU values are coded).
        var second = hrd(subLayers: 3)
        second.common = HEVCHRDParameters.Common()
        second.common.vclHRDParametersPresentFlag = true
        for index in second.subLayers.indices {
            second.subLayers[index].nalCPBSpecifications = []
            for cpb in second.subLayers[index].vclCPBSpecifications.indices {
                second.subLayers[index].vclCPBSpecifications[cpb].cpbSizeDUValueMinus1 = 0
                second.subLayers[index].vclCPBSpecifications[cpb].bitRateDUValueMinus1 = 0
            }
        }
        vps.timing = .init(numUnitsInTick: 1001, timeScale: 60000, numTicksPOCDiffOneMinus1: 1,
                           hrdParameters: [.init(layerSetIndex: 0, parameters: hrd(subLayers: 3)),
                                           .init(layerSetIndex: 2, parameters: second)])
        return vps
    }

    static func sequenceParameterSet() -> HEVCSequenceParameterSet {
        var sps = HEVCSequenceParameterSet()
        sps.videoParameterSetID = 3
        sps.maxSubLayersMinus1 = 2
        sps.temporalIDNestingFlag = false
        sps.profileTierLevel = profileTierLevel()
        sps.seqParameterSetID = 5
        sps.chromaFormatIDC = 2
        sps.picWidthInLumaSamples = 640
        sps.picHeightInLumaSamples = 368
        sps.conformanceWindow = HEVCWindow(leftOffset: 1, rightOffset: 2, topOffset: 0, bottomOffset: 8)
        sps.bitDepthLumaMinus8 = 2
        sps.bitDepthChromaMinus8 = 2
        sps.log2MaxPicOrderCntLsbMinus4 = 6
        sps.subLayerOrderingInfo = videoParameterSet().subLayerOrderingInfo
        sps.log2MinLumaCodingBlockSizeMinus3 = 0
        sps.log2DiffMaxMinLumaCodingBlockSize = 2
        sps.log2DiffMaxMinLumaTransformBlockSize = 3
        sps.maxTransformHierarchyDepthInter = 2
        sps.maxTransformHierarchyDepthIntra = 1
        sps.scalingListEnabledFlag = true
        var lists = HEVCScalingListData()
        lists.lists[0] = .init(predModeFlag: true, deltaCoefficients: (0..<16).map { $0 % 3 - 1 })
        lists.lists[13] = .init(predModeFlag: true, dcCoefficientMinus8: 4, deltaCoefficients: (0..<64).map { ($0 % 5) - 2 })
        lists.lists[19] = .init(predModeFlag: false, predMatrixIDDelta: 1)
        sps.scalingListData = lists
        sps.ampEnabledFlag = true
        sps.sampleAdaptiveOffsetEnabledFlag = true
        sps.pcm = .init(sampleBitDepthLumaMinus1: 7, sampleBitDepthChromaMinus1: 6, log2MinPCMLumaCodingBlockSizeMinus3: 0,
                        log2DiffMaxMinPCMLumaCodingBlockSize: 1, loopFilterDisabledFlag: true)
        let reference = HEVCShortTermReferencePictureSet(negativePictures: [.init(deltaPOC: -2)], positivePictures: [.init(deltaPOC: 2)])
        sps.shortTermReferencePictureSets = [
            .init(negativePictures: [.init(deltaPOC: -1), .init(deltaPOC: -3, isUsedByCurrentPicture: false)]),
            reference,
            .init(predictingFrom: reference, deltaRPS: -1, usedByCurrPicFlags: [true, false, true], useDeltaFlags: [true, false, true]),
        ]
        sps.longTermReferencePicturesPresentFlag = true
        sps.longTermReferencePictures = [.init(pocLsb: 17, isUsedByCurrentPicture: true), .init(pocLsb: 250, isUsedByCurrentPicture: false)]
        sps.temporalMVPEnabledFlag = true
        var vui = HEVCVUIParameters()
        vui.aspectRatio = .init(idc: 255, sarWidth: 4, sarHeight: 3)
        vui.overscanAppropriateFlag = true
        vui.videoSignalType = .init(videoFormat: 2, videoFullRangeFlag: true,
                                    colourDescription: .init(colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9))
        vui.chromaSampleLocation = .init(topField: 2, bottomField: 3)
        vui.fieldSeqFlag = false
        vui.defaultDisplayWindow = HEVCWindow(leftOffset: 4, rightOffset: 0, topOffset: 2, bottomOffset: 6)
        vui.timing = .init(numUnitsInTick: 1001, timeScale: 30000, numTicksPOCDiffOneMinus1: 0, hrdParameters: hrd(subLayers: 3))
        var restriction = HEVCVUIParameters.BitstreamRestriction()
        restriction.tilesFixedStructureFlag = true
        restriction.minSpatialSegmentationIDC = 200
        restriction.maxBytesPerPicDenom = 4
        restriction.log2MaxMVLengthHorizontal = 13
        vui.bitstreamRestriction = restriction
        sps.vui = vui
        var range = HEVCSPSRangeExtension()
        range.implicitRDPCMEnabledFlag = true
        range.persistentRiceAdaptationEnabledFlag = true
        sps.rangeExtension = range
        sps.extension4Bits = 1
        sps.extensionData = HEVCRawBits(bytes: [0b1010_0000], bitCount: 3)
        return sps
    }

    static func pictureParameterSet() -> HEVCPictureParameterSet {
        var pps = HEVCPictureParameterSet()
        pps.picParameterSetID = 40
        pps.seqParameterSetID = 5
        pps.dependentSliceSegmentsEnabledFlag = true
        pps.outputFlagPresentFlag = true
        pps.numExtraSliceHeaderBits = 2
        pps.cabacInitPresentFlag = true
        pps.numRefIdxL0DefaultActiveMinus1 = 3
        pps.initQPMinus26 = -30
        pps.transformSkipEnabledFlag = true
        pps.cuQPDeltaEnabledFlag = true
        pps.diffCUQPDeltaDepth = 1
        pps.cbQPOffset = -3
        pps.crQPOffset = 4
        pps.tiles = .init(numTileColumnsMinus1: 2, numTileRowsMinus1: 1, uniformSpacingFlag: false,
                          columnWidthsMinus1: [3, 1], rowHeightsMinus1: [2], loopFilterAcrossTilesEnabledFlag: false)
        pps.entropyCodingSyncEnabledFlag = true
        pps.deblockingFilterControl = .init(overrideEnabledFlag: true, disabledFlag: false, betaOffsetDiv2: -2, tcOffsetDiv2: 3)
        var lists = HEVCScalingListData()
        lists.lists[7] = .init(predModeFlag: true, deltaCoefficients: Array(repeating: 1, count: 64))
        pps.scalingListData = lists
        pps.listsModificationPresentFlag = true
        pps.log2ParallelMergeLevelMinus2 = 2
        var range = HEVCPPSRangeExtension()
        range.log2MaxTransformSkipBlockSizeMinus2 = 2
        range.chromaQPOffsetListEnabledFlag = true
        range.diffCUChromaQPOffsetDepth = 1
        range.cbQPOffsetList = [-2, 5]
        range.crQPOffsetList = [1, -12]
        pps.rangeExtension = range
        return pps
    }

    @Test("Swift-built parameter sets read back equal, and ffmpeg reads the values we wrote")
    func syntheticParameterSets() throws {
        let vps = Self.videoParameterSet()
        let sps = Self.sequenceParameterSet()
        let pps = Self.pictureParameterSet()
        #expect(try HEVCVideoParameterSet(nalUnit: vps.nalUnit()) == vps)
        #expect(try HEVCSequenceParameterSet(nalUnit: sps.nalUnit()) == sps)
        #expect(try HEVCPictureParameterSet(nalUnit: pps.nalUnit()) == pps)
        try pps.validate(against: sps)
        #expect(sps.width == 640 - 2 * 3 && sps.height == 368 - 8)   // 4:2:2: SubWidthC 2, SubHeightC 1
        #expect(sps.frameRate.map { abs($0 - 30000.0 / 1001.0) < 1e-9 } == true)
        // Inter RPS prediction, equations 7-61 and 7-62, worked by hand: from set 1 {−2, +2} with
        // deltaRps = −1 and use_delta_flag {1, 0, 1}: S0 = {deltaRps −1, −2 − 1 = −3}; +2 − 1 = +1 is dropped.
        for predicted in [sps.shortTermReferencePictureSets[2], try HEVCSequenceParameterSet(nalUnit: sps.nalUnit()).shortTermReferencePictureSets[2]] {
            #expect(predicted.negativePictures == [.init(deltaPOC: -1, isUsedByCurrentPicture: true), .init(deltaPOC: -3, isUsedByCurrentPicture: true)])
            #expect(predicted.positivePictures.isEmpty)
        }

        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ps.h265")
        let stream = [vps.nalUnit(), sps.nalUnit(), pps.nalUnit()].flatMap { AnnexB.startCode + $0 }
        try Data(stream).write(to: file)
        let blocks = try TraceHeaders.parameterSetBlocks(of: file.path, extradata: true)
        #expect(blocks.map(\.title) == ["Video Parameter Set", "Sequence Parameter Set", "Picture Parameter Set"])
        guard blocks.count == 3 else { return }
        let expectations: [(Int, [(String, [Int])])] = [
            (0, TraceHeaders.fields(of: vps) + [
                ("layer_id_included_flag", [1, 0, 1, 1, 1, 0]),
                ("vps_num_ticks_poc_diff_one_minus1", [1]),
                ("hrd_layer_set_idx", [0, 2]),
                ("cprms_present_flag", [1]),
                ("nal_hrd_parameters_present_flag", [1, 0]),
                ("sub_pic_hrd_params_present_flag", [1, 0]),
                ("tick_divisor_minus2", [7]),
                ("cpb_size_du_value_minus1", Array(repeating: 77, count: 8)),
                ("sub_layer_level_idc", [90, 93]),
                ("vps_extension_flag", [0]),
            ]),
            (1, TraceHeaders.fields(of: sps) + [
                ("pcm_sample_bit_depth_chroma_minus1", [6]),
                ("log2_diff_max_min_pcm_luma_coding_block_size", [1]),
                ("lt_ref_pic_poc_lsb_sps", [17, 250]),
                ("used_by_curr_pic_lt_sps_flag", [1, 0]),
                ("delta_rps_sign", [1]),
                ("use_delta_flag", [0]),
                ("sar_width", [4]),
                ("sar_height", [3]),
                ("transfer_characteristics", [16]),
                ("def_disp_win_bottom_offset", [6]),
                ("elemental_duration_in_tc_minus1", [0, 1]),
                ("low_delay_hrd_flag", [0]),
                ("log2_max_mv_length_horizontal", [13]),
                ("implicit_rdpcm_enabled_flag", [1]),
                ("persistent_rice_adaptation_enabled_flag", [1]),
                ("sps_extension_4bits", [1]),
                ("scaling_list_dc_coef_minus8", [4]),
            ]),
            (2, TraceHeaders.fields(of: pps) + [
                ("num_tile_columns_minus1", [2]),
                ("num_tile_rows_minus1", [1]),
                ("column_width_minus1", [3, 1]),
                ("row_height_minus1", [2]),
                ("loop_filter_across_tiles_enabled_flag", [0]),
                ("log2_max_transform_skip_block_size_minus2", [2]),
                ("cb_qp_offset_list", [-2, 5]),
                ("cr_qp_offset_list", [1, -12]),
                ("pps_range_extension_flag", [1]),
            ]),
        ]
        for (index, fields) in expectations {
            for (field, values) in fields {
                #expect(blocks[index].values(field) == values, "\(blocks[index].title): \(field)")
            }
        }
    }

    @Test("cprms_present_flag 0: the common HRD part is taken from the previous hrd_parameters() (§7.4.3.1)")
    func inheritedCommonHRD() throws {
        var vps = Self.videoParameterSet()
        var second = Self.hrd(subLayers: 3)
        second.isCommonInfoPresent = false
        vps.timing?.hrdParameters[1].parameters = second
        let parsed = try HEVCVideoParameterSet(nalUnit: vps.nalUnit())
        #expect(parsed == vps)
        #expect(parsed.timing?.hrdParameters[1].parameters.common == Self.hrd(subLayers: 3).common)
        // FFmpeg 5.1 reads the absent flags as 0 instead, so this case has no external oracle.
    }

    @Test("a PPS whose tiles do not fit its SPS is reported naming the field")
    func inconsistentTiles() throws {
        var pps = Self.pictureParameterSet()
        pps.tiles?.numTileColumnsMinus1 = 20   // 640 / 32 = 20 CTB columns: at most 19
        #expect(throws: HEVCError.inconsistentParameterSets(field: "num_tile_columns_minus1",
                                                            reason: "value 20 but the picture is 20 CTBs wide")) {
            try pps.validate(against: Self.sequenceParameterSet())
        }
        pps = Self.pictureParameterSet()
        pps.seqParameterSetID = 4
        var sets = HEVCParameterSets()
        sets.insert(Self.sequenceParameterSet())
        sets.insert(pps)
        #expect(throws: HEVCError.unknownSequenceParameterSet(id: 4)) {
            try sets.activeParameterSets(pictureParameterSetID: 40)
        }
    }

    @Test("the default VPS, SPS and PPS are valid: they read back equal and ffmpeg parses them")
    func defaults() throws {
        let vps = HEVCVideoParameterSet(), sps = HEVCSequenceParameterSet(), pps = HEVCPictureParameterSet()
        #expect(try HEVCVideoParameterSet(nalUnit: vps.nalUnit()) == vps)
        #expect(try HEVCSequenceParameterSet(nalUnit: sps.nalUnit()) == sps)
        #expect(try HEVCPictureParameterSet(nalUnit: pps.nalUnit()) == pps)
        try pps.validate(against: sps)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("defaults.h265")
        try Data([vps.nalUnit(), sps.nalUnit(), pps.nalUnit()].flatMap { AnnexB.startCode + $0 }).write(to: file)
        let blocks = try TraceHeaders.parameterSetBlocks(of: file.path, extradata: true)
        #expect(blocks.count == 3)
        if blocks.count == 3 {
            #expect(blocks[1].values("pic_width_in_luma_samples") == [1920])
            #expect(blocks[1].values("general_level_idc") == [123])
        }
    }
}
