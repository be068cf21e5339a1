import Bitstream

/// `hrd_parameters( commonInfPresentFlag, maxNumSubLayersMinus1 )` of ITU-T H.265 §E.2.2 with the
/// `sub_layer_hrd_parameters()` of §E.2.3: the hypothetical reference decoder's buffer model.
public struct HEVCHRDParameters: Sendable, Hashable {
    /// The part shared by all sub-layers, coded when `commonInfPresentFlag` is 1.
    public struct Common: Sendable, Hashable {
        /// `nal_hrd_parameters_present_flag`.
        public var nalHRDParametersPresentFlag = false
        /// `vcl_hrd_parameters_present_flag`.
        public var vclHRDParametersPresentFlag = false
        /// `sub_pic_hrd_params_present_flag`.
        public var subPicHRDParamsPresentFlag = false
        /// `tick_divisor_minus2` (u(8)).
        public var tickDivisorMinus2 = 0
        /// `du_cpb_removal_delay_increment_length_minus1` (u(5)).
        public var duCPBRemovalDelayIncrementLengthMinus1 = 0
        /// `sub_pic_cpb_params_in_pic_timing_sei_flag`.
        public var subPicCPBParamsInPicTimingSEIFlag = false
        /// `dpb_output_delay_du_length_minus1` (u(5)).
        public var dpbOutputDelayDULengthMinus1 = 0
        /// `bit_rate_scale` (u(4)).
        public var bitRateScale = 0
        /// `cpb_size_scale` (u(4)).
        public var cpbSizeScale = 0
        /// `cpb_size_du_scale` (u(4)).
        public var cpbSizeDUScale = 0
        /// `initial_cpb_removal_delay_length_minus1` (u(5)); inferred 23 when absent.
        public var initialCPBRemovalDelayLengthMinus1 = 23
        /// `au_cpb_removal_delay_length_minus1` (u(5)); inferred 23 when absent.
        public var auCPBRemovalDelayLengthMinus1 = 23
        /// `dpb_output_delay_length_minus1` (u(5)); inferred 23 when absent.
        public var dpbOutputDelayLengthMinus1 = 23

        /// Creates the common part with the values §E.3.2 infers when it is absent.
        public init() {}
    }

    /// One coded picture buffer specification of `sub_layer_hrd_parameters()` (§E.2.3).
    public struct CPBSpecification: Sendable, Hashable {
        /// `bit_rate_value_minus1[i]`, 0…2^32 − 2.
        public var bitRateValueMinus1: Int
        /// `cpb_size_value_minus1[i]`, 0…2^32 − 2.
        public var cpbSizeValueMinus1: Int
        /// `cpb_size_du_value_minus1[i]` (coded when `sub_pic_hrd_params_present_flag` is 1).
        public var cpbSizeDUValueMinus1: Int
        /// `bit_rate_du_value_minus1[i]` (coded when `sub_pic_hrd_params_present_flag` is 1).
        public var bitRateDUValueMinus1: Int
        /// `cbr_flag[i]`: constant bit rate.
        public var cbrFlag: Bool

        /// Creates a CPB specification.
        /// - Parameters:
        ///   - bitRateValueMinus1: `bit_rate_value_minus1`.
        ///   - cpbSizeValueMinus1: `cpb_size_value_minus1`.
        ///   - cpbSizeDUValueMinus1: `cpb_size_du_value_minus1`.
        ///   - bitRateDUValueMinus1: `bit_rate_du_value_minus1`.
        ///   - cbrFlag: `cbr_flag`.
        public init(bitRateValueMinus1: Int = 0, cpbSizeValueMinus1: Int = 0, cpbSizeDUValueMinus1: Int = 0,
                    bitRateDUValueMinus1: Int = 0, cbrFlag: Bool = false) {
            self.bitRateValueMinus1 = bitRateValueMinus1
            self.cpbSizeValueMinus1 = cpbSizeValueMinus1
            self.cpbSizeDUValueMinus1 = cpbSizeDUValueMinus1
            self.bitRateDUValueMinus1 = bitRateDUValueMinus1
            self.cbrFlag = cbrFlag
        }
    }

    /// The entries of one sub-layer (the loop body of §E.2.2).
    public struct SubLayer: Sendable, Hashable {
        /// `fixed_pic_rate_general_flag[i]`.
        public var fixedPicRateGeneralFlag = false
        /// `fixed_pic_rate_within_cvs_flag[i]`; inferred 1 when the general flag is 1.
        public var fixedPicRateWithinCVSFlag = false
        /// `elemental_duration_in_tc_minus1[i]`, 0…2047 (coded when the picture rate is fixed).
        public var elementalDurationInTcMinus1 = 0
        /// `low_delay_hrd_flag[i]` (coded when the picture rate is not fixed).
        public var lowDelayHRDFlag = false
        /// `cpb_cnt_minus1[i]`, 0…31 (coded when `low_delay_hrd_flag` is 0).
        public var cpbCountMinus1 = 0
        /// The NAL HRD CPB specifications (`cpb_cnt_minus1 + 1` of them when NAL HRD parameters are present).
        public var nalCPBSpecifications: [CPBSpecification] = []
        /// The VCL HRD CPB specifications (`cpb_cnt_minus1 + 1` of them when VCL HRD parameters are present).
        public var vclCPBSpecifications: [CPBSpecification] = []

