import Bitstream

/// `vui_parameters()` of ITU-T H.265 §E.2.1: video usability information carried in an SPS.
///
/// Each group the syntax guards with a `…_present_flag` is an optional here: `nil` means the flag is 0.
public struct HEVCVUIParameters: Sendable, Hashable {
    /// `aspect_ratio_idc` 255: the sample aspect ratio is coded as `sar_width` : `sar_height`.
    public static let extendedSAR = 255

    /// The sample aspect ratio group.
    public struct AspectRatio: Sendable, Hashable {
        /// `aspect_ratio_idc` (Table E.1; 255 = `EXTENDED_SAR`).
        public var idc: Int
        /// `sar_width` (coded when `idc` is 255).
        public var sarWidth: Int
        /// `sar_height` (coded when `idc` is 255).
        public var sarHeight: Int

        /// Creates an aspect ratio entry.
        /// - Parameters:
        ///   - idc: `aspect_ratio_idc`.
        ///   - sarWidth: `sar_width`, used when `idc` is 255.
        ///   - sarHeight: `sar_height`, used when `idc` is 255.
        public init(idc: Int, sarWidth: Int = 0, sarHeight: Int = 0) {
            self.idc = idc
            self.sarWidth = sarWidth
            self.sarHeight = sarHeight
        }
    }

    /// `colour_primaries`, `transfer_characteristics` and `matrix_coeffs`.
    public struct ColourDescription: Sendable, Hashable {
        /// `colour_primaries` (Table E.3).
        public var colourPrimaries: Int
        /// `transfer_characteristics` (Table E.4).
        public var transferCharacteristics: Int
        /// `matrix_coeffs` (Table E.5).
        public var matrixCoefficients: Int

        /// Creates a colour description.
        /// - Parameters:
        ///   - colourPrimaries: `colour_primaries`.
        ///   - transferCharacteristics: `transfer_characteristics`.
        ///   - matrixCoefficients: `matrix_coeffs`.
        public init(colourPrimaries: Int = 2, transferCharacteristics: Int = 2, matrixCoefficients: Int = 2) {
            self.colourPrimaries = colourPrimaries
            self.transferCharacteristics = transferCharacteristics
            self.matrixCoefficients = matrixCoefficients
        }
    }

    /// The video signal type group.
    public struct VideoSignalType: Sendable, Hashable {
        /// `video_format` (Table E.2; 5 = unspecified).
        public var videoFormat: Int
        /// `video_full_range_flag`.
        public var videoFullRangeFlag: Bool
        /// The colour description; `nil` when `colour_description_present_flag` is 0.
        public var colourDescription: ColourDescription?

        /// Creates a video signal type.
        /// - Parameters:
        ///   - videoFormat: `video_format`.
        ///   - videoFullRangeFlag: `video_full_range_flag`.
        ///   - colourDescription: the colour description, or `nil`.
        public init(videoFormat: Int = 5, videoFullRangeFlag: Bool = false, colourDescription: ColourDescription? = nil) {
            self.videoFormat = videoFormat
            self.videoFullRangeFlag = videoFullRangeFlag
            self.colourDescription = colourDescription
        }
    }

    /// The chroma sample location group.
    public struct ChromaSampleLocation: Sendable, Hashable {
        /// `chroma_sample_loc_type_top_field`, 0…5.
        public var topField: Int
        /// `chroma_sample_loc_type_bottom_field`, 0…5.
        public var bottomField: Int

        /// Creates a chroma sample location.
        /// - Parameters:
        ///   - topField: `chroma_sample_loc_type_top_field`.
        ///   - bottomField: `chroma_sample_loc_type_bottom_field`.
        public init(topField: Int = 0, bottomField: Int = 0) {
            self.topField = topField
            self.bottomField = bottomField
        }
    }

