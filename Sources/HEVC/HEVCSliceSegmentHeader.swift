import Bitstream

/// The leading part of `slice_segment_header()` of ITU-T H.265 §7.3.6.1: everything up to and
/// including `slice_pic_order_cnt_lsb`, which is what picture boundaries, slice types and picture
/// order counts need.
///
/// Parsing needs the PPS the slice names and the SPS that PPS names (``HEVCParameterSets``).
/// Only the first 64 bytes of the NAL unit payload are unescaped: the fields read here always fit.
public struct HEVCSliceSegmentHeader: Sendable, Hashable {
    /// How many payload bytes are unescaped and read.
    static let prefixByteCount = 64

    /// The NAL unit header of the slice segment.
    public var nalUnitHeader: HEVCNALUnitHeader
    /// `first_slice_segment_in_pic_flag`: the segment starts a picture.
    public var firstSliceSegmentInPicFlag: Bool
    /// `no_output_of_prior_pics_flag`; `nil` for non-IRAP pictures, where it is not coded.
    public var noOutputOfPriorPicsFlag: Bool?
    /// `slice_pic_parameter_set_id`, 0…63.
    public var slicePicParameterSetID: Int
    /// `dependent_slice_segment_flag` (0 when not coded).
    public var dependentSliceSegmentFlag: Bool
    /// `slice_segment_address`, 0…PicSizeInCtbsY − 1 (0 for the first segment of a picture).
    public var sliceSegmentAddress: Int
    /// The `num_extra_slice_header_bits` `slice_reserved_flag[i]` (empty for dependent segments).
    public var sliceReservedFlags: [Bool]
    /// `slice_type`; `nil` for a dependent slice segment, which takes it from the preceding segment.
    public var sliceType: HEVCSliceType?
    /// `pic_output_flag` (1 when not coded).
    public var picOutputFlag: Bool
    /// `colour_plane_id`, 0…2; `nil` unless `separate_colour_plane_flag` is 1.
    public var colourPlaneID: Int?
    /// `slice_pic_order_cnt_lsb`; 0 for IDR pictures (not coded), `nil` for dependent segments.
    public var slicePicOrderCntLsb: Int?

    /// Creates a header from its fields (for example to drive ``HEVCPictureOrderCounter`` directly).
    /// - Parameters:
    ///   - nalUnitHeader: the NAL unit header of the slice segment.
    ///   - firstSliceSegmentInPicFlag: `first_slice_segment_in_pic_flag`.
    ///   - noOutputOfPriorPicsFlag: `no_output_of_prior_pics_flag`, `nil` for non-IRAP pictures.
    ///   - slicePicParameterSetID: `slice_pic_parameter_set_id`.
    ///   - dependentSliceSegmentFlag: `dependent_slice_segment_flag`.
    ///   - sliceSegmentAddress: `slice_segment_address`.
    ///   - sliceReservedFlags: the `slice_reserved_flag[i]`.
    ///   - sliceType: `slice_type`, `nil` for a dependent slice segment.
    ///   - picOutputFlag: `pic_output_flag`.
    ///   - colourPlaneID: `colour_plane_id`, or `nil`.
    ///   - slicePicOrderCntLsb: `slice_pic_order_cnt_lsb` (0 for IDR), `nil` for a dependent slice segment.
    public init(nalUnitHeader: HEVCNALUnitHeader, firstSliceSegmentInPicFlag: Bool = true,
                noOutputOfPriorPicsFlag: Bool? = nil, slicePicParameterSetID: Int = 0,
                dependentSliceSegmentFlag: Bool = false, sliceSegmentAddress: Int = 0, sliceReservedFlags: [Bool] = [],
                sliceType: HEVCSliceType? = .i, picOutputFlag: Bool = true, colourPlaneID: Int? = nil,
                slicePicOrderCntLsb: Int? = 0) {
        self.nalUnitHeader = nalUnitHeader
        self.firstSliceSegmentInPicFlag = firstSliceSegmentInPicFlag
        self.noOutputOfPriorPicsFlag = noOutputOfPriorPicsFlag
        self.slicePicParameterSetID = slicePicParameterSetID
        self.dependentSliceSegmentFlag = dependentSliceSegmentFlag
        self.sliceSegmentAddress = sliceSegmentAddress
        self.sliceReservedFlags = sliceReservedFlags
        self.sliceType = sliceType
        self.picOutputFlag = picOutputFlag
        self.colourPlaneID = colourPlaneID
        self.slicePicOrderCntLsb = slicePicOrderCntLsb
    }