        /// Creates an empty sub-layer entry.
        public init() {}
    }

    /// `commonInfPresentFlag`: whether ``common`` is coded in this structure.
    public var isCommonInfoPresent: Bool
    /// The common part: coded, or (when ``isCommonInfoPresent`` is `false`) inherited from the
    /// previous `hrd_parameters()` of the VPS as §7.4.3.1 says.
    public var common: Common
    /// `maxNumSubLayersMinus1 + 1` sub-layer entries.
    public var subLayers: [SubLayer]

    /// Creates HRD parameters.
    /// - Parameters:
    ///   - common: the common part.
    ///   - subLayers: one entry per sub-layer.
    ///   - isCommonInfoPresent: `commonInfPresentFlag`.
    public init(common: Common = Common(), subLayers: [SubLayer] = [SubLayer()], isCommonInfoPresent: Bool = true) {
        self.common = common
        self.subLayers = subLayers
        self.isCommonInfoPresent = isCommonInfoPresent
    }

    /// Parses `hrd_parameters()` (ITU-T H.265 §E.2.2).
    /// - Parameters:
    ///   - reader: the reader, positioned at the structure.
    ///   - commonInfoPresent: `commonInfPresentFlag`.
    ///   - maxNumSubLayersMinus1: `maxNumSubLayersMinus1` (0…6).
    ///   - inheritedCommon: the common part to use when `commonInfoPresent` is `false`.
    /// - Throws: ``SyntaxError`` naming the element that ends early or is out of range.
    public init(from reader: inout BitReader, commonInfoPresent: Bool, maxNumSubLayersMinus1: Int,
                inheritedCommon: Common = Common()) throws(SyntaxError) {
        isCommonInfoPresent = commonInfoPresent
        common = inheritedCommon
        subLayers = []
        if commonInfoPresent {
            common = Common()
            common.nalHRDParametersPresentFlag = try reader.flag("nal_hrd_parameters_present_flag")
            common.vclHRDParametersPresentFlag = try reader.flag("vcl_hrd_parameters_present_flag")
            if common.nalHRDParametersPresentFlag || common.vclHRDParametersPresentFlag {
                common.subPicHRDParamsPresentFlag = try reader.flag("sub_pic_hrd_params_present_flag")
                if common.subPicHRDParamsPresentFlag {
                    common.tickDivisorMinus2 = Int(try reader.u(8, "tick_divisor_minus2"))
                    common.duCPBRemovalDelayIncrementLengthMinus1 = Int(try reader.u(5, "du_cpb_removal_delay_increment_length_minus1"))
                    common.subPicCPBParamsInPicTimingSEIFlag = try reader.flag("sub_pic_cpb_params_in_pic_timing_sei_flag")
                    common.dpbOutputDelayDULengthMinus1 = Int(try reader.u(5, "dpb_output_delay_du_length_minus1"))
                }
                common.bitRateScale = Int(try reader.u(4, "bit_rate_scale"))
                common.cpbSizeScale = Int(try reader.u(4, "cpb_size_scale"))
                if common.subPicHRDParamsPresentFlag {
                    common.cpbSizeDUScale = Int(try reader.u(4, "cpb_size_du_scale"))
                }
                common.initialCPBRemovalDelayLengthMinus1 = Int(try reader.u(5, "initial_cpb_removal_delay_length_minus1"))
                common.auCPBRemovalDelayLengthMinus1 = Int(try reader.u(5, "au_cpb_removal_delay_length_minus1"))
                common.dpbOutputDelayLengthMinus1 = Int(try reader.u(5, "dpb_output_delay_length_minus1"))
            }
        }
        for _ in 0...max(0, min(maxNumSubLayersMinus1, 6)) {
            var entry = SubLayer()
            entry.fixedPicRateGeneralFlag = try reader.flag("fixed_pic_rate_general_flag")
            entry.fixedPicRateWithinCVSFlag = entry.fixedPicRateGeneralFlag
                ? true : try reader.flag("fixed_pic_rate_within_cvs_flag")
            if entry.fixedPicRateWithinCVSFlag {
                entry.elementalDurationInTcMinus1 = try reader.ueInt("elemental_duration_in_tc_minus1", range: 0...2047)
            } else {
                entry.lowDelayHRDFlag = try reader.flag("low_delay_hrd_flag")
            }
            if !entry.lowDelayHRDFlag {
                entry.cpbCountMinus1 = try reader.ueInt("cpb_cnt_minus1", range: 0...31)
            }
            if common.nalHRDParametersPresentFlag {
                entry.nalCPBSpecifications = try Self.readCPBSpecifications(
                    from: &reader, count: entry.cpbCountMinus1 + 1, subPic: common.subPicHRDParamsPresentFlag)
            }
            if common.vclHRDParametersPresentFlag {
                entry.vclCPBSpecifications = try Self.readCPBSpecifications(
                    from: &reader, count: entry.cpbCountMinus1 + 1, subPic: common.subPicHRDParamsPresentFlag)
            }
            subLayers.append(entry)
        }
    }

