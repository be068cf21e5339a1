import Bitstream

/// `vui_parameters( )` of ITU-T H.264 Annex E.1.1: video usability information — sample aspect
/// ratio, colour description, timing, HRD parameters and bitstream restrictions.
///
/// Each group whose presence flag is 0 is `nil`, so writing the value back gives the same bits.
public struct H264VUIParameters: Sendable, Hashable {
    /// The sample aspect ratio (`aspect_ratio_idc` and, for `Extended_SAR`, `sar_width`/`sar_height`).
    public struct AspectRatio: Sendable, Hashable {
        /// `aspect_ratio_idc` (Table E-1); 255 is `Extended_SAR`.
        public var idc: UInt8
        /// `sar_width`: present only when ``idc`` is 255 (0 otherwise).
        public var sarWidth: UInt16
        /// `sar_height`: present only when ``idc`` is 255 (0 otherwise).
        public var sarHeight: UInt16

        /// Creates an aspect ratio.
        /// - Parameters:
        ///   - idc: `aspect_ratio_idc`.
        ///   - sarWidth: `sar_width` (written only when `idc` is 255).
        ///   - sarHeight: `sar_height` (written only when `idc` is 255).
        public init(idc: UInt8, sarWidth: UInt16 = 0, sarHeight: UInt16 = 0) {
            self.idc = idc
            self.sarWidth = sarWidth
            self.sarHeight = sarHeight
        }

        /// The sample aspect ratio as width and height: Table E-1 for `idc` 1…16, `sar_width:sar_height`
        /// for 255; `nil` for 0 (unspecified), reserved values or a zero dimension.
        public var sampleAspectRatio: (width: UInt16, height: UInt16)? {
            let table: [(UInt16, UInt16)] = [
                (1, 1), (12, 11), (10, 11), (16, 11), (40, 33), (24, 11), (20, 11), (32, 11),
                (80, 33), (18, 11), (15, 11), (64, 33), (160, 99), (4, 3), (3, 2), (2, 1),
            ]
            if idc == 255 {
                guard sarWidth != 0, sarHeight != 0 else { return nil }
                return (sarWidth, sarHeight)
            }
            guard idc >= 1, Int(idc) <= table.count else { return nil }
            let entry = table[Int(idc) - 1]
            return (entry.0, entry.1)
        }
    }

    /// `colour_primaries`, `transfer_characteristics`, `matrix_coefficients` (Tables E-3…E-5).
    public struct ColourDescription: Sendable, Hashable {
        /// `colour_primaries`.
        public var colourPrimaries: UInt8
        /// `transfer_characteristics`.
        public var transferCharacteristics: UInt8
        /// `matrix_coefficients`.
        public var matrixCoefficients: UInt8

        /// Creates a colour description.
        /// - Parameters:
        ///   - colourPrimaries: `colour_primaries`.
        ///   - transferCharacteristics: `transfer_characteristics`.
        ///   - matrixCoefficients: `matrix_coefficients`.
        public init(colourPrimaries: UInt8, transferCharacteristics: UInt8, matrixCoefficients: UInt8) {
            self.colourPrimaries = colourPrimaries
            self.transferCharacteristics = transferCharacteristics
            self.matrixCoefficients = matrixCoefficients
        }
    }

    /// The video signal type group (`video_signal_type_present_flag` = 1).
    public struct VideoSignalType: Sendable, Hashable {
        /// `video_format`, 0…7 (Table E-2; 5 = unspecified).
        public var videoFormat: UInt8
        /// `video_full_range_flag`: full range (0…255) rather than video range (16…235).
        public var videoFullRangeFlag: Bool
        /// The colour description, `nil` when `colour_description_present_flag` is 0.
        public var colourDescription: ColourDescription?

        /// Creates a video signal type.
        /// - Parameters:
        ///   - videoFormat: `video_format`.
        ///   - videoFullRangeFlag: `video_full_range_flag`.
        ///   - colourDescription: the colour description, or `nil`.
        public init(videoFormat: UInt8 = 5, videoFullRangeFlag: Bool = false, colourDescription: ColourDescription? = nil) {
            self.videoFormat = videoFormat
            self.videoFullRangeFlag = videoFullRangeFlag
            self.colourDescription = colourDescription
        }
    }

    /// The chroma sample location (`chroma_loc_info_present_flag` = 1).
    public struct ChromaLocation: Sendable, Hashable {
        /// `chroma_sample_loc_type_top_field`, 0…5.
        public var topField: UInt8
        /// `chroma_sample_loc_type_bottom_field`, 0…5.
        public var bottomField: UInt8