    /// The timing group (`vui_timing_info_present_flag` = 1).
    public struct Timing: Sendable, Hashable {
        /// `vui_num_units_in_tick` (> 0).
        public var numUnitsInTick: UInt32
        /// `vui_time_scale` (> 0): ticks per second.
        public var timeScale: UInt32
        /// `vui_num_ticks_poc_diff_one_minus1`; `nil` when `vui_poc_proportional_to_timing_flag` is 0.
        public var numTicksPOCDiffOneMinus1: Int?
        /// The HRD parameters; `nil` when `vui_hrd_parameters_present_flag` is 0.
        public var hrdParameters: HEVCHRDParameters?

        /// Creates a timing group.
        /// - Parameters:
        ///   - numUnitsInTick: `vui_num_units_in_tick`.
        ///   - timeScale: `vui_time_scale`.
        ///   - numTicksPOCDiffOneMinus1: `vui_num_ticks_poc_diff_one_minus1`, or `nil`.
        ///   - hrdParameters: the HRD parameters, or `nil`.
        public init(numUnitsInTick: UInt32, timeScale: UInt32, numTicksPOCDiffOneMinus1: Int? = nil,
                    hrdParameters: HEVCHRDParameters? = nil) {
            self.numUnitsInTick = numUnitsInTick
            self.timeScale = timeScale
            self.numTicksPOCDiffOneMinus1 = numTicksPOCDiffOneMinus1
            self.hrdParameters = hrdParameters
        }
    }

    /// The bitstream restriction group.
    public struct BitstreamRestriction: Sendable, Hashable {
        /// `tiles_fixed_structure_flag`.
        public var tilesFixedStructureFlag = false
        /// `motion_vectors_over_pic_boundaries_flag`.
        public var motionVectorsOverPicBoundariesFlag = true
        /// `restricted_ref_pic_lists_flag`.
        public var restrictedRefPicListsFlag = false
        /// `min_spatial_segmentation_idc`, 0…4095.
        public var minSpatialSegmentationIDC = 0
        /// `max_bytes_per_pic_denom`, 0…16.
        public var maxBytesPerPicDenom = 2
        /// `max_bits_per_min_cu_denom`, 0…16.
        public var maxBitsPerMinCUDenom = 1
        /// `log2_max_mv_length_horizontal`, 0…16 (see ``HEVCVUIParameters/maximumLog2MvLength``).
        public var log2MaxMVLengthHorizontal = 15
        /// `log2_max_mv_length_vertical`, 0…16 (see ``HEVCVUIParameters/maximumLog2MvLength``).
        public var log2MaxMVLengthVertical = 15

        /// Creates a bitstream restriction group with the values §E.3.1 infers when it is absent.
        public init() {}
    }

    /// The aspect ratio; `nil` when `aspect_ratio_info_present_flag` is 0.
    public var aspectRatio: AspectRatio?
    /// `overscan_appropriate_flag`; `nil` when `overscan_info_present_flag` is 0.
    public var overscanAppropriateFlag: Bool?
    /// The video signal type; `nil` when `video_signal_type_present_flag` is 0.
    public var videoSignalType: VideoSignalType?
    /// The chroma sample location; `nil` when `chroma_loc_info_present_flag` is 0.
    public var chromaSampleLocation: ChromaSampleLocation?
    /// `neutral_chroma_indication_flag`.
    public var neutralChromaIndicationFlag = false
    /// `field_seq_flag`.
    public var fieldSeqFlag = false
    /// `frame_field_info_present_flag`.
    public var frameFieldInfoPresentFlag = false
    /// The default display window; `nil` when `default_display_window_flag` is 0.
    public var defaultDisplayWindow: HEVCWindow?
    /// The timing information; `nil` when `vui_timing_info_present_flag` is 0.
    public var timing: Timing?
    /// The bitstream restrictions; `nil` when `bitstream_restriction_flag` is 0.
    public var bitstreamRestriction: BitstreamRestriction?

    /// Creates VUI parameters with every optional group absent.
    public init() {}

