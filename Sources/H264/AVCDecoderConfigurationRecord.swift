/// The AVC decoder configuration record, the payload of an MP4 `avcC` box (ISO/IEC 14496-15 §5.3.3.1):
/// profile, level, the NAL unit length size of the samples, and the SPS, PPS and SPS extension NAL
/// units a decoder needs before the first sample.
///
/// The High-profile extension (`chroma_format`, bit depths, SPS extensions) belongs to records whose
/// `AVCProfileIndication` is 100, 110, 122, 144 or 244 (High 4:4:4 Predictive, which replaced 144 in
/// ITU-T H.264 (2007) and which x264 writes for `--profile high444`); older writers leave it out, so it is
/// optional when reading. FFmpeg's `ff_isom_write_avcc` also writes it for the other profiles whose SPS carries
/// `chroma_format_idc` (H.264 §7.3.2.1.1: 44, 83, 86, 118, 128, 134, 135, 138, 139); a record of those with
/// the extension is read too.
/// Reserved bits are written as the standard sets them (all ones).
public struct AVCDecoderConfigurationRecord: Sendable, Hashable {
    /// The fields that follow the PPSs for the High profiles.
    public struct HighProfileExtension: Sendable, Hashable {
        /// `chroma_format`: `chroma_format_idc` of the SPSs, 0…3.
        public var chromaFormat: UInt8
        /// `bit_depth_luma_minus8`, 0…7.
        public var bitDepthLumaMinus8: UInt8
        /// `bit_depth_chroma_minus8`, 0…7.
        public var bitDepthChromaMinus8: UInt8
        /// The SPS extension NAL units (type 13), at most 255.
        public var sequenceParameterSetExtensions: [[UInt8]]

        /// Creates the extension.
        /// - Parameters:
        ///   - chromaFormat: `chroma_format`.
        ///   - bitDepthLumaMinus8: `bit_depth_luma_minus8`.
        ///   - bitDepthChromaMinus8: `bit_depth_chroma_minus8`.
        ///   - sequenceParameterSetExtensions: SPS extension NAL units.
        public init(chromaFormat: UInt8, bitDepthLumaMinus8: UInt8, bitDepthChromaMinus8: UInt8,
                    sequenceParameterSetExtensions: [[UInt8]] = []) {
            self.chromaFormat = chromaFormat
            self.bitDepthLumaMinus8 = bitDepthLumaMinus8
            self.bitDepthChromaMinus8 = bitDepthChromaMinus8
            self.sequenceParameterSetExtensions = sequenceParameterSetExtensions
        }
    }

    /// The `AVCProfileIndication` values that carry the High-profile extension (ISO/IEC 14496-15 §5.3.3.1):
    /// High, High 10, High 4:2:2, the old High 4:4:4 (144) and High 4:4:4 Predictive (244).
    public static let profilesWithExtension: Set<UInt8> = [100, 110, 122, 144, 244]

    /// The profiles whose SPS carries `chroma_format_idc` and bit depths (H.264 §7.3.2.1.1) beyond
    /// ``profilesWithExtension``: a record of one of them may end with the extension (FFmpeg writes it for
    /// every profile but 66, 77 and 88), and it is read when present.
    public static let profilesAcceptingExtension: Set<UInt8> = profilesWithExtension.union(H264SequenceParameterSet.profilesWithChromaFormat)

    /// `configurationVersion`: 1.
    public var configurationVersion: UInt8
    /// `AVCProfileIndication`: `profile_idc` of the SPSs.
    public var profileIndication: UInt8
    /// `profile_compatibility`: the constraint-flag byte of the SPSs.
    public var profileCompatibility: UInt8
    /// `AVCLevelIndication`: `level_idc` of the SPSs.
    public var levelIndication: UInt8
    /// The size of the length prefix of each NAL unit in the samples: 1, 2 or 4 (`lengthSizeMinusOne` + 1).
    public var nalUnitLength: Int
    /// The SPS NAL units, at most 31.
    public var sequenceParameterSets: [[UInt8]]
    /// The PPS NAL units, at most 255.
    public var pictureParameterSets: [[UInt8]]
    /// The High-profile extension, `nil` when the record ends after the PPSs.
    public var highProfileExtension: HighProfileExtension?

