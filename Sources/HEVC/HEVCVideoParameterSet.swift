import Bitstream

/// A video parameter set: `video_parameter_set_rbsp()` of ITU-T H.265 §7.3.2.1.
///
/// Everything of the base specification is parsed, including layer sets, timing information and
/// `hrd_parameters()` (§E.2.2). When `vps_extension_flag` is 1, the rest of the RBSP up to the stop
/// bit (`vps_extension_alignment_bit_equal_to_one`s, `vps_extension()` of Annex F and any
/// `vps_extension2`/`vps_extension_data_flag` bits) is kept unparsed in ``extensionData`` and
/// written back bit for bit, so parse → write stays byte-identical.
public struct HEVCVideoParameterSet: Sendable, Hashable {
    /// One `hrd_parameters()` entry of the VPS timing information.
    public struct HRDEntry: Sendable, Hashable {
        /// `hrd_layer_set_idx[i]`: the layer set the parameters apply to.
        public var layerSetIndex: Int
        /// The parameters; `isCommonInfoPresent` is `cprms_present_flag[i]` (always 1 for `i` = 0).
        public var parameters: HEVCHRDParameters

        /// Creates an entry.
        /// - Parameters:
        ///   - layerSetIndex: `hrd_layer_set_idx`.
        ///   - parameters: the HRD parameters.
        public init(layerSetIndex: Int, parameters: HEVCHRDParameters) {
            self.layerSetIndex = layerSetIndex
            self.parameters = parameters
        }
    }

    /// The timing group (`vps_timing_info_present_flag` = 1).
    public struct Timing: Sendable, Hashable {
        /// `vps_num_units_in_tick` (> 0).
        public var numUnitsInTick: UInt32
        /// `vps_time_scale` (> 0).
        public var timeScale: UInt32
        /// `vps_num_ticks_poc_diff_one_minus1`; `nil` when `vps_poc_proportional_to_timing_flag` is 0.
        public var numTicksPOCDiffOneMinus1: Int?
        /// The `vps_num_hrd_parameters` entries.
        public var hrdParameters: [HRDEntry]

        /// Creates a timing group.
        /// - Parameters:
        ///   - numUnitsInTick: `vps_num_units_in_tick`.
        ///   - timeScale: `vps_time_scale`.
        ///   - numTicksPOCDiffOneMinus1: `vps_num_ticks_poc_diff_one_minus1`, or `nil`.
        ///   - hrdParameters: the HRD parameter entries.
        public init(numUnitsInTick: UInt32, timeScale: UInt32, numTicksPOCDiffOneMinus1: Int? = nil,
                    hrdParameters: [HRDEntry] = []) {
            self.numUnitsInTick = numUnitsInTick
            self.timeScale = timeScale
            self.numTicksPOCDiffOneMinus1 = numTicksPOCDiffOneMinus1
            self.hrdParameters = hrdParameters
        }
    }

    /// The NAL unit header used by ``nalUnit()`` (type `VPS_NUT`).
    public var nalUnitHeader = HEVCNALUnitHeader(type: .vps)
    /// `vps_video_parameter_set_id`, 0…15.
    public var videoParameterSetID = 0
    /// `vps_base_layer_internal_flag`.
    public var baseLayerInternalFlag = true
    /// `vps_base_layer_available_flag`.
    public var baseLayerAvailableFlag = true
    /// `vps_max_layers_minus1`, 0…62.
    public var maxLayersMinus1 = 0
    /// `vps_max_sub_layers_minus1`, 0…6.
    public var maxSubLayersMinus1 = 0
    /// `vps_temporal_id_nesting_flag` (1 when `maxSubLayersMinus1` is 0).
    public var temporalIDNestingFlag = true
    /// `vps_reserved_0xffff_16bits` (kept as coded; 0xFFFF in conforming streams).
    public var reserved0xFFFF16Bits = 0xFFFF
    /// `profile_tier_level( 1, vps_max_sub_layers_minus1 )`.
    public var profileTierLevel = HEVCProfileTierLevel(generalLevelIDC: 123)
    /// `vps_sub_layer_ordering_info_present_flag`.
    public var subLayerOrderingInfoPresentFlag = true
    /// `maxSubLayersMinus1 + 1` entries; when the present flag is 0 only the last is coded and all are equal.
    public var subLayerOrderingInfo = [HEVCSubLayerOrderingInfo()]
    /// `vps_max_layer_id`, 0…62.
    public var maxLayerID = 0
    /// `layer_id_included_flag[i][j]` for layer sets 1…`vps_num_layer_sets_minus1`, each with
    /// `vps_max_layer_id + 1` flags (layer set 0 is implicit).
    public var layerIDIncludedFlags: [[Bool]] = []
    /// The timing information; `nil` when `vps_timing_info_present_flag` is 0.
    public var timing: Timing?
    /// Everything after `vps_extension_flag` up to the stop bit; `nil` when `vps_extension_flag` is 0.
    public var extensionData: HEVCRawBits?