    /// Parses the leading part of a slice segment header from a VCL NAL unit.
    ///
    /// Each call allocates the RBSP it reads; a parser that reads every slice segment of a stream
    /// should keep a buffer and use ``init(nalUnit:parameterSets:scratch:)``.
    /// - Parameters:
    ///   - nalUnit: the VCL NAL unit (header and EBSP), without start code.
    ///   - parameterSets: the parameter sets received so far.
    /// - Throws: ``HEVCError`` for a bad header or non-VCL type, an unknown PPS or SPS id (the
    ///   error names it), parameter sets that contradict each other, or a syntax error naming the field.
    public init<Bytes: Collection>(nalUnit: Bytes, parameterSets: HEVCParameterSets) throws(HEVCError) where Bytes.Element == UInt8 {
        var scratch = [UInt8]()
        try self.init(nalUnit: nalUnit, parameterSets: parameterSets, scratch: &scratch)
    }

    /// Parses the leading part of a slice segment header from a VCL NAL unit, unescaping it into a
    /// buffer the caller keeps from one slice segment to the next.
    ///
    /// The result is that of ``init(nalUnit:parameterSets:)``. `scratch` is overwritten; when it is
    /// uniquely referenced and large enough, parsing does not allocate for the RBSP.
    /// - Parameters:
    ///   - nalUnit: the VCL NAL unit (header and EBSP), without start code.
    ///   - parameterSets: the parameter sets received so far.
    ///   - scratch: a buffer reused for the RBSP; its contents on return are unspecified.
    /// - Throws: ``HEVCError`` as ``init(nalUnit:parameterSets:)``.
    public init<Bytes: Collection>(
        nalUnit: Bytes, parameterSets: HEVCParameterSets, scratch: inout [UInt8]
    ) throws(HEVCError) where Bytes.Element == UInt8 {
        let header = try HEVCNALUnitHeader(parsing: nalUnit)
        guard header.type.isVCL else { throw .unexpectedNALUnitType(header.type, expected: "a VCL NAL unit (types 0...31)") }
        do {
            try EmulationPrevention.checkedRBSP(fromEBSP: nalUnit.dropFirst(HEVCNALUnitHeader.byteCount),
                                                limit: Self.prefixByteCount, into: &scratch)
        } catch {
            switch error {
            case let .missingEmulationPreventionByte(offset):
                throw .missingEmulationPreventionByte(byteOffset: offset, nalUnitType: header.type)
            }
        }
        try self.init(rbsp: scratch, nalUnitHeader: header, parameterSets: parameterSets)
    }