    /// The largest `log2_max_mv_length_horizontal` / `_vertical` accepted: 16.
    ///
    /// ITU-T H.265 §E.3.1 says 0…15 since its 02/2018 edition; the editions before it (for example
    /// 12/2016) allowed 0…16, and streams encoded to them are still in use. A stream is not rejected for it.
    public static let maximumLog2MvLength = 16

    /// Parses `vui_parameters()` (ITU-T H.265 §E.2.1).
    /// - Parameters:
    ///   - reader: the reader, positioned at the structure.
    ///   - maxSubLayersMinus1: `sps_max_sub_layers_minus1`, for the HRD parameters.
    /// - Throws: ``SyntaxError`` naming the element that ends early or is out of range.
    public init(from reader: inout BitReader, maxSubLayersMinus1: Int) throws(SyntaxError) {
        if try reader.flag("aspect_ratio_info_present_flag") {
            var ratio = AspectRatio(idc: Int(try reader.u(8, "aspect_ratio_idc")))
            if ratio.idc == Self.extendedSAR {
                ratio.sarWidth = Int(try reader.u(16, "sar_width"))
                ratio.sarHeight = Int(try reader.u(16, "sar_height"))
            }
            aspectRatio = ratio
        }
        if try reader.flag("overscan_info_present_flag") {
            overscanAppropriateFlag = try reader.flag("overscan_appropriate_flag")
        }
        if try reader.flag("video_signal_type_present_flag") {
            var signal = VideoSignalType()
            signal.videoFormat = Int(try reader.u(3, "video_format"))
            signal.videoFullRangeFlag = try reader.flag("video_full_range_flag")
            if try reader.flag("colour_description_present_flag") {
                signal.colourDescription = ColourDescription(
                    colourPrimaries: Int(try reader.u(8, "colour_primaries")),
                    transferCharacteristics: Int(try reader.u(8, "transfer_characteristics")),
                    matrixCoefficients: Int(try reader.u(8, "matrix_coeffs")))
            }
            videoSignalType = signal
        }
        if try reader.flag("chroma_loc_info_present_flag") {
            chromaSampleLocation = ChromaSampleLocation(
                topField: try reader.ueInt("chroma_sample_loc_type_top_field", range: 0...5),
                bottomField: try reader.ueInt("chroma_sample_loc_type_bottom_field", range: 0...5))
        }
        neutralChromaIndicationFlag = try reader.flag("neutral_chroma_indication_flag")
        fieldSeqFlag = try reader.flag("field_seq_flag")
        frameFieldInfoPresentFlag = try reader.flag("frame_field_info_present_flag")
        if try reader.flag("default_display_window_flag") {
            defaultDisplayWindow = HEVCWindow(
                leftOffset: Int(try reader.ue("def_disp_win_left_offset")),
                rightOffset: Int(try reader.ue("def_disp_win_right_offset")),
                topOffset: Int(try reader.ue("def_disp_win_top_offset")),
                bottomOffset: Int(try reader.ue("def_disp_win_bottom_offset")))
        }
        if try reader.flag("vui_timing_info_present_flag") {
            var timing = Timing(numUnitsInTick: try reader.u(32, "vui_num_units_in_tick", allowed: 1...UInt32.max),
                                timeScale: try reader.u(32, "vui_time_scale", allowed: 1...UInt32.max))
            if try reader.flag("vui_poc_proportional_to_timing_flag") {
                timing.numTicksPOCDiffOneMinus1 = Int(try reader.ue("vui_num_ticks_poc_diff_one_minus1"))
            }
            if try reader.flag("vui_hrd_parameters_present_flag") {
                timing.hrdParameters = try HEVCHRDParameters(from: &reader, commonInfoPresent: true,
                                                             maxNumSubLayersMinus1: maxSubLayersMinus1)
            }
            self.timing = timing
        }
        if try reader.flag("bitstream_restriction_flag") {
            var restriction = BitstreamRestriction()
            restriction.tilesFixedStructureFlag = try reader.flag("tiles_fixed_structure_flag")
            restriction.motionVectorsOverPicBoundariesFlag = try reader.flag("motion_vectors_over_pic_boundaries_flag")
            restriction.restrictedRefPicListsFlag = try reader.flag("restricted_ref_pic_lists_flag")
            restriction.minSpatialSegmentationIDC = try reader.ueInt("min_spatial_segmentation_idc", range: 0...4095)
            restriction.maxBytesPerPicDenom = try reader.ueInt("max_bytes_per_pic_denom", range: 0...16)
            restriction.maxBitsPerMinCUDenom = try reader.ueInt("max_bits_per_min_cu_denom", range: 0...16)
            restriction.log2MaxMVLengthHorizontal = try reader.ueInt("log2_max_mv_length_horizontal", range: 0...Self.maximumLog2MvLength)
            restriction.log2MaxMVLengthVertical = try reader.ueInt("log2_max_mv_length_vertical", range: 0...Self.maximumLog2MvLength)
            bitstreamRestriction = restriction
        }
    }