    /// Creates a VPS for a single-layer stream without sub-layers.
    public init() {}

    /// `vps_num_layer_sets_minus1`.
    public var numLayerSetsMinus1: Int { layerIDIncludedFlags.count }

    /// Parses a VPS NAL unit.
    /// - Parameter nalUnit: the NAL unit (header and EBSP), without start code.
    /// - Throws: ``HEVCError`` for a bad header, a type other than `VPS_NUT`, a missing
    ///   emulation-prevention byte, or a syntax error naming the field.
    public init<Bytes: Collection>(nalUnit: Bytes) throws(HEVCError) where Bytes.Element == UInt8 {
        let (header, rbsp) = try NALUnitPayload.split(nalUnit, expecting: [.vps], name: "VPS_NUT")
        try self.init(rbsp: rbsp)
        nalUnitHeader = header
    }

    /// Parses `video_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.1).
    /// - Parameter rbsp: the RBSP (after the NAL unit header, emulation prevention removed).
    /// - Throws: ``HEVCError/syntax(_:nalUnitType:)`` naming the field that is truncated or out of range.
    public init(rbsp: [UInt8]) throws(HEVCError) {
        self.init()
        var reader = BitReader(rbsp)
        try NALUnitPayload.parse(.vps) { () throws(SyntaxError) in try read(from: &reader) }
    }

    /// The body of `video_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.1).
    private mutating func read(from reader: inout BitReader) throws(SyntaxError) {
        videoParameterSetID = Int(try reader.u(4, "vps_video_parameter_set_id"))
        baseLayerInternalFlag = try reader.flag("vps_base_layer_internal_flag")
        baseLayerAvailableFlag = try reader.flag("vps_base_layer_available_flag")
        maxLayersMinus1 = try reader.uInt(6, "vps_max_layers_minus1", range: 0...62)
        maxSubLayersMinus1 = try reader.uInt(3, "vps_max_sub_layers_minus1", range: 0...6)
        let nestingStart = reader.bitPosition
        temporalIDNestingFlag = try reader.flag("vps_temporal_id_nesting_flag")
        if maxSubLayersMinus1 == 0 && !temporalIDNestingFlag {
            throw SyntaxError(field: "vps_temporal_id_nesting_flag", bitOffset: nestingStart,
                              reason: .invalid("must be 1 when vps_max_sub_layers_minus1 is 0"))
        }
        reserved0xFFFF16Bits = Int(try reader.u(16, "vps_reserved_0xffff_16bits"))
        profileTierLevel = try HEVCProfileTierLevel(from: &reader, profilePresent: true,
                                                    maxNumSubLayersMinus1: maxSubLayersMinus1)
        subLayerOrderingInfoPresentFlag = try reader.flag("vps_sub_layer_ordering_info_present_flag")
        subLayerOrderingInfo = try HEVCSubLayerOrderingInfo.readList(
            from: &reader, infoPresent: subLayerOrderingInfoPresentFlag,
            maxSubLayersMinus1: maxSubLayersMinus1, video: true)
        maxLayerID = try reader.uInt(6, "vps_max_layer_id", range: 0...62)
        let layerSetCountMinus1 = try reader.ueInt("vps_num_layer_sets_minus1", range: 0...1023)
        layerIDIncludedFlags = []
        for _ in 0..<layerSetCountMinus1 {
            var flags = [Bool]()
            for _ in 0...maxLayerID {
                flags.append(try reader.flag("layer_id_included_flag"))
            }
            layerIDIncludedFlags.append(flags)
        }
        timing = nil
        if try reader.flag("vps_timing_info_present_flag") {
            var timing = Timing(numUnitsInTick: try reader.u(32, "vps_num_units_in_tick", allowed: 1...UInt32.max),
                                timeScale: try reader.u(32, "vps_time_scale", allowed: 1...UInt32.max))
            if try reader.flag("vps_poc_proportional_to_timing_flag") {
                timing.numTicksPOCDiffOneMinus1 = Int(try reader.ue("vps_num_ticks_poc_diff_one_minus1"))
            }
            let count = try reader.ueInt("vps_num_hrd_parameters", range: 0...(layerSetCountMinus1 + 1))
            var inherited = HEVCHRDParameters.Common()
            for index in 0..<count {
                let lowest = baseLayerInternalFlag ? 0 : 1
                guard lowest <= layerSetCountMinus1 else {
                    throw SyntaxError(field: "hrd_layer_set_idx", bitOffset: reader.bitPosition,
                                      reason: .invalid("no layer set can carry HRD parameters (vps_num_layer_sets_minus1 is 0 and the base layer is external)"))
                }
                let layerSetIndex = try reader.ueInt("hrd_layer_set_idx", range: lowest...layerSetCountMinus1)
                let commonPresent = index > 0 ? try reader.flag("cprms_present_flag") : true
                let parameters = try HEVCHRDParameters(from: &reader, commonInfoPresent: commonPresent,
                                                       maxNumSubLayersMinus1: maxSubLayersMinus1,
                                                       inheritedCommon: inherited)
                inherited = parameters.common
                timing.hrdParameters.append(HRDEntry(layerSetIndex: layerSetIndex, parameters: parameters))
            }
            self.timing = timing
        }
        extensionData = nil
        if try reader.flag("vps_extension_flag") {
            extensionData = try HEVCRawBits(readingUpToStopBitFrom: &reader, field: "vps_extension_data_flag")
        }
        try reader.finishRBSP()
    }

