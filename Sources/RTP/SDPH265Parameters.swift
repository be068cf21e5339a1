import HEVC
import MediaCore

/// The format parameters of `H265/90000` (RFC 7798 §7.1): the parameter sets of `sprop-vps`, `sprop-sps`
/// and `sprop-pps`, the profile, tier and level, and `sprop-max-don-diff` (non-zero: the packets carry
/// DONL fields). Every other parameter is kept in ``otherParameters``.
public struct SDPH265Parameters: Sendable, Hashable {
    /// `sprop-vps`: video parameter set NAL units.
    public var videoParameterSets: [[UInt8]]
    /// `sprop-sps`: sequence parameter set NAL units.
    public var sequenceParameterSets: [[UInt8]]
    /// `sprop-pps`: picture parameter set NAL units.
    public var pictureParameterSets: [[UInt8]]
    /// `profile-space` (0 when absent).
    public var profileSpace: Int?
    /// `profile-id` (general_profile_idc; Main, 1, when absent).
    public var profileID: Int?
    /// `tier-flag` (main tier when absent).
    public var tierFlag: Bool?
    /// `level-id` (general_level_idc; 93, level 3.1, when absent).
    public var levelID: Int?
    /// `sprop-max-don-diff`: 0 (or absent) means the RTP packets carry no DONL/DOND fields.
    public var maximumDONDifference: Int
    /// `sprop-depack-buf-nalus`: non-zero also means DONL fields are present.
    public var depacketizationBufferNALUnits: Int
    /// The other parameters, kept as written.
    public var otherParameters: SDPFormatParameters

    /// Creates the parameters.
    /// - Parameters:
    ///   - videoParameterSets: VPS NAL units.
    ///   - sequenceParameterSets: SPS NAL units.
    ///   - pictureParameterSets: PPS NAL units.
    ///   - profileID: general_profile_idc.
    ///   - tierFlag: general_tier_flag.
    ///   - levelID: general_level_idc.
    public init(videoParameterSets: [[UInt8]] = [], sequenceParameterSets: [[UInt8]] = [], pictureParameterSets: [[UInt8]] = [],
                profileID: Int? = nil, tierFlag: Bool? = nil, levelID: Int? = nil) {
        self.videoParameterSets = videoParameterSets
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        self.profileSpace = nil
        self.profileID = profileID
        self.tierFlag = tierFlag
        self.levelID = levelID
        self.maximumDONDifference = 0
        self.depacketizationBufferNALUnits = 0
        self.otherParameters = SDPFormatParameters()
    }

    /// Reads the parameters of an `a=fmtp:` line (RFC 7798 §7.1); the parameter sets are parsed by
    /// ``formatDescription()``.
    /// - Parameter parameters: the fmtp parameters.
    /// - Throws: ``SDPError/invalidParameter(name:value:reason:)`` for a value out of range or bad base64.
    public init(_ parameters: SDPFormatParameters) throws(SDPError) {
        self.init()
        videoParameterSets = try Self.units(parameters, "sprop-vps")
        sequenceParameterSets = try Self.units(parameters, "sprop-sps")
        pictureParameterSets = try Self.units(parameters, "sprop-pps")
        profileSpace = try parameters.integer("profile-space", in: 0...3)
        profileID = try parameters.integer("profile-id", in: 0...31)
        tierFlag = try parameters.integer("tier-flag", in: 0...1).map { $0 == 1 }
        levelID = try parameters.integer("level-id", in: 0...255)
        maximumDONDifference = try parameters.integer("sprop-max-don-diff", in: 0...32767) ?? 0
        depacketizationBufferNALUnits = try parameters.integer("sprop-depack-buf-nalus", in: 0...32767) ?? 0
        var others = parameters
        for name in Self.typedNames { others[name] = nil }
        otherParameters = others
    }

    private static let typedNames = ["sprop-vps", "sprop-sps", "sprop-pps", "profile-space", "profile-id", "tier-flag",
                                     "level-id", "sprop-max-don-diff", "sprop-depack-buf-nalus"]

    private static func units(_ parameters: SDPFormatParameters, _ name: String) throws(SDPError) -> [[UInt8]] {
        guard let text = parameters[name] else { return [] }
        return try SDPBinaryText.nalUnits(text, parameter: name)
    }