        /// Creates a chroma location.
        /// - Parameters:
        ///   - topField: `chroma_sample_loc_type_top_field`.
        ///   - bottomField: `chroma_sample_loc_type_bottom_field`.
        public init(topField: UInt8, bottomField: UInt8) {
            self.topField = topField
            self.bottomField = bottomField
        }
    }

    /// Timing information (`timing_info_present_flag` = 1).
    public struct TimingInfo: Sendable, Hashable {
        /// `num_units_in_tick`, greater than 0.
        public var numUnitsInTick: UInt32
        /// `time_scale`, greater than 0.
        public var timeScale: UInt32
        /// `fixed_frame_rate_flag`.
        public var fixedFrameRateFlag: Bool

        /// Creates timing information.
        /// - Parameters:
        ///   - numUnitsInTick: `num_units_in_tick`.
        ///   - timeScale: `time_scale`.
        ///   - fixedFrameRateFlag: `fixed_frame_rate_flag`.
        public init(numUnitsInTick: UInt32, timeScale: UInt32, fixedFrameRateFlag: Bool) {
            self.numUnitsInTick = numUnitsInTick
            self.timeScale = timeScale
            self.fixedFrameRateFlag = fixedFrameRateFlag
        }
    }

    /// Bitstream restrictions (`bitstream_restriction_flag` = 1).
    public struct BitstreamRestriction: Sendable, Hashable {
        /// `motion_vectors_over_pic_boundaries_flag`.
        public var motionVectorsOverPicBoundariesFlag: Bool
        /// `max_bytes_per_pic_denom`, 0…16.
        public var maxBytesPerPicDenom: UInt32
        /// `max_bits_per_mb_denom`, 0…16.
        public var maxBitsPerMbDenom: UInt32
        /// `log2_max_mv_length_horizontal`, 0…16 (see ``H264VUIParameters/maximumLog2MvLength``).
        public var log2MaxMvLengthHorizontal: UInt32
        /// `log2_max_mv_length_vertical`, 0…16 (see ``H264VUIParameters/maximumLog2MvLength``).
        public var log2MaxMvLengthVertical: UInt32
        /// `max_num_reorder_frames`, 0…16: how many frames may precede any frame in decoding order
        /// and follow it in output order.
        public var maxNumReorderFrames: UInt32
        /// `max_dec_frame_buffering`, 0…16: the DPB size in frames the stream needs.
        public var maxDecFrameBuffering: UInt32

        /// Creates bitstream restrictions.
        /// - Parameters:
        ///   - motionVectorsOverPicBoundariesFlag: `motion_vectors_over_pic_boundaries_flag`.
        ///   - maxBytesPerPicDenom: `max_bytes_per_pic_denom`.
        ///   - maxBitsPerMbDenom: `max_bits_per_mb_denom`.
        ///   - log2MaxMvLengthHorizontal: `log2_max_mv_length_horizontal`.
        ///   - log2MaxMvLengthVertical: `log2_max_mv_length_vertical`.
        ///   - maxNumReorderFrames: `max_num_reorder_frames`.
        ///   - maxDecFrameBuffering: `max_dec_frame_buffering`.
        public init(motionVectorsOverPicBoundariesFlag: Bool = true, maxBytesPerPicDenom: UInt32 = 2,
                    maxBitsPerMbDenom: UInt32 = 1, log2MaxMvLengthHorizontal: UInt32 = 15,
                    log2MaxMvLengthVertical: UInt32 = 15, maxNumReorderFrames: UInt32,
                    maxDecFrameBuffering: UInt32) {
            self.motionVectorsOverPicBoundariesFlag = motionVectorsOverPicBoundariesFlag
            self.maxBytesPerPicDenom = maxBytesPerPicDenom
            self.maxBitsPerMbDenom = maxBitsPerMbDenom
            self.log2MaxMvLengthHorizontal = log2MaxMvLengthHorizontal
            self.log2MaxMvLengthVertical = log2MaxMvLengthVertical
            self.maxNumReorderFrames = maxNumReorderFrames
            self.maxDecFrameBuffering = maxDecFrameBuffering
        }
    }

    /// The aspect ratio, `nil` when `aspect_ratio_info_present_flag` is 0.
    public var aspectRatio: AspectRatio?
    /// `overscan_appropriate_flag`, `nil` when `overscan_info_present_flag` is 0.
    public var overscanAppropriateFlag: Bool?
    /// The video signal type, `nil` when `video_signal_type_present_flag` is 0.
    public var videoSignalType: VideoSignalType?
    /// The chroma sample location, `nil` when `chroma_loc_info_present_flag` is 0.
    public var chromaLocation: ChromaLocation?
    /// Timing information, `nil` when `timing_info_present_flag` is 0.
    public var timingInfo: TimingInfo?
    /// The NAL HRD parameters, `nil` when `nal_hrd_parameters_present_flag` is 0.
    public var nalHRDParameters: H264HRDParameters?
    /// The VCL HRD parameters, `nil` when `vcl_hrd_parameters_present_flag` is 0.
    public var vclHRDParameters: H264HRDParameters?
    /// `low_delay_hrd_flag`; coded only when NAL or VCL HRD parameters are present.
    public var lowDelayHRDFlag: Bool
    /// `pic_struct_present_flag`: picture timing SEI messages carry `pic_struct`.
    public var picStructPresentFlag: Bool
    /// Bitstream restrictions, `nil` when `bitstream_restriction_flag` is 0.
    public var bitstreamRestriction: BitstreamRestriction?