    /// Parses an `avcC` payload (ISO/IEC 14496-15 §5.3.3.1 `AVCDecoderConfigurationRecord`).
    /// - Parameter bytes: the box payload (after the box size and type).
    /// - Throws: ``H264Error/decoderConfigurationRecord(field:byteOffset:reason:)`` naming the field
    ///   that is cut off or invalid.
    public init<Bytes: Collection>(bytes: Bytes) throws(H264Error) where Bytes.Element == UInt8 {
        var reader = ByteCursor(Array(bytes))
        configurationVersion = try reader.byte("configurationVersion")
        guard configurationVersion == 1 else {
            throw .decoderConfigurationRecord(field: "configurationVersion", byteOffset: 0,
                                              reason: "value \(configurationVersion) is not 1")
        }
        profileIndication = try reader.byte("AVCProfileIndication")
        profileCompatibility = try reader.byte("profile_compatibility")
        levelIndication = try reader.byte("AVCLevelIndication")
        let lengthSizeMinusOne = try reader.byte("lengthSizeMinusOne") & 0x03
        guard lengthSizeMinusOne != 2 else {
            throw .decoderConfigurationRecord(field: "lengthSizeMinusOne", byteOffset: 4,
                                              reason: "value 2 (3-byte lengths) is not allowed; use 0, 1 or 3")
        }
        nalUnitLength = Int(lengthSizeMinusOne) + 1
        let spsCount = Int(try reader.byte("numOfSequenceParameterSets") & 0x1F)
        sequenceParameterSets = try reader.nalUnits(count: spsCount, field: "sequenceParameterSet",
                                                    type: .sequenceParameterSet)
        let ppsCount = Int(try reader.byte("numOfPictureParameterSets"))
        pictureParameterSets = try reader.nalUnits(count: ppsCount, field: "pictureParameterSet",
                                                   type: .pictureParameterSet)
        highProfileExtension = nil
        guard !reader.isAtEnd else { return }
        guard Self.profilesAcceptingExtension.contains(profileIndication) else {
            throw .decoderConfigurationRecord(field: "AVCDecoderConfigurationRecord", byteOffset: reader.offset,
                                              reason: "\(reader.remaining) unexpected bytes after the picture parameter sets (profile \(profileIndication) has no extension)")
        }
        let chromaFormat = try reader.byte("chroma_format") & 0x03
        let lumaDepth = try reader.byte("bit_depth_luma_minus8") & 0x07
        let chromaDepth = try reader.byte("bit_depth_chroma_minus8") & 0x07
        let extensionCount = Int(try reader.byte("numOfSequenceParameterSetExt"))
        let extensions = try reader.nalUnits(count: extensionCount, field: "sequenceParameterSetExt",
                                             type: .sequenceParameterSetExtension)
        highProfileExtension = HighProfileExtension(chromaFormat: chromaFormat, bitDepthLumaMinus8: lumaDepth,
                                                    bitDepthChromaMinus8: chromaDepth,
                                                    sequenceParameterSetExtensions: extensions)
        guard reader.isAtEnd else {
            throw .decoderConfigurationRecord(field: "AVCDecoderConfigurationRecord", byteOffset: reader.offset,
                                              reason: "\(reader.remaining) unexpected bytes after the record")
        }
    }

