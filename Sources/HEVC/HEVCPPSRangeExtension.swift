import Bitstream

/// `pps_range_extension()` of ITU-T H.265 §7.3.2.3.2: the format range extensions tools of a PPS.
public struct HEVCPPSRangeExtension: Sendable, Hashable {
    /// `log2_max_transform_skip_block_size_minus2` (coded when `transform_skip_enabled_flag` is 1), 0…3.
    public var log2MaxTransformSkipBlockSizeMinus2 = 0
    /// `cross_component_prediction_enabled_flag`.
    public var crossComponentPredictionEnabledFlag = false
    /// `chroma_qp_offset_list_enabled_flag`.
    public var chromaQPOffsetListEnabledFlag = false
    /// `diff_cu_chroma_qp_offset_depth` (coded when the chroma QP offset list is enabled).
    public var diffCUChromaQPOffsetDepth = 0
    /// `cb_qp_offset_list[i]`, −12…12 each; `chroma_qp_offset_list_len_minus1 + 1` (1…6) entries.
    public var cbQPOffsetList: [Int] = []
    /// `cr_qp_offset_list[i]`, −12…12 each; as many entries as ``cbQPOffsetList``.
    public var crQPOffsetList: [Int] = []
    /// `log2_sao_offset_scale_luma`, 0…Max(0, BitDepthY − 10).
    public var log2SAOOffsetScaleLuma = 0
    /// `log2_sao_offset_scale_chroma`, 0…Max(0, BitDepthC − 10).
    public var log2SAOOffsetScaleChroma = 0

    /// Creates a range extension with every tool off.
    public init() {}

    /// Parses `pps_range_extension()` (ITU-T H.265 §7.3.2.3.2). Bounds that depend on the SPS
    /// use the loosest value any SPS allows; ``HEVCPictureParameterSet/validate(against:)`` checks
    /// the exact ones.
    /// - Parameters:
    ///   - reader: the reader, positioned at the structure.
    ///   - transformSkipEnabled: `transform_skip_enabled_flag` of the PPS.
    /// - Throws: ``SyntaxError`` naming the element that ends early or is out of range.
    public init(from reader: inout BitReader, transformSkipEnabled: Bool) throws(SyntaxError) {
        if transformSkipEnabled {
            log2MaxTransformSkipBlockSizeMinus2 = try reader.ueInt("log2_max_transform_skip_block_size_minus2", range: 0...3)
        }
        crossComponentPredictionEnabledFlag = try reader.flag("cross_component_prediction_enabled_flag")
        chromaQPOffsetListEnabledFlag = try reader.flag("chroma_qp_offset_list_enabled_flag")
        if chromaQPOffsetListEnabledFlag {
            diffCUChromaQPOffsetDepth = try reader.ueInt("diff_cu_chroma_qp_offset_depth", range: 0...3)
            let count = try reader.ueInt("chroma_qp_offset_list_len_minus1", range: 0...5) + 1
            for _ in 0..<count {
                cbQPOffsetList.append(try reader.seInt("cb_qp_offset_list", range: -12...12))
                crQPOffsetList.append(try reader.seInt("cr_qp_offset_list", range: -12...12))
            }
        }
        log2SAOOffsetScaleLuma = try reader.ueInt("log2_sao_offset_scale_luma", range: 0...6)
        log2SAOOffsetScaleChroma = try reader.ueInt("log2_sao_offset_scale_chroma", range: 0...6)
    }

    /// Writes `pps_range_extension()` (ITU-T H.265 §7.3.2.3.2).
    /// - Parameters:
    ///   - writer: the destination.
    ///   - transformSkipEnabled: `transform_skip_enabled_flag` of the PPS.
    public func write(to writer: inout BitWriter, transformSkipEnabled: Bool) {
        if transformSkipEnabled { writer.ue(log2MaxTransformSkipBlockSizeMinus2) }
        writer.flag(crossComponentPredictionEnabledFlag)
        writer.flag(chromaQPOffsetListEnabledFlag)
        if chromaQPOffsetListEnabledFlag {
            writer.ue(diffCUChromaQPOffsetDepth)
            let count = max(1, min(cbQPOffsetList.count, crQPOffsetList.count))
            writer.ue(count - 1)
            for index in 0..<count {
                writer.se(index < cbQPOffsetList.count ? cbQPOffsetList[index] : 0)
                writer.se(index < crQPOffsetList.count ? crQPOffsetList[index] : 0)
            }
        }
        writer.ue(log2SAOOffsetScaleLuma)
        writer.ue(log2SAOOffsetScaleChroma)
    }
}
