/// `HEVCDecoderConfigurationRecord` of ISO/IEC 14496-15 §8.3.3.1: the payload of an MP4 `hvcC`
/// box — profile, tier and level, stream properties, the NAL unit length size and the parameter
/// sets (and declarative SEI) in arrays by NAL unit type.
///
/// Reserved bits are written as the standard fixes them (all ones; the bit beside
/// `NAL_unit_type` zero), so parse → ``bytes()`` is byte-identical for every conforming record.
public struct HEVCDecoderConfigurationRecord: Sendable, Hashable {
    /// One array of NAL units of a single type.
    public struct NALUnitArray: Sendable, Hashable {
        /// `array_completeness`: all NAL units of this type are in the array (none in the samples).
        public var arrayCompleteness: Bool
        /// `NAL_unit_type`.
        public var nalUnitType: HEVCNALUnitType
        /// The NAL units, without start codes or length prefixes (at most 65 535 bytes each).
        public var nalUnits: [[UInt8]]

        /// Creates an array.
        /// - Parameters:
        ///   - arrayCompleteness: `array_completeness`.
        ///   - nalUnitType: `NAL_unit_type`.
        ///   - nalUnits: the NAL units.
        public init(arrayCompleteness: Bool, nalUnitType: HEVCNALUnitType, nalUnits: [[UInt8]]) {
            self.arrayCompleteness = arrayCompleteness
            self.nalUnitType = nalUnitType
            self.nalUnits = nalUnits
        }
    }

    /// `configurationVersion` (1).
    public var configurationVersion = 1
    /// `general_profile_space`, 0…3.
    public var generalProfileSpace = 0
    /// `general_tier_flag`.
    public var generalTierFlag = false
    /// `general_profile_idc`, 0…31.
    public var generalProfileIDC = 0
    /// `general_profile_compatibility_flags` (flag `j` in bit `31 − j`).
    public var generalProfileCompatibilityFlags: UInt32 = 0
    /// `general_constraint_indicator_flags` (48 bits).
    public var generalConstraintIndicatorFlags: UInt64 = 0
    /// `general_level_idc`.
    public var generalLevelIDC = 0
    /// `min_spatial_segmentation_idc`, 0…4095 (0 = unknown).
    public var minSpatialSegmentationIDC = 0
    /// `parallelismType`: 0 unknown or mixed, 1 slices, 2 tiles, 3 wavefront.
    public var parallelismType = 0
    /// `chromaFormat` (`chroma_format_idc`).
    public var chromaFormatIDC = 1
    /// `bitDepthLumaMinus8`, 0…7.
    public var bitDepthLumaMinus8 = 0
    /// `bitDepthChromaMinus8`, 0…7.
    public var bitDepthChromaMinus8 = 0
    /// `avgFrameRate` in frames per 256 seconds (0 = unspecified).
    public var avgFrameRate = 0
    /// `constantFrameRate`: 0 unknown, 1 constant, 2 constant per temporal layer.
    public var constantFrameRate = 0
    /// `numTemporalLayers`, 0…7 (0 = unknown).
    public var numTemporalLayers = 1
    /// `temporalIdNested`.
    public var temporalIDNested = true
    /// `lengthSizeMinusOne`: 0, 1 or 3 (NAL unit length prefixes of 1, 2 or 4 bytes).
    public var lengthSizeMinusOne = 3
    /// The NAL unit arrays.
    public var arrays: [NALUnitArray] = []

    /// Creates an empty record; set the fields or use ``init(videoParameterSets:sequenceParameterSets:pictureParameterSets:seiNALUnits:arrayCompleteness:lengthSizeMinusOne:)``.
    public init() {}

    /// The size in bytes of the NAL unit length prefixes (`lengthSizeMinusOne + 1`).
    public var nalUnitLengthSize: Int { lengthSizeMinusOne + 1 }

    /// All NAL units of one type, from every array of that type.
    /// - Parameter type: the NAL unit type.
    /// - Returns: the NAL units in record order.
    public func nalUnits(ofType type: HEVCNALUnitType) -> [[UInt8]] {
        arrays.filter { $0.nalUnitType == type }.flatMap(\.nalUnits)
    }

    // MARK: - Parsing

