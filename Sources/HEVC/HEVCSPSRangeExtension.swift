import Bitstream

/// `sps_range_extension()` of ITU-T H.265 §7.3.2.2.2: the format range extensions tools of an SPS.
public struct HEVCSPSRangeExtension: Sendable, Hashable {
    /// `transform_skip_rotation_enabled_flag`.
    public var transformSkipRotationEnabledFlag = false
    /// `transform_skip_context_enabled_flag`.
    public var transformSkipContextEnabledFlag = false
    /// `implicit_rdpcm_enabled_flag`.
    public var implicitRDPCMEnabledFlag = false
    /// `explicit_rdpcm_enabled_flag`.
    public var explicitRDPCMEnabledFlag = false
    /// `extended_precision_processing_flag`.
    public var extendedPrecisionProcessingFlag = false
    /// `intra_smoothing_disabled_flag`.
    public var intraSmoothingDisabledFlag = false
    /// `high_precision_offsets_enabled_flag`.
    public var highPrecisionOffsetsEnabledFlag = false
    /// `persistent_rice_adaptation_enabled_flag`.
    public var persistentRiceAdaptationEnabledFlag = false
    /// `cabac_bypass_alignment_enabled_flag`.
    public var cabacBypassAlignmentEnabledFlag = false

    /// Creates a range extension with every tool off.
    public init() {}

    /// Parses `sps_range_extension()` (ITU-T H.265 §7.3.2.2.2).
    /// - Parameter reader: the reader, positioned at the structure.
    /// - Throws: ``SyntaxError`` if the data ends.
    public init(from reader: inout BitReader) throws(SyntaxError) {
        transformSkipRotationEnabledFlag = try reader.flag("transform_skip_rotation_enabled_flag")
        transformSkipContextEnabledFlag = try reader.flag("transform_skip_context_enabled_flag")
        implicitRDPCMEnabledFlag = try reader.flag("implicit_rdpcm_enabled_flag")
        explicitRDPCMEnabledFlag = try reader.flag("explicit_rdpcm_enabled_flag")
        extendedPrecisionProcessingFlag = try reader.flag("extended_precision_processing_flag")
        intraSmoothingDisabledFlag = try reader.flag("intra_smoothing_disabled_flag")
        highPrecisionOffsetsEnabledFlag = try reader.flag("high_precision_offsets_enabled_flag")
        persistentRiceAdaptationEnabledFlag = try reader.flag("persistent_rice_adaptation_enabled_flag")
        cabacBypassAlignmentEnabledFlag = try reader.flag("cabac_bypass_alignment_enabled_flag")
    }

    /// Writes `sps_range_extension()` (ITU-T H.265 §7.3.2.2.2).
    /// - Parameter writer: the destination.
    public func write(to writer: inout BitWriter) {
        writer.flag(transformSkipRotationEnabledFlag)
        writer.flag(transformSkipContextEnabledFlag)
        writer.flag(implicitRDPCMEnabledFlag)
        writer.flag(explicitRDPCMEnabledFlag)
        writer.flag(extendedPrecisionProcessingFlag)
        writer.flag(intraSmoothingDisabledFlag)
        writer.flag(highPrecisionOffsetsEnabledFlag)
        writer.flag(persistentRiceAdaptationEnabledFlag)
        writer.flag(cabacBypassAlignmentEnabledFlag)
    }
}