    /// Writes `vui_parameters()` (ITU-T H.265 §E.2.1).
    /// - Parameter writer: the destination.
    public func write(to writer: inout BitWriter) {
        writer.flag(aspectRatio != nil)
        if let aspectRatio {
            writer.u(8, aspectRatio.idc)
            if aspectRatio.idc == Self.extendedSAR {
                writer.u(16, aspectRatio.sarWidth)
                writer.u(16, aspectRatio.sarHeight)
            }
        }
        writer.flag(overscanAppropriateFlag != nil)
        if let overscanAppropriateFlag { writer.flag(overscanAppropriateFlag) }
        writer.flag(videoSignalType != nil)
        if let videoSignalType {
            writer.u(3, videoSignalType.videoFormat)
            writer.flag(videoSignalType.videoFullRangeFlag)
            writer.flag(videoSignalType.colourDescription != nil)
            if let colour = videoSignalType.colourDescription {
                writer.u(8, colour.colourPrimaries)
                writer.u(8, colour.transferCharacteristics)
                writer.u(8, colour.matrixCoefficients)
            }
        }
        writer.flag(chromaSampleLocation != nil)
        if let chromaSampleLocation {
            writer.ue(chromaSampleLocation.topField)
            writer.ue(chromaSampleLocation.bottomField)
        }
        writer.flag(neutralChromaIndicationFlag)
        writer.flag(fieldSeqFlag)
        writer.flag(frameFieldInfoPresentFlag)
        writer.flag(defaultDisplayWindow != nil)
        if let window = defaultDisplayWindow {
            writer.ue(window.leftOffset)
            writer.ue(window.rightOffset)
            writer.ue(window.topOffset)
            writer.ue(window.bottomOffset)
        }
        writer.flag(timing != nil)
        if let timing {
            writer.u(32, timing.numUnitsInTick)
            writer.u(32, timing.timeScale)
            writer.flag(timing.numTicksPOCDiffOneMinus1 != nil)
            if let ticks = timing.numTicksPOCDiffOneMinus1 { writer.ue(ticks) }
            writer.flag(timing.hrdParameters != nil)
            timing.hrdParameters?.write(to: &writer)
        }
        writer.flag(bitstreamRestriction != nil)
        if let restriction = bitstreamRestriction {
            writer.flag(restriction.tilesFixedStructureFlag)
            writer.flag(restriction.motionVectorsOverPicBoundariesFlag)
            writer.flag(restriction.restrictedRefPicListsFlag)
            writer.ue(restriction.minSpatialSegmentationIDC)
            writer.ue(restriction.maxBytesPerPicDenom)
            writer.ue(restriction.maxBitsPerMinCUDenom)
            writer.ue(restriction.log2MaxMVLengthHorizontal)
            writer.ue(restriction.log2MaxMVLengthVertical)
        }
    }
}