    /// Parses an `HEVCDecoderConfigurationRecord` (ISO/IEC 14496-15 §8.3.3.1.2): the payload of an
    /// `hvcC` box, without the box header.
    /// - Parameter bytes: the record.
    /// - Throws: ``HEVCError/decoderConfigurationRecord(field:byteOffset:reason:)`` naming the field
    ///   that is truncated or invalid, or trailing bytes after the last array.
    public init(bytes: [UInt8]) throws(HEVCError) {
        var cursor = ByteCursor(bytes: bytes)
        configurationVersion = Int(try cursor.read(1, "configurationVersion"))
        guard configurationVersion == 1 else {
            throw .decoderConfigurationRecord(field: "configurationVersion", byteOffset: 0,
                                              reason: "version \(configurationVersion) is not 1")
        }
        let profileByte = try cursor.read(1, "general_profile_idc")
        generalProfileSpace = Int(profileByte >> 6)
        generalTierFlag = profileByte >> 5 & 1 == 1
        generalProfileIDC = Int(profileByte & 0x1F)
        generalProfileCompatibilityFlags = UInt32(try cursor.read(4, "general_profile_compatibility_flags"))
        generalConstraintIndicatorFlags = try cursor.read(6, "general_constraint_indicator_flags")
        generalLevelIDC = Int(try cursor.read(1, "general_level_idc"))
        minSpatialSegmentationIDC = Int(try cursor.read(2, "min_spatial_segmentation_idc") & 0x0FFF)
        parallelismType = Int(try cursor.read(1, "parallelismType") & 0x03)
        chromaFormatIDC = Int(try cursor.read(1, "chromaFormat") & 0x03)
        bitDepthLumaMinus8 = Int(try cursor.read(1, "bitDepthLumaMinus8") & 0x07)
        bitDepthChromaMinus8 = Int(try cursor.read(1, "bitDepthChromaMinus8") & 0x07)
        avgFrameRate = Int(try cursor.read(2, "avgFrameRate"))
        let packed = try cursor.read(1, "lengthSizeMinusOne")
        constantFrameRate = Int(packed >> 6)
        numTemporalLayers = Int(packed >> 3 & 0x07)
        temporalIDNested = packed >> 2 & 1 == 1
        lengthSizeMinusOne = Int(packed & 0x03)
        guard lengthSizeMinusOne != 2 else {
            throw .decoderConfigurationRecord(field: "lengthSizeMinusOne", byteOffset: cursor.offset - 1,
                                              reason: "value 2 (3-byte lengths) is not allowed; use 0, 1 or 3")
        }
        let arrayCount = Int(try cursor.read(1, "numOfArrays"))
        arrays = []
        for _ in 0..<arrayCount {
            let typeByte = try cursor.read(1, "NAL_unit_type")
            let count = Int(try cursor.read(2, "numNalus"))
            var nalUnits = [[UInt8]]()
            for _ in 0..<count {
                let length = Int(try cursor.read(2, "nalUnitLength"))
                nalUnits.append(try cursor.bytes(length, "nalUnit"))
            }
            arrays.append(NALUnitArray(arrayCompleteness: typeByte & 0x80 != 0,
                                       nalUnitType: HEVCNALUnitType(sixBits: UInt8(typeByte & 0x3F)), nalUnits: nalUnits))
        }
        guard cursor.offset == bytes.count else {
            throw .decoderConfigurationRecord(field: "numOfArrays", byteOffset: cursor.offset,
                                              reason: "\(bytes.count - cursor.offset) bytes follow the last NAL unit array")
        }
    }

    // MARK: - Building