    /// Creates VUI parameters; every group defaults to absent.
    /// - Parameters:
    ///   - aspectRatio: the aspect ratio, or `nil`.
    ///   - overscanAppropriateFlag: `overscan_appropriate_flag`, or `nil`.
    ///   - videoSignalType: the video signal type, or `nil`.
    ///   - chromaLocation: the chroma sample location, or `nil`.
    ///   - timingInfo: the timing information, or `nil`.
    ///   - nalHRDParameters: the NAL HRD parameters, or `nil`.
    ///   - vclHRDParameters: the VCL HRD parameters, or `nil`.
    ///   - lowDelayHRDFlag: `low_delay_hrd_flag` (written only with HRD parameters).
    ///   - picStructPresentFlag: `pic_struct_present_flag`.
    ///   - bitstreamRestriction: the bitstream restrictions, or `nil`.
    public init(aspectRatio: AspectRatio? = nil, overscanAppropriateFlag: Bool? = nil,
                videoSignalType: VideoSignalType? = nil, chromaLocation: ChromaLocation? = nil,
                timingInfo: TimingInfo? = nil, nalHRDParameters: H264HRDParameters? = nil,
                vclHRDParameters: H264HRDParameters? = nil, lowDelayHRDFlag: Bool = false,
                picStructPresentFlag: Bool = false, bitstreamRestriction: BitstreamRestriction? = nil) {
        self.aspectRatio = aspectRatio
        self.overscanAppropriateFlag = overscanAppropriateFlag
        self.videoSignalType = videoSignalType
        self.chromaLocation = chromaLocation
        self.timingInfo = timingInfo
        self.nalHRDParameters = nalHRDParameters
        self.vclHRDParameters = vclHRDParameters
        self.lowDelayHRDFlag = lowDelayHRDFlag
        self.picStructPresentFlag = picStructPresentFlag
        self.bitstreamRestriction = bitstreamRestriction
    }

    /// The largest `log2_max_mv_length_horizontal` / `_vertical` accepted: 16.
    ///
    /// The current editions of ITU-T H.264 §E.2.1 say 0…15; earlier editions allowed 0…16 (as H.265's did
    /// before its 02/2018 edition), and deployed encoders still write 16 — Cisco's openh264 does, in every
    /// stream we made with it — and decoders (FFmpeg among them) accept it. A stream is not rejected for it.
    public static let maximumLog2MvLength: UInt32 = 16

