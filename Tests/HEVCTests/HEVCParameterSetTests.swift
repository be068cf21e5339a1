import Foundation
import Testing
import Bitstream
import HEVC
import TestSupport

/// Parameter sets of real streams: parse → write is byte-identical, and what we read equals what
/// ffprobe reports and what ffmpeg's own parser (`trace_headers`) reads field by field.
@Suite(.enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct HEVCParameterSetTests {
    static let streamNames = Streams.media + Streams.recipes.map(\.name)

    static func stream(named name: String) throws -> TestStream {
        if Streams.media.contains(name) {
            return TestStream(name: name, path: MediaFiles.url(name).path)
        }
        return try Streams.generated(name)
    }

    @Test("every VPS, SPS and PPS round-trips byte for byte", .requiresMedia, arguments: streamNames)
    func roundTrip(name: String) throws {
        let bytes = try Self.stream(named: name).bytes()
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        var counts = [HEVCNALUnitType: Int]()
        for unit in units {
            let header = try HEVCNALUnitHeader(parsing: unit)
            #expect(header.bytes == Array(unit.prefix(2)))
            switch header.type {
            case .vps:
                let vps = try HEVCVideoParameterSet(nalUnit: unit)
                #expect(vps.nalUnit() == unit, "VPS \(vps.videoParameterSetID) differs after rewrite")
            case .sps:
                let sps = try HEVCSequenceParameterSet(nalUnit: unit)
                #expect(sps.nalUnit() == unit, "SPS \(sps.seqParameterSetID) differs after rewrite")
                let again = try HEVCSequenceParameterSet(rbsp: sps.rbsp())
                #expect(again.rbsp() == sps.rbsp())
            case .pps:
                let pps = try HEVCPictureParameterSet(nalUnit: unit)
                #expect(pps.nalUnit() == unit, "PPS \(pps.picParameterSetID) differs after rewrite")
            default:
                continue
            }
            counts[header.type, default: 0] += 1
        }
        #expect(counts[.vps, default: 0] >= 1)
        #expect(counts[.sps, default: 0] >= 1)
        #expect(counts[.pps, default: 0] >= 1)
    }

    @Test("size, profile, level and frame rate equal ffprobe's", .requiresMedia, arguments: streamNames)
    func matchesFFprobe(name: String) throws {
        let stream = try Self.stream(named: name)
        let bytes = try stream.bytes()
        let sps = try #require(AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }.first { $0.count > 1 && $0[0] >> 1 == 33 })
        let parsed = try HEVCSequenceParameterSet(nalUnit: sps)
        let probe = try Oracle.videoStream(of: stream.path)
        #expect(parsed.width == probe["width"] as? Int)
        #expect(parsed.height == probe["height"] as? Int)
        #expect(parsed.profileName == probe["profile"] as? String)
        let level = try #require(probe["level"] as? Int)   // ffprobe prints general_level_idc (93 = 3.1)
        #expect(parsed.profileTierLevel.generalLevelIDC == level)
        #expect(parsed.levelName == "\(level / 30)" + (level % 30 == 0 ? "" : ".\(level % 30 / 3)"))
        if let rate = parsed.frameRate, let text = probe["r_frame_rate"] as? String {
            let parts = text.split(separator: "/").compactMap { Double($0) }
            if parts.count == 2, parts[1] > 0 { #expect(abs(rate - parts[0] / parts[1]) < 0.001) }
        }
    }

    @Test("fields equal what ffmpeg's trace_headers reads", .requiresMedia, arguments: streamNames)
    func matchesTraceHeaders(name: String) throws {
        let stream = try Self.stream(named: name)
        let blocks = try TraceHeaders.parameterSetBlocks(of: stream.path)
        let bytes = try stream.bytes()
        let ours = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }.filter { $0.count > 1 && (32...34).contains($0[0] >> 1) }
        #expect(blocks.count == ours.count)
        for (unit, block) in zip(ours, blocks) {
            let expected: [(String, [Int])]
            switch unit[0] >> 1 {
            case 32: expected = TraceHeaders.fields(of: try HEVCVideoParameterSet(nalUnit: unit))
            case 33: expected = TraceHeaders.fields(of: try HEVCSequenceParameterSet(nalUnit: unit))
            default: expected = TraceHeaders.fields(of: try HEVCPictureParameterSet(nalUnit: unit))
            }
            for (field, values) in expected {
                #expect(block.values(field) == values, "\(name) \(block.title): \(field)")
            }
        }
    }

    @Test("the scaling-list stream carries custom SPS lists")
    func customScalingLists() throws {
        let bytes = try Streams.generated("x265-scaling-lists").bytes()
        let units = AnnexB.nalUnitRanges(in: bytes).map { Array(bytes[$0]) }
        let sps = try HEVCSequenceParameterSet(nalUnit: try #require(units.first { $0[0] >> 1 == 33 }))
        let lists = try #require(sps.scalingListData?.lists)
        #expect(lists.count == 20)
        #expect(lists.contains { $0.predModeFlag })
    }
}

/// Reads ffmpeg's `trace_headers` output: one block per parameter set, fields by name in coded order.
enum TraceHeaders {
    struct Block {
        var title: String
        var fields: [(name: String, value: Int)] = []

        /// Every value of a field (array indices stripped from the names), in coded order.
        func values(_ name: String) -> [Int] {
            fields.filter { $0.name == name }.map(\.value)
        }
    }

    /// The VPS/SPS/PPS blocks of a stream's packets, in stream order.
    /// - Parameters:
    ///   - file: an Annex B HEVC file.
    ///   - extradata: read the extradata section (the only one for a file of parameter sets only)
    ///     instead of the packets.
    static func parameterSetBlocks(of file: String, extradata: Bool = false) throws -> [Block] {
        let arguments = ["-v", "trace", "-f", "hevc", "-i", file, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"]
        let text = try traceText(arguments)
        var blocks = [Block]()
        var current: Block?
        var inPackets = extradata
        for rawLine in text.split(separator: "\n") {
            guard let marker = rawLine.range(of: "[trace_headers @ ") else { continue }
            let afterMarker = rawLine[marker.upperBound...]
            guard let close = afterMarker.firstIndex(of: "]") else { continue }
            let line = afterMarker[afterMarker.index(after: close)...].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Packet:") {
                if extradata { break }
                inPackets = true
            }
            guard inPackets else { continue }
            if line.hasSuffix("Parameter Set") {
                if let current { blocks.append(current) }
                current = Block(title: line)
                continue
            }
            guard let first = line.first, first.isNumber else {
                if let done = current { blocks.append(done); current = nil }
                continue
            }
            guard current != nil else { continue }
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 4, parts[parts.count - 2] == "=", let value = Int(parts[parts.count - 1]) else { continue }
            var name = String(parts[1])
            if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
            current?.fields.append((name, value))
        }
        if let current { blocks.append(current) }
        return blocks
    }

    /// Runs ffmpeg and returns standard error (where the trace goes), whatever its exit status.
    static func traceText(_ arguments: [String]) throws -> String {
        try ExternalTool.run("ffmpeg", arguments).standardError
    }

    static func int(_ flag: Bool) -> Int { flag ? 1 : 0 }

    /// The general profile fields ffmpeg traces for a profile_tier_level().
    static func fields(of ptl: HEVCProfileTierLevel) -> [(String, [Int])] {
        [("general_profile_space", [ptl.general.profileSpace]),
         ("general_tier_flag", [int(ptl.general.tierFlag)]),
         ("general_profile_idc", [ptl.general.profileIDC]),
         ("general_profile_compatibility_flag", (0..<32).map { int(ptl.general.isCompatible(withProfileIDC: $0)) }),
         ("general_progressive_source_flag", [int(ptl.general.isProgressiveSource)]),
         ("general_interlaced_source_flag", [int(ptl.general.isInterlacedSource)]),
         ("general_non_packed_constraint_flag", [int(ptl.general.isNonPackedConstraint)]),
         ("general_frame_only_constraint_flag", [int(ptl.general.isFrameOnlyConstraint)]),
         ("general_level_idc", [ptl.generalLevelIDC]),
         ("sub_layer_profile_present_flag", ptl.subLayers.map { int($0.profile != nil) }),
         ("sub_layer_level_present_flag", ptl.subLayers.map { int($0.levelIDC != nil) })]
    }

    static func fields(of info: [HEVCSubLayerOrderingInfo], present: Bool, prefix: String) -> [(String, [Int])] {
        let coded = present ? info : Array(info.suffix(1))
        return [("\(prefix)_max_dec_pic_buffering_minus1", coded.map(\.maxDecPicBufferingMinus1)),
                ("\(prefix)_max_num_reorder_pics", coded.map(\.maxNumReorderPics)),
                ("\(prefix)_max_latency_increase_plus1", coded.map(\.maxLatencyIncreasePlus1))]
    }

    static func fields(of hrd: HEVCHRDParameters?) -> [(String, [Int])] {
        guard let hrd else { return [] }
        let specs = hrd.subLayers.flatMap { $0.nalCPBSpecifications + $0.vclCPBSpecifications }
        return [("nal_hrd_parameters_present_flag", [int(hrd.common.nalHRDParametersPresentFlag)]),
                ("vcl_hrd_parameters_present_flag", [int(hrd.common.vclHRDParametersPresentFlag)]),
                ("fixed_pic_rate_general_flag", hrd.subLayers.map { int($0.fixedPicRateGeneralFlag) }),
                ("cpb_cnt_minus1", hrd.subLayers.filter { !$0.lowDelayHRDFlag }.map(\.cpbCountMinus1)),
                ("bit_rate_value_minus1", specs.map(\.bitRateValueMinus1)),
                ("cpb_size_value_minus1", specs.map(\.cpbSizeValueMinus1)),
                ("cbr_flag", specs.map { int($0.cbrFlag) })]
    }

    static func fields(of vps: HEVCVideoParameterSet) -> [(String, [Int])] {
        var result: [(String, [Int])] = [
            ("vps_video_parameter_set_id", [vps.videoParameterSetID]),
            ("vps_max_layers_minus1", [vps.maxLayersMinus1]),
            ("vps_max_sub_layers_minus1", [vps.maxSubLayersMinus1]),
            ("vps_temporal_id_nesting_flag", [int(vps.temporalIDNestingFlag)]),
            ("vps_reserved_0xffff_16bits", [vps.reserved0xFFFF16Bits]),
            ("vps_max_layer_id", [vps.maxLayerID]),
            ("vps_num_layer_sets_minus1", [vps.numLayerSetsMinus1]),
            ("vps_timing_info_present_flag", [int(vps.timing != nil)]),
            ("vps_extension_flag", [int(vps.extensionData != nil)]),
        ]
        result += fields(of: vps.profileTierLevel)
        result += fields(of: vps.subLayerOrderingInfo, present: vps.subLayerOrderingInfoPresentFlag, prefix: "vps")
        if let timing = vps.timing {
            result += [("vps_num_units_in_tick", [Int(timing.numUnitsInTick)]),
                       ("vps_time_scale", [Int(timing.timeScale)]),
                       ("vps_num_hrd_parameters", [timing.hrdParameters.count])]
            if timing.hrdParameters.count == 1 { result += fields(of: timing.hrdParameters.first?.parameters) }
        }
        return result
    }

    static func fields(of sps: HEVCSequenceParameterSet) -> [(String, [Int])] {
        var result: [(String, [Int])] = [
            ("sps_video_parameter_set_id", [sps.videoParameterSetID]),
            ("sps_max_sub_layers_minus1", [sps.maxSubLayersMinus1]),
            ("sps_seq_parameter_set_id", [sps.seqParameterSetID]),
            ("chroma_format_idc", [sps.chromaFormatIDC]),
            ("pic_width_in_luma_samples", [sps.picWidthInLumaSamples]),
            ("pic_height_in_luma_samples", [sps.picHeightInLumaSamples]),
            ("conformance_window_flag", [int(sps.conformanceWindow != nil)]),
            ("conf_win_left_offset", sps.conformanceWindow.map { [$0.leftOffset] } ?? []),
            ("conf_win_right_offset", sps.conformanceWindow.map { [$0.rightOffset] } ?? []),
            ("conf_win_top_offset", sps.conformanceWindow.map { [$0.topOffset] } ?? []),
            ("conf_win_bottom_offset", sps.conformanceWindow.map { [$0.bottomOffset] } ?? []),
            ("bit_depth_luma_minus8", [sps.bitDepthLumaMinus8]),
            ("bit_depth_chroma_minus8", [sps.bitDepthChromaMinus8]),
            ("log2_max_pic_order_cnt_lsb_minus4", [sps.log2MaxPicOrderCntLsbMinus4]),
            ("log2_min_luma_coding_block_size_minus3", [sps.log2MinLumaCodingBlockSizeMinus3]),
            ("log2_diff_max_min_luma_coding_block_size", [sps.log2DiffMaxMinLumaCodingBlockSize]),
            ("log2_min_luma_transform_block_size_minus2", [sps.log2MinLumaTransformBlockSizeMinus2]),
            ("log2_diff_max_min_luma_transform_block_size", [sps.log2DiffMaxMinLumaTransformBlockSize]),
            ("max_transform_hierarchy_depth_inter", [sps.maxTransformHierarchyDepthInter]),
            ("max_transform_hierarchy_depth_intra", [sps.maxTransformHierarchyDepthIntra]),
            ("scaling_list_enabled_flag", [int(sps.scalingListEnabledFlag)]),
            ("amp_enabled_flag", [int(sps.ampEnabledFlag)]),
            ("sample_adaptive_offset_enabled_flag", [int(sps.sampleAdaptiveOffsetEnabledFlag)]),
            ("pcm_enabled_flag", [int(sps.pcm != nil)]),
            ("num_short_term_ref_pic_sets", [sps.shortTermReferencePictureSets.count]),
            ("long_term_ref_pics_present_flag", [int(sps.longTermReferencePicturesPresentFlag)]),
            ("sps_temporal_mvp_enabled_flag", [int(sps.temporalMVPEnabledFlag)]),
            ("strong_intra_smoothing_enabled_flag", [int(sps.strongIntraSmoothingEnabledFlag)]),
            ("vui_parameters_present_flag", [int(sps.vui != nil)]),
            ("sps_extension_present_flag", [int(sps.extensionPresentFlag)]),
        ]
        result += fields(of: sps.profileTierLevel)
        result += fields(of: sps.subLayerOrderingInfo, present: sps.subLayerOrderingInfoPresentFlag, prefix: "sps")
        if let lists = sps.scalingListData?.lists {
            result += [("scaling_list_pred_mode_flag", lists.map { int($0.predModeFlag) }),
                       ("scaling_list_delta_coeff", lists.flatMap(\.deltaCoefficients))]
        }
        let sets = sps.shortTermReferencePictureSets
        result += [("inter_ref_pic_set_prediction_flag", sets.dropFirst().map { int($0.interRefPicSetPredictionFlag) }),
                   ("num_negative_pics", sets.filter { !$0.interRefPicSetPredictionFlag }.map(\.deltaPOCS0Minus1.count)),
                   ("num_positive_pics", sets.filter { !$0.interRefPicSetPredictionFlag }.map(\.deltaPOCS1Minus1.count)),
                   ("delta_poc_s0_minus1", sets.flatMap(\.deltaPOCS0Minus1)),
                   ("delta_poc_s1_minus1", sets.flatMap(\.deltaPOCS1Minus1)),
                   ("abs_delta_rps_minus1", sets.filter(\.interRefPicSetPredictionFlag).map(\.absDeltaRPSMinus1)),
                   ("used_by_curr_pic_flag", sets.flatMap(\.usedByCurrPicFlags).map(int))]
        if let vui = sps.vui {
            result += [("aspect_ratio_info_present_flag", [int(vui.aspectRatio != nil)]),
                       ("aspect_ratio_idc", vui.aspectRatio.map { [$0.idc] } ?? []),
                       ("video_signal_type_present_flag", [int(vui.videoSignalType != nil)]),
                       ("video_format", vui.videoSignalType.map { [$0.videoFormat] } ?? []),
                       ("colour_primaries", vui.videoSignalType?.colourDescription.map { [$0.colourPrimaries] } ?? []),
                       ("matrix_coefficients", vui.videoSignalType?.colourDescription.map { [$0.matrixCoefficients] } ?? []),
                       ("chroma_sample_loc_type_top_field", vui.chromaSampleLocation.map { [$0.topField] } ?? []),
                       ("default_display_window_flag", [int(vui.defaultDisplayWindow != nil)]),
                       ("vui_timing_info_present_flag", [int(vui.timing != nil)]),
                       ("vui_num_units_in_tick", vui.timing.map { [Int($0.numUnitsInTick)] } ?? []),
                       ("vui_time_scale", vui.timing.map { [Int($0.timeScale)] } ?? []),
                       ("bitstream_restriction_flag", [int(vui.bitstreamRestriction != nil)]),
                       ("min_spatial_segmentation_idc", vui.bitstreamRestriction.map { [$0.minSpatialSegmentationIDC] } ?? [])]
            result += fields(of: vui.timing?.hrdParameters)
        }
        return result
    }

    static func fields(of pps: HEVCPictureParameterSet) -> [(String, [Int])] {
        var result: [(String, [Int])] = [
            ("pps_pic_parameter_set_id", [pps.picParameterSetID]),
            ("pps_seq_parameter_set_id", [pps.seqParameterSetID]),
            ("dependent_slice_segments_enabled_flag", [int(pps.dependentSliceSegmentsEnabledFlag)]),
            ("output_flag_present_flag", [int(pps.outputFlagPresentFlag)]),
            ("num_extra_slice_header_bits", [pps.numExtraSliceHeaderBits]),
            ("sign_data_hiding_enabled_flag", [int(pps.signDataHidingEnabledFlag)]),
            ("cabac_init_present_flag", [int(pps.cabacInitPresentFlag)]),
            ("num_ref_idx_l0_default_active_minus1", [pps.numRefIdxL0DefaultActiveMinus1]),
            ("num_ref_idx_l1_default_active_minus1", [pps.numRefIdxL1DefaultActiveMinus1]),
            ("init_qp_minus26", [pps.initQPMinus26]),
            ("transform_skip_enabled_flag", [int(pps.transformSkipEnabledFlag)]),
            ("cu_qp_delta_enabled_flag", [int(pps.cuQPDeltaEnabledFlag)]),
            ("diff_cu_qp_delta_depth", pps.cuQPDeltaEnabledFlag ? [pps.diffCUQPDeltaDepth] : []),
            ("pps_cb_qp_offset", [pps.cbQPOffset]),
            ("pps_cr_qp_offset", [pps.crQPOffset]),
            ("weighted_pred_flag", [int(pps.weightedPredFlag)]),
            ("weighted_bipred_flag", [int(pps.weightedBipredFlag)]),
            ("tiles_enabled_flag", [int(pps.tiles != nil)]),
            ("entropy_coding_sync_enabled_flag", [int(pps.entropyCodingSyncEnabledFlag)]),
            ("pps_loop_filter_across_slices_enabled_flag", [int(pps.loopFilterAcrossSlicesEnabledFlag)]),
            ("deblocking_filter_control_present_flag", [int(pps.deblockingFilterControl != nil)]),
            ("pps_deblocking_filter_disabled_flag", pps.deblockingFilterControl.map { [int($0.disabledFlag)] } ?? []),
            ("pps_scaling_list_data_present_flag", [int(pps.scalingListData != nil)]),
            ("lists_modification_present_flag", [int(pps.listsModificationPresentFlag)]),
            ("log2_parallel_merge_level_minus2", [pps.log2ParallelMergeLevelMinus2]),
            ("slice_segment_header_extension_present_flag", [int(pps.sliceSegmentHeaderExtensionPresentFlag)]),
            ("pps_extension_present_flag", [int(pps.extensionPresentFlag)]),
        ]
        if let control = pps.deblockingFilterControl, !control.disabledFlag {
            result += [("pps_beta_offset_div2", [control.betaOffsetDiv2]), ("pps_tc_offset_div2", [control.tcOffsetDiv2])]
        }
        return result
    }
}