    /// Writes `video_parameter_set_rbsp()` (ITU-T H.265 §7.3.2.1), including `rbsp_trailing_bits()`.
    /// - Returns: the RBSP (no NAL unit header, no emulation prevention).
    public func rbsp() -> [UInt8] {
        var writer = BitWriter()
        writer.u(4, videoParameterSetID)
        writer.flag(baseLayerInternalFlag)
        writer.flag(baseLayerAvailableFlag)
        writer.u(6, maxLayersMinus1)
        writer.u(3, maxSubLayersMinus1)
        writer.flag(temporalIDNestingFlag)
        writer.u(16, reserved0xFFFF16Bits)
        profileTierLevel.write(to: &writer)
        writer.flag(subLayerOrderingInfoPresentFlag)
        HEVCSubLayerOrderingInfo.writeList(subLayerOrderingInfo, infoPresent: subLayerOrderingInfoPresentFlag, to: &writer)
        writer.u(6, maxLayerID)
        writer.ue(layerIDIncludedFlags.count)
        for flags in layerIDIncludedFlags {
            for flag in flags { writer.flag(flag) }
        }
        writer.flag(timing != nil)
        if let timing {
            writer.u(32, timing.numUnitsInTick)
            writer.u(32, timing.timeScale)
            writer.flag(timing.numTicksPOCDiffOneMinus1 != nil)
            if let ticks = timing.numTicksPOCDiffOneMinus1 { writer.ue(ticks) }
            writer.ue(timing.hrdParameters.count)
            for (index, entry) in timing.hrdParameters.enumerated() {
                writer.ue(entry.layerSetIndex)
                if index > 0 { writer.flag(entry.parameters.isCommonInfoPresent) }
                entry.parameters.write(to: &writer)
            }
        }
        writer.flag(extensionData != nil)
        extensionData?.write(to: &writer)
        writer.rbspTrailingBits()
        return writer.bytes
    }

    /// The complete NAL unit: ``nalUnitHeader`` followed by the EBSP of ``rbsp()``.
    /// - Returns: the NAL unit bytes, without start code.
    public func nalUnit() -> [UInt8] {
        NALUnitPayload.build(header: nalUnitHeader, rbsp: rbsp())
    }
}