    /// Parses `sub_layer_hrd_parameters()` (ITU-T H.265 §E.2.3).
    private static func readCPBSpecifications(from reader: inout BitReader, count: Int, subPic: Bool) throws(SyntaxError) -> [CPBSpecification] {
        var result = [CPBSpecification]()
        for index in 0..<count {
            var spec = CPBSpecification()
            let rateStart = reader.bitPosition
            spec.bitRateValueMinus1 = Int(try reader.ue("bit_rate_value_minus1"))
            if index > 0, let previous = result.last, spec.bitRateValueMinus1 <= previous.bitRateValueMinus1 {
                throw SyntaxError(field: "bit_rate_value_minus1", bitOffset: rateStart,
                                  reason: .invalid("\(spec.bitRateValueMinus1) is not greater than the previous CPB's \(previous.bitRateValueMinus1)"))
            }
            let sizeStart = reader.bitPosition
            spec.cpbSizeValueMinus1 = Int(try reader.ue("cpb_size_value_minus1"))
            if index > 0, let previous = result.last, spec.cpbSizeValueMinus1 > previous.cpbSizeValueMinus1 {
                throw SyntaxError(field: "cpb_size_value_minus1", bitOffset: sizeStart,
                                  reason: .invalid("\(spec.cpbSizeValueMinus1) is greater than the previous CPB's \(previous.cpbSizeValueMinus1)"))
            }
            if subPic {
                spec.cpbSizeDUValueMinus1 = Int(try reader.ue("cpb_size_du_value_minus1"))
                spec.bitRateDUValueMinus1 = Int(try reader.ue("bit_rate_du_value_minus1"))
            }
            spec.cbrFlag = try reader.flag("cbr_flag")
            result.append(spec)
        }
        return result
    }

    /// Writes `hrd_parameters()` (ITU-T H.265 §E.2.2); `maxNumSubLayersMinus1` is `subLayers.count − 1`.
    /// - Parameter writer: the destination.
    public func write(to writer: inout BitWriter) {
        if isCommonInfoPresent {
            writer.flag(common.nalHRDParametersPresentFlag)
            writer.flag(common.vclHRDParametersPresentFlag)
            if common.nalHRDParametersPresentFlag || common.vclHRDParametersPresentFlag {
                writer.flag(common.subPicHRDParamsPresentFlag)
                if common.subPicHRDParamsPresentFlag {
                    writer.u(8, common.tickDivisorMinus2)
                    writer.u(5, common.duCPBRemovalDelayIncrementLengthMinus1)
                    writer.flag(common.subPicCPBParamsInPicTimingSEIFlag)
                    writer.u(5, common.dpbOutputDelayDULengthMinus1)
                }
                writer.u(4, common.bitRateScale)
                writer.u(4, common.cpbSizeScale)
                if common.subPicHRDParamsPresentFlag { writer.u(4, common.cpbSizeDUScale) }
                writer.u(5, common.initialCPBRemovalDelayLengthMinus1)
                writer.u(5, common.auCPBRemovalDelayLengthMinus1)
                writer.u(5, common.dpbOutputDelayLengthMinus1)
            }
        }
        for entry in subLayers {
            writer.flag(entry.fixedPicRateGeneralFlag)
            if !entry.fixedPicRateGeneralFlag { writer.flag(entry.fixedPicRateWithinCVSFlag) }
            let withinCVS = entry.fixedPicRateGeneralFlag || entry.fixedPicRateWithinCVSFlag
            if withinCVS {
                writer.ue(entry.elementalDurationInTcMinus1)
            } else {
                writer.flag(entry.lowDelayHRDFlag)
            }
            let lowDelay = !withinCVS && entry.lowDelayHRDFlag
            if !lowDelay { writer.ue(entry.cpbCountMinus1) }
            if common.nalHRDParametersPresentFlag { write(entry.nalCPBSpecifications, to: &writer) }
            if common.vclHRDParametersPresentFlag { write(entry.vclCPBSpecifications, to: &writer) }
        }
    }

    /// Writes `sub_layer_hrd_parameters()` (ITU-T H.265 §E.2.3).
    private func write(_ specifications: [CPBSpecification], to writer: inout BitWriter) {
        for spec in specifications {
            writer.ue(spec.bitRateValueMinus1)
            writer.ue(spec.cpbSizeValueMinus1)
            if common.subPicHRDParamsPresentFlag {
                writer.ue(spec.cpbSizeDUValueMinus1)
                writer.ue(spec.bitRateDUValueMinus1)
            }
            writer.flag(spec.cbrFlag)
        }
    }
}