    /// Parses the leading part of `slice_segment_header()` (ITU-T H.265 §7.3.6.1) from an RBSP.
    /// - Parameters:
    ///   - rbsp: the slice segment RBSP (or at least its first bytes).
    ///   - nalUnitHeader: the NAL unit header of the slice segment.
    ///   - parameterSets: the parameter sets received so far.
    /// - Throws: ``HEVCError/unknownPictureParameterSet(id:)``, ``HEVCError/unknownSequenceParameterSet(id:)``,
    ///   ``HEVCError/inconsistentParameterSets(field:reason:)`` or ``HEVCError/syntax(_:nalUnitType:)``.
    public init(rbsp: [UInt8], nalUnitHeader: HEVCNALUnitHeader, parameterSets: HEVCParameterSets) throws(HEVCError) {
        let type = nalUnitHeader.type
        guard type.isVCL else { throw .unexpectedNALUnitType(type, expected: "a VCL NAL unit (types 0...31)") }
        self.nalUnitHeader = nalUnitHeader
        var reader = BitReader(rbsp)
        (firstSliceSegmentInPicFlag, noOutputOfPriorPicsFlag, slicePicParameterSetID) = try NALUnitPayload.parse(type) {
            () throws(SyntaxError) in
            let first = try reader.flag("first_slice_segment_in_pic_flag")
            let noOutput = type.isIRAP ? try reader.flag("no_output_of_prior_pics_flag") : nil
            let ppsID = try reader.ueInt("slice_pic_parameter_set_id", range: 0...63)
            return (first, noOutput, ppsID)
        }
        let (sps, pps) = try parameterSets.activeParameterSets(pictureParameterSetID: slicePicParameterSetID)
        // An SPS built in code (not parsed) may hold values no bitstream can; refuse them here.
        guard (0...12).contains(sps.log2MaxPicOrderCntLsbMinus4) else {
            throw .inconsistentParameterSets(field: "log2_max_pic_order_cnt_lsb_minus4",
                                             reason: "value \(sps.log2MaxPicOrderCntLsbMinus4) outside 0...12")
        }
        guard sps.picSizeInCtbsY >= 1, sps.picSizeInCtbsY <= 1 << 24 else {
            throw .inconsistentParameterSets(field: "pic_width_in_luma_samples",
                                             reason: "the SPS describes \(sps.picSizeInCtbsY) CTBs")
        }
        dependentSliceSegmentFlag = false
        sliceSegmentAddress = 0
        sliceReservedFlags = []
        sliceType = nil
        picOutputFlag = true
        colourPlaneID = nil
        slicePicOrderCntLsb = nil
        try NALUnitPayload.parse(type) { () throws(SyntaxError) in
            try readRest(from: &reader, sps: sps, pps: pps)
        }
    }

    /// Reads the elements after `slice_pic_parameter_set_id` (§7.3.6.1) with the ranges of §7.4.7.1.
    private mutating func readRest(from reader: inout BitReader, sps: HEVCSequenceParameterSet,
                                   pps: HEVCPictureParameterSet) throws(SyntaxError) {
        if !firstSliceSegmentInPicFlag {
            if pps.dependentSliceSegmentsEnabledFlag {
                dependentSliceSegmentFlag = try reader.flag("dependent_slice_segment_flag")
            }
            let ctbCount = sps.picSizeInCtbsY
            let bits = ctbCount > 1 ? Int.bitWidth - (ctbCount - 1).leadingZeroBitCount : 0
            sliceSegmentAddress = try reader.uInt(bits, "slice_segment_address", range: 0...(ctbCount - 1))
        }
        guard !dependentSliceSegmentFlag else { return }
        for _ in 0..<pps.numExtraSliceHeaderBits {
            sliceReservedFlags.append(try reader.flag("slice_reserved_flag"))
        }
        let typeStart = reader.bitPosition
        let code = try reader.ueInt("slice_type", range: 0...2)
        guard let sliceType = HEVCSliceType(rawValue: code) else {
            throw SyntaxError(field: "slice_type", bitOffset: typeStart, reason: .outOfRange(value: Int64(code), allowed: 0...2))
        }
        if nalUnitHeader.type.isIRAP && nalUnitHeader.layerID == 0 && sliceType != .i {
            throw SyntaxError(field: "slice_type", bitOffset: typeStart,
                              reason: .invalid("\(sliceType) slice in an IRAP picture (\(nalUnitHeader.type)); only I is allowed"))
        }
        self.sliceType = sliceType
        if pps.outputFlagPresentFlag {
            picOutputFlag = try reader.flag("pic_output_flag")
        }
        if sps.separateColourPlaneFlag {
            colourPlaneID = try reader.uInt(2, "colour_plane_id", range: 0...2)
        }
        if nalUnitHeader.type.isIDR {
            slicePicOrderCntLsb = 0
        } else {
            slicePicOrderCntLsb = Int(try reader.u(sps.log2MaxPicOrderCntLsbMinus4 + 4, "slice_pic_order_cnt_lsb"))
        }
    }
}