    /// Reads `vui_parameters( )` (ITU-T H.264 §E.1.1).
    /// - Parameter reader: the RBSP reader, positioned after `vui_parameters_present_flag`.
    /// - Throws: ``SyntaxError`` naming the field that is cut off or out of range.
    public init(from reader: inout BitReader) throws(SyntaxError) {
        if try reader.flag("aspect_ratio_info_present_flag") {
            let idc = try reader.u8(8, "aspect_ratio_idc")
            if idc == 255 {
                let width = UInt16(try reader.u(16, "sar_width"))
                let height = UInt16(try reader.u(16, "sar_height"))
                aspectRatio = AspectRatio(idc: idc, sarWidth: width, sarHeight: height)
            } else {
                aspectRatio = AspectRatio(idc: idc)
            }
        }
        if try reader.flag("overscan_info_present_flag") {
            overscanAppropriateFlag = try reader.flag("overscan_appropriate_flag")
        }
        if try reader.flag("video_signal_type_present_flag") {
            let format = try reader.u8(3, "video_format")
            let fullRange = try reader.flag("video_full_range_flag")
            var colour: ColourDescription?
            if try reader.flag("colour_description_present_flag") {
                colour = ColourDescription(colourPrimaries: try reader.u8(8, "colour_primaries"),
                                           transferCharacteristics: try reader.u8(8, "transfer_characteristics"),
                                           matrixCoefficients: try reader.u8(8, "matrix_coefficients"))
            }
            videoSignalType = VideoSignalType(videoFormat: format, videoFullRangeFlag: fullRange, colourDescription: colour)
        }
        if try reader.flag("chroma_loc_info_present_flag") {
            let top = try reader.ue("chroma_sample_loc_type_top_field", max: 5)
            let bottom = try reader.ue("chroma_sample_loc_type_bottom_field", max: 5)
            chromaLocation = ChromaLocation(topField: UInt8(top), bottomField: UInt8(bottom))
        }
        if try reader.flag("timing_info_present_flag") {
            let units = try reader.u(32, "num_units_in_tick", allowed: 1...UInt32.max)
            let scale = try reader.u(32, "time_scale", allowed: 1...UInt32.max)
            timingInfo = TimingInfo(numUnitsInTick: units, timeScale: scale,
                                    fixedFrameRateFlag: try reader.flag("fixed_frame_rate_flag"))
        }
        if try reader.flag("nal_hrd_parameters_present_flag") {
            nalHRDParameters = try H264HRDParameters(from: &reader)
        }
        if try reader.flag("vcl_hrd_parameters_present_flag") {
            vclHRDParameters = try H264HRDParameters(from: &reader)
        }
        lowDelayHRDFlag = false
        if nalHRDParameters != nil || vclHRDParameters != nil {
            lowDelayHRDFlag = try reader.flag("low_delay_hrd_flag")
        }
        picStructPresentFlag = try reader.flag("pic_struct_present_flag")
        if try reader.flag("bitstream_restriction_flag") {
            bitstreamRestriction = BitstreamRestriction(
                motionVectorsOverPicBoundariesFlag: try reader.flag("motion_vectors_over_pic_boundaries_flag"),
                maxBytesPerPicDenom: try reader.ue("max_bytes_per_pic_denom", max: 16),
                maxBitsPerMbDenom: try reader.ue("max_bits_per_mb_denom", max: 16),
                log2MaxMvLengthHorizontal: try reader.ue("log2_max_mv_length_horizontal", max: Self.maximumLog2MvLength),
                log2MaxMvLengthVertical: try reader.ue("log2_max_mv_length_vertical", max: Self.maximumLog2MvLength),
                maxNumReorderFrames: try reader.ue("max_num_reorder_frames", max: 16),
                maxDecFrameBuffering: try reader.ue("max_dec_frame_buffering", max: 16))
        }
    }

    /// Writes `vui_parameters( )` (§E.1.1).
    /// - Parameter writer: the RBSP writer.
    public func write(to writer: inout BitWriter) {
        writer.flag(aspectRatio != nil)
        if let aspectRatio {
            writer.u(8, UInt32(aspectRatio.idc))
            if aspectRatio.idc == 255 {
                writer.u(16, UInt32(aspectRatio.sarWidth))
                writer.u(16, UInt32(aspectRatio.sarHeight))
            }
        }
        writer.flag(overscanAppropriateFlag != nil)
        if let overscanAppropriateFlag { writer.flag(overscanAppropriateFlag) }
        writer.flag(videoSignalType != nil)
        if let videoSignalType {
            writer.u(3, UInt32(videoSignalType.videoFormat))
            writer.flag(videoSignalType.videoFullRangeFlag)
            writer.flag(videoSignalType.colourDescription != nil)
            if let colour = videoSignalType.colourDescription {
                writer.u(8, UInt32(colour.colourPrimaries))
                writer.u(8, UInt32(colour.transferCharacteristics))
                writer.u(8, UInt32(colour.matrixCoefficients))
            }
        }
        writer.flag(chromaLocation != nil)
        if let chromaLocation {
            writer.ue(UInt32(chromaLocation.topField))
            writer.ue(UInt32(chromaLocation.bottomField))
        }
        writer.flag(timingInfo != nil)
        if let timingInfo {
            writer.u(32, timingInfo.numUnitsInTick)
            writer.u(32, timingInfo.timeScale)
            writer.flag(timingInfo.fixedFrameRateFlag)
        }
        writer.flag(nalHRDParameters != nil)
        nalHRDParameters?.write(to: &writer)
        writer.flag(vclHRDParameters != nil)
        vclHRDParameters?.write(to: &writer)
        if nalHRDParameters != nil || vclHRDParameters != nil { writer.flag(lowDelayHRDFlag) }
        writer.flag(picStructPresentFlag)
        writer.flag(bitstreamRestriction != nil)
        if let restriction = bitstreamRestriction {
            writer.flag(restriction.motionVectorsOverPicBoundariesFlag)
            writer.ue(restriction.maxBytesPerPicDenom)
            writer.ue(restriction.maxBitsPerMbDenom)
            writer.ue(restriction.log2MaxMvLengthHorizontal)
            writer.ue(restriction.log2MaxMvLengthVertical)
            writer.ue(restriction.maxNumReorderFrames)
            writer.ue(restriction.maxDecFrameBuffering)
        }
    }
}