    /// Builds a record from parameter-set NAL units: profile, compatibility and level come from the
    /// first SPS, and for profiles 100, 110, 122, 144 and 244 the High-profile extension from its chroma
    /// format and bit depths.
    /// - Parameters:
    ///   - sequenceParameterSets: SPS NAL units (without start codes), 1…31.
    ///   - pictureParameterSets: PPS NAL units, 0…255.
    ///   - sequenceParameterSetExtensions: SPS extension NAL units, 0…255 (High profiles only).
    ///   - nalUnitLength: the length-prefix size of the samples: 1, 2 or 4.
    /// - Throws: ``H264Error`` when the first SPS cannot be parsed or a count or length does not fit.
    public init(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]],
                sequenceParameterSetExtensions: [[UInt8]] = [], nalUnitLength: Int = 4) throws(H264Error) {
        guard nalUnitLength == 1 || nalUnitLength == 2 || nalUnitLength == 4 else {
            throw .decoderConfigurationRecord(field: "lengthSizeMinusOne", byteOffset: 4,
                                              reason: "NAL unit length \(nalUnitLength) is not 1, 2 or 4")
        }
        guard let first = sequenceParameterSets.first else {
            throw .decoderConfigurationRecord(field: "numOfSequenceParameterSets", byteOffset: 5, reason: "no SPS given")
        }
        guard sequenceParameterSets.count <= 31, pictureParameterSets.count <= 255,
              sequenceParameterSetExtensions.count <= 255 else {
            throw .decoderConfigurationRecord(field: "numOfSequenceParameterSets", byteOffset: 5,
                                              reason: "too many parameter sets (at most 31 SPS, 255 PPS, 255 SPS extensions)")
        }
        for unit in sequenceParameterSets + pictureParameterSets + sequenceParameterSetExtensions where unit.count > 0xFFFF {
            throw .decoderConfigurationRecord(field: "sequenceParameterSetLength", byteOffset: 6,
                                              reason: "a parameter set of \(unit.count) bytes does not fit a 16-bit length")
        }
        let sps = try H264SequenceParameterSet(nalUnit: first)
        configurationVersion = 1
        profileIndication = sps.profileIDC
        profileCompatibility = sps.constraintFlags.rawValue
        levelIndication = sps.levelIDC
        self.nalUnitLength = nalUnitLength
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        if Self.profilesWithExtension.contains(sps.profileIDC) {
            highProfileExtension = HighProfileExtension(
                chromaFormat: UInt8(sps.chromaFormatIDC), bitDepthLumaMinus8: UInt8(sps.bitDepthLumaMinus8),
                bitDepthChromaMinus8: UInt8(sps.bitDepthChromaMinus8),
                sequenceParameterSetExtensions: sequenceParameterSetExtensions)
        } else {
            highProfileExtension = nil
        }
    }

    /// The record's bytes (the `avcC` box payload).
    /// - Returns: the serialized record.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = [configurationVersion, profileIndication, profileCompatibility, levelIndication,
                            0xFC | UInt8((max(nalUnitLength, 1) - 1) & 0x03),
                            0xE0 | UInt8(min(sequenceParameterSets.count, 31))]
        func append(_ units: [[UInt8]]) {
            for unit in units {
                out.append(UInt8(truncatingIfNeeded: unit.count >> 8))
                out.append(UInt8(truncatingIfNeeded: unit.count))
                out.append(contentsOf: unit)
            }
        }
        append(Array(sequenceParameterSets.prefix(31)))
        out.append(UInt8(min(pictureParameterSets.count, 255)))
        append(Array(pictureParameterSets.prefix(255)))
        if let ext = highProfileExtension {
            out.append(0xFC | (ext.chromaFormat & 0x03))
            out.append(0xF8 | (ext.bitDepthLumaMinus8 & 0x07))
            out.append(0xF8 | (ext.bitDepthChromaMinus8 & 0x07))
            out.append(UInt8(min(ext.sequenceParameterSetExtensions.count, 255)))
            append(Array(ext.sequenceParameterSetExtensions.prefix(255)))
        }
        return out
    }

    /// Parses the record's SPSs and PPSs into a parameter-set store (SPSs first, so PPSs can refer to them).
    /// - Returns: the parameter sets.
    /// - Throws: ``H264Error`` when a parameter set is malformed.
    public func parameterSets() throws(H264Error) -> H264ParameterSets {
        var sets = H264ParameterSets()
        for unit in sequenceParameterSets { try sets.process(nalUnit: unit) }
        for unit in pictureParameterSets { try sets.process(nalUnit: unit) }
        return sets
    }
}

/// Reads the byte fields of an `avcC` record with bounds checks.
private struct ByteCursor {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func byte(_ field: String) throws(H264Error) -> UInt8 {
        guard offset < bytes.count else {
            throw .decoderConfigurationRecord(field: field, byteOffset: offset, reason: "the record ends before this field")
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads `count` entries of a 16-bit length and a NAL unit of the given type; `field` is the
    /// syntax name without its `Length` / `NALUnit` suffix.
    mutating func nalUnits(count: Int, field: String, type: H264NALUnitType) throws(H264Error) -> [[UInt8]] {
        var units: [[UInt8]] = []
        for _ in 0..<count {
            let lengthOffset = offset
            let length = Int(try byte(field + "Length")) << 8 | Int(try byte(field + "Length"))
            guard length <= remaining else {
                throw .decoderConfigurationRecord(field: field + "Length", byteOffset: lengthOffset,
                                                  reason: "length \(length) exceeds the \(remaining) bytes left")
            }
            let unit = Array(bytes[offset..<(offset + length)])
            guard let first = unit.first, H264NALUnitType(headerByte: first) == type, first & 0x80 == 0 else {
                throw .decoderConfigurationRecord(field: field + "NALUnit", byteOffset: offset,
                                                  reason: "not a NAL unit of type \(type.rawValue) (\(type))")
            }
            units.append(unit)
            offset += length
        }
        return units
    }
}