    /// The parameters of a stream described by `format`: its VPS, SPS and PPS, and the profile, tier and
    /// level of its SPS.
    /// - Parameter format: an H.265 format description with a VPS, an SPS and a PPS.
    /// - Throws: ``SDPError/unrepresentableFormat(_:)`` for another codec or missing parameter sets.
    public init(format: FormatDescription) throws(SDPError) {
        guard format.codec == .hevc else { throw .unrepresentableFormat("\(format.codec) is not H.265") }
        func type(_ unit: [UInt8]) -> UInt8 { unit.count >= 2 ? (unit[0] >> 1) & 0x3F : 0xFF }
        self.init(videoParameterSets: format.parameterSets.filter { type($0) == 32 },
                  sequenceParameterSets: format.parameterSets.filter { type($0) == 33 },
                  pictureParameterSets: format.parameterSets.filter { type($0) == 34 })
        guard !videoParameterSets.isEmpty, !sequenceParameterSets.isEmpty, !pictureParameterSets.isEmpty else {
            throw .unrepresentableFormat("an H.265 SDP needs a VPS, an SPS and a PPS")
        }
        if let sps = try? HEVCSequenceParameterSet(nalUnit: sequenceParameterSets[0]) {
            profileID = sps.profileTierLevel.general.profileIDC
            tierFlag = sps.profileTierLevel.general.tierFlag
            levelID = sps.profileTierLevel.generalLevelIDC
        }
    }

    /// Whether the RTP packets carry DONL fields (RFC 7798 §4.4: sprop-max-don-diff or
    /// sprop-depack-buf-nalus greater than 0).
    public var carriesDecodingOrderNumbers: Bool { maximumDONDifference > 0 || depacketizationBufferNALUnits > 0 }

    /// The fmtp parameters: `profile-id=1;tier-flag=0;level-id=93;sprop-vps=…;sprop-sps=…;sprop-pps=…`.
    public var formatParameters: SDPFormatParameters {
        var parameters = SDPFormatParameters()
        if let profileSpace { parameters["profile-space"] = "\(profileSpace)" }
        if let profileID { parameters["profile-id"] = "\(profileID)" }
        if let tierFlag { parameters["tier-flag"] = tierFlag ? "1" : "0" }
        if let levelID { parameters["level-id"] = "\(levelID)" }
        if maximumDONDifference > 0 { parameters["sprop-max-don-diff"] = "\(maximumDONDifference)" }
        if depacketizationBufferNALUnits > 0 { parameters["sprop-depack-buf-nalus"] = "\(depacketizationBufferNALUnits)" }
        for (name, units) in [("sprop-vps", videoParameterSets), ("sprop-sps", sequenceParameterSets), ("sprop-pps", pictureParameterSets)]
        where !units.isEmpty {
            parameters[name] = units.map(SDPBinaryText.base64).joined(separator: ",")
        }
        parameters.parameters += otherParameters.parameters
        return parameters
    }

    /// The decoder format these parameters describe: every VPS, SPS and PPS parsed by the HEVC module, the
    /// size, profile and level from the first SPS.
    /// - Returns: the format.
    /// - Throws: ``SDPError/missingParameter(_:)`` without VPS, SPS or PPS,
    ///   ``SDPError/invalidParameterSet(name:index:reason:)`` when one does not parse.
    public func formatDescription() throws(SDPError) -> FormatDescription {
        for (name, units) in [("sprop-vps", videoParameterSets), ("sprop-sps", sequenceParameterSets), ("sprop-pps", pictureParameterSets)]
        where units.isEmpty {
            throw .missingParameter(name)
        }
        var first: HEVCSequenceParameterSet?
        for (index, unit) in videoParameterSets.enumerated() {
            do throws(HEVCError) { _ = try HEVCVideoParameterSet(nalUnit: unit) }
            catch { throw .invalidParameterSet(name: "sprop-vps", index: index, reason: error.description) }
        }
        for (index, unit) in sequenceParameterSets.enumerated() {
            do throws(HEVCError) {
                let sps = try HEVCSequenceParameterSet(nalUnit: unit)
                if first == nil { first = sps }
            } catch { throw .invalidParameterSet(name: "sprop-sps", index: index, reason: error.description) }
        }
        for (index, unit) in pictureParameterSets.enumerated() {
            do throws(HEVCError) { _ = try HEVCPictureParameterSet(nalUnit: unit) }
            catch { throw .invalidParameterSet(name: "sprop-pps", index: index, reason: error.description) }
        }
        guard let sps = first else { throw .missingParameter("sprop-sps") }
        return FormatDescription(codec: .hevc, width: sps.width, height: sps.height,
                                 profileLevel: ProfileLevel(codec: .hevc, profileNamed: sps.profileName ?? "unknown", level: sps.levelName),
                                 parameterSets: videoParameterSets + sequenceParameterSets + pictureParameterSets)
    }
}