    /// Builds a record from parameter sets the way ISO/IEC 14496-15 §8.3.3.1.3 asks: the tier is
    /// the highest of all VPS/SPS, the level the highest for that tier, the profile the highest
    /// `profile_idc`, the compatibility and constraint flags only those set in every parameter set;
    /// `min_spatial_segmentation_idc` is the lowest of the SPS VUIs (0 when any SPS has none);
    /// `parallelismType` follows the PPS tools (0 when unknown); `avgFrameRate` and
    /// `constantFrameRate` are 0 (unspecified), as FFmpeg writes them.
    /// - Parameters:
    ///   - videoParameterSets: the VPS NAL units (at least one).
    ///   - sequenceParameterSets: the SPS NAL units (at least one).
    ///   - pictureParameterSets: the PPS NAL units (at least one).
    ///   - seiNALUnits: declarative prefix or suffix SEI NAL units to carry, in order.
    ///   - arrayCompleteness: `array_completeness` of the parameter-set arrays (1 for `hvc1`,
    ///     0 for `hev1` sample entries).
    ///   - lengthSizeMinusOne: 0, 1 or 3.
    /// - Throws: ``HEVCError`` if a parameter set does not parse, a list is empty, or a NAL unit
    ///   exceeds 65 535 bytes.
    public init(videoParameterSets: [[UInt8]], sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]],
                seiNALUnits: [[UInt8]] = [], arrayCompleteness: Bool = false, lengthSizeMinusOne: Int = 3) throws(HEVCError) {
        self.init()
        let vpsList = try videoParameterSets.map { (bytes) throws(HEVCError) in try HEVCVideoParameterSet(nalUnit: bytes) }
        let spsList = try sequenceParameterSets.map { (bytes) throws(HEVCError) in try HEVCSequenceParameterSet(nalUnit: bytes) }
        let ppsList = try pictureParameterSets.map { (bytes) throws(HEVCError) in try HEVCPictureParameterSet(nalUnit: bytes) }
        guard let firstSPS = spsList.first, !vpsList.isEmpty, !ppsList.isEmpty else {
            throw .decoderConfigurationRecord(field: "numOfArrays", byteOffset: 0,
                                              reason: "at least one VPS, one SPS and one PPS are needed")
        }
        guard [0, 1, 3].contains(lengthSizeMinusOne) else {
            throw .decoderConfigurationRecord(field: "lengthSizeMinusOne", byteOffset: 21,
                                              reason: "value \(lengthSizeMinusOne); use 0, 1 or 3")
        }
        mergeProfiles(vpsList.map(\.profileTierLevel.general) + spsList.map(\.profileTierLevel.general),
                      levels: vpsList.map(\.profileTierLevel.generalLevelIDC) + spsList.map(\.profileTierLevel.generalLevelIDC))
        let segmentation = spsList.map { $0.vui?.bitstreamRestriction?.minSpatialSegmentationIDC ?? 0 }
        minSpatialSegmentationIDC = segmentation.contains(0) ? 0 : segmentation.min() ?? 0
        let types = Set(ppsList.map { pps -> Int in
            switch (pps.entropyCodingSyncEnabledFlag, pps.tiles != nil) {
            case (true, true): return 0
            case (true, false): return 3
            case (false, true): return 2
            case (false, false): return 1
            }
        })
        parallelismType = minSpatialSegmentationIDC == 0 || types.count != 1 ? 0 : types.first ?? 0
        chromaFormatIDC = firstSPS.chromaFormatIDC
        bitDepthLumaMinus8 = firstSPS.bitDepthLumaMinus8
        bitDepthChromaMinus8 = firstSPS.bitDepthChromaMinus8
        numTemporalLayers = (vpsList.map(\.maxSubLayersMinus1) + spsList.map(\.maxSubLayersMinus1)).max().map { $0 + 1 } ?? 1
        temporalIDNested = spsList.allSatisfy(\.temporalIDNestingFlag)
        self.lengthSizeMinusOne = lengthSizeMinusOne
        arrays = [
            NALUnitArray(arrayCompleteness: arrayCompleteness, nalUnitType: .vps, nalUnits: videoParameterSets),
            NALUnitArray(arrayCompleteness: arrayCompleteness, nalUnitType: .sps, nalUnits: sequenceParameterSets),
            NALUnitArray(arrayCompleteness: arrayCompleteness, nalUnitType: .pps, nalUnits: pictureParameterSets),
        ]
        for type in [HEVCNALUnitType.prefixSEI, .suffixSEI] {
            let units = seiNALUnits.filter { $0.first.map { HEVCNALUnitType(sixBits: $0 >> 1) } == type }
            if !units.isEmpty { arrays.append(NALUnitArray(arrayCompleteness: false, nalUnitType: type, nalUnits: units)) }
        }
        for array in arrays {
            for unit in array.nalUnits where unit.count > 0xFFFF {
                throw .decoderConfigurationRecord(field: "nalUnitLength", byteOffset: 0,
                                                  reason: "a \(array.nalUnitType) NAL unit of \(unit.count) bytes exceeds 65535")
            }
        }
    }

    /// Combines the general profiles and levels of several parameter sets (§8.3.3.1.3).
    private mutating func mergeProfiles(_ profiles: [HEVCProfileTierLevel.Profile], levels: [Int]) {
        generalProfileCompatibilityFlags = 0xFFFF_FFFF
        generalConstraintIndicatorFlags = 0xFFFF_FFFF_FFFF
        generalLevelIDC = 0
        for (profile, level) in zip(profiles, levels) {
            generalProfileSpace = profile.profileSpace
            if profile.tierFlag && !generalTierFlag {
                generalLevelIDC = level
            } else if profile.tierFlag == generalTierFlag {
                generalLevelIDC = max(generalLevelIDC, level)
            }
            generalTierFlag = generalTierFlag || profile.tierFlag
            generalProfileIDC = max(generalProfileIDC, profile.profileIDC)
            generalProfileCompatibilityFlags &= profile.compatibilityFlags
            generalConstraintIndicatorFlags &= profile.constraintIndicatorFlags
        }
    }

    // MARK: - Writing

    /// Serializes the record (ISO/IEC 14496-15 §8.3.3.1.2), the payload of an `hvcC` box.
    /// - Returns: the record bytes.
    public func bytes() -> [UInt8] {
        var out = [UInt8]()
        func put(_ value: UInt64, _ count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) {
                out.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8)))
            }
        }
        put(UInt64(configurationVersion & 0xFF), 1)
        put(UInt64((generalProfileSpace & 0x03) << 6 | (generalTierFlag ? 0x20 : 0) | generalProfileIDC & 0x1F), 1)
        put(UInt64(generalProfileCompatibilityFlags), 4)
        put(generalConstraintIndicatorFlags & 0xFFFF_FFFF_FFFF, 6)
        put(UInt64(generalLevelIDC & 0xFF), 1)
        put(UInt64(0xF000 | minSpatialSegmentationIDC & 0x0FFF), 2)
        put(UInt64(0xFC | parallelismType & 0x03), 1)
        put(UInt64(0xFC | chromaFormatIDC & 0x03), 1)
        put(UInt64(0xF8 | bitDepthLumaMinus8 & 0x07), 1)
        put(UInt64(0xF8 | bitDepthChromaMinus8 & 0x07), 1)
        put(UInt64(avgFrameRate & 0xFFFF), 2)
        put(UInt64((constantFrameRate & 0x03) << 6 | (numTemporalLayers & 0x07) << 3
                   | (temporalIDNested ? 0x04 : 0) | lengthSizeMinusOne & 0x03), 1)
        put(UInt64(min(arrays.count, 0xFF)), 1)
        for array in arrays.prefix(0xFF) {
            put(UInt64((array.arrayCompleteness ? 0x80 : 0) | array.nalUnitType.rawValue & 0x3F), 1)
            let units = array.nalUnits.prefix(0xFFFF)
            put(UInt64(units.count), 2)
            for unit in units {
                let length = min(unit.count, 0xFFFF)
                put(UInt64(length), 2)
                out.append(contentsOf: unit.prefix(length))
            }
        }
        return out
    }
}

/// Reads big-endian fields from a byte array, naming the field that runs past the end.
private struct ByteCursor {
    let bytes: [UInt8]
    var offset = 0

    /// Reads an unsigned big-endian integer of `count` bytes (at most 8).
    mutating func read(_ count: Int, _ field: String) throws(HEVCError) -> UInt64 {
        guard count <= bytes.count - offset else {
            throw .decoderConfigurationRecord(field: field, byteOffset: offset,
                                              reason: "record ends after \(bytes.count) bytes; \(count) more needed")
        }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + count] { value = value << 8 | UInt64(byte) }
        offset += count
        return value
    }

    /// Reads `count` raw bytes.
    mutating func bytes(_ count: Int, _ field: String) throws(HEVCError) -> [UInt8] {
        guard count <= bytes.count - offset else {
            throw .decoderConfigurationRecord(field: field, byteOffset: offset,
                                              reason: "\(count)-byte NAL unit but only \(bytes.count - offset) bytes remain")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}
