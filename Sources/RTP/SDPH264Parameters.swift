import H264
import MediaCore

/// The format parameters of `H264/90000` (RFC 6184 §8.1): packetization mode, `profile-level-id` and the
/// parameter sets in `sprop-parameter-sets`; every other parameter (`max-mbps`, `level-asymmetry-allowed`…)
/// is kept in ``otherParameters``.
public struct SDPH264Parameters: Sendable, Hashable {
    /// `profile-level-id`: the first three bytes of the SPS after the NAL header — profile_idc, the
    /// constraint flags (profile-iop) and level_idc (RFC 6184 §8.1).
    public struct ProfileLevelID: Sendable, Hashable {
        /// `profile_idc`.
        public var profileIDC: UInt8
        /// `profile-iop`: constraint_set0_flag … constraint_set5_flag and the two reserved bits.
        public var constraints: UInt8
        /// `level_idc`.
        public var levelIDC: UInt8

        /// Creates the triple.
        /// - Parameters:
        ///   - profileIDC: profile_idc.
        ///   - constraints: the constraint-flag byte.
        ///   - levelIDC: level_idc.
        public init(profileIDC: UInt8, constraints: UInt8, levelIDC: UInt8) {
            self.profileIDC = profileIDC
            self.constraints = constraints
            self.levelIDC = levelIDC
        }

        /// Six hexadecimal digits, `42e01f`.
        public var text: String { SDPBinaryText.hex([profileIDC, constraints, levelIDC]) }
    }

    /// `packetization-mode`: 0 single NAL unit, 1 non-interleaved, 2 interleaved; 0 when absent (§8.1).
    public var packetizationMode: Int
    /// `profile-level-id`, when written.
    public var profileLevelID: ProfileLevelID?
    /// The NAL units of `sprop-parameter-sets`, in the order written (SPS first, then PPS, usually).
    public var parameterSets: [[UInt8]]
    /// The other parameters, kept as written.
    public var otherParameters: SDPFormatParameters

    /// Creates the parameters.
    /// - Parameters:
    ///   - packetizationMode: 0, 1 or 2; 1 by default, what StreamKit sends.
    ///   - profileLevelID: the profile and level.
    ///   - parameterSets: SPS and PPS NAL units (no start codes).
    ///   - otherParameters: further parameters to write.
    public init(packetizationMode: Int = 1, profileLevelID: ProfileLevelID? = nil, parameterSets: [[UInt8]] = [],
                otherParameters: SDPFormatParameters = SDPFormatParameters()) {
        self.packetizationMode = packetizationMode
        self.profileLevelID = profileLevelID
        self.parameterSets = parameterSets
        self.otherParameters = otherParameters
    }

    /// Reads the parameters of an `a=fmtp:` line (RFC 6184 §8.1). Only the syntax is checked here; the
    /// parameter sets are parsed by ``formatDescription()``.
    /// - Parameter parameters: the fmtp parameters.
    /// - Throws: ``SDPError/invalidParameter(name:value:reason:)`` for a bad mode, profile-level-id or base64.
    public init(_ parameters: SDPFormatParameters) throws(SDPError) {
        packetizationMode = try parameters.integer("packetization-mode", in: 0...2) ?? 0
        if let text = parameters["profile-level-id"] {
            guard let bytes = SDPBinaryText.bytes(hex: text.trimmingSDPSpaces), bytes.count == 3 else {
                throw .invalidParameter(name: "profile-level-id", value: text, reason: "not six hexadecimal digits")
            }
            profileLevelID = ProfileLevelID(profileIDC: bytes[0], constraints: bytes[1], levelIDC: bytes[2])
        } else {
            profileLevelID = nil
        }
        parameterSets = try parameters["sprop-parameter-sets"].map { (text) throws(SDPError) in
            try SDPBinaryText.nalUnits(text, parameter: "sprop-parameter-sets")
        } ?? []
        var others = parameters
        for name in ["packetization-mode", "profile-level-id", "sprop-parameter-sets"] { others[name] = nil }
        otherParameters = others
    }

    /// The parameters of a stream described by `format`: packetization mode 1, profile-level-id from the
    /// SPS, its SPS and PPS as sprop-parameter-sets.
    /// - Parameter format: an H.264 format description with at least one SPS and one PPS.
    /// - Throws: ``SDPError/unrepresentableFormat(_:)`` for another codec or missing parameter sets.
    public init(format: FormatDescription) throws(SDPError) {
        guard format.codec == .h264 else { throw .unrepresentableFormat("\(format.codec) is not H.264") }
        let sets = format.parameterSets.filter { !$0.isEmpty }
        guard let sps = sets.first(where: { $0[0] & 0x1F == 7 }), sps.count >= 4,
              sets.contains(where: { $0[0] & 0x1F == 8 }) else {
            throw .unrepresentableFormat("an H.264 SDP needs an SPS and a PPS")
        }
        let ordered = sets.filter { $0[0] & 0x1F == 7 } + sets.filter { $0[0] & 0x1F == 8 }
        self.init(packetizationMode: 1, profileLevelID: ProfileLevelID(profileIDC: sps[1], constraints: sps[2], levelIDC: sps[3]),
                  parameterSets: ordered)
    }

    /// The fmtp parameters: `packetization-mode=1;profile-level-id=42e01f;sprop-parameter-sets=Z0LgH9oF…,aM4…`.
    public var formatParameters: SDPFormatParameters {
        var parameters = SDPFormatParameters()
        parameters["packetization-mode"] = "\(packetizationMode)"
        if let profileLevelID { parameters["profile-level-id"] = profileLevelID.text }
        if !parameterSets.isEmpty {
            parameters["sprop-parameter-sets"] = parameterSets.map(SDPBinaryText.base64).joined(separator: ",")
        }
        parameters.parameters += otherParameters.parameters
        return parameters
    }

    /// The sequence parameter sets among ``parameterSets`` (nal_unit_type 7).
    public var sequenceParameterSets: [[UInt8]] { parameterSets.filter { $0.first.map { $0 & 0x1F == 7 } ?? false } }
    /// The picture parameter sets among ``parameterSets`` (nal_unit_type 8).
    public var pictureParameterSets: [[UInt8]] { parameterSets.filter { $0.first.map { $0 & 0x1F == 8 } ?? false } }

    /// The decoder format these parameters describe: the first SPS parsed by the H264 module (size,
    /// profile, level), with every SPS and PPS, each PPS checked against its SPS.
    /// - Returns: the format.
    /// - Throws: ``SDPError/missingParameter(_:)`` without SPS or PPS (the stream then carries them in
    ///   band), ``SDPError/invalidParameterSet(name:index:reason:)`` when one does not parse.
    public func formatDescription() throws(SDPError) -> FormatDescription {
        let spsUnits = sequenceParameterSets, ppsUnits = pictureParameterSets
        guard !spsUnits.isEmpty, !ppsUnits.isEmpty else { throw .missingParameter("sprop-parameter-sets (SPS and PPS)") }
        var store = H264ParameterSets()
        var first: H264SequenceParameterSet?
        for (index, unit) in parameterSets.enumerated() {
            do throws(H264Error) {
                if unit[0] & 0x1F == 7 {
                    let sps = try H264SequenceParameterSet(nalUnit: unit)
                    store.insert(sps)
                    if first == nil { first = sps }
                } else if unit[0] & 0x1F == 8 {
                    store.insert(try H264PictureParameterSet(nalUnit: unit, parameterSets: store))
                }
            } catch {
                throw .invalidParameterSet(name: "sprop-parameter-sets", index: index, reason: error.description)
            }
        }
        guard let sps = first else { throw .missingParameter("sprop-parameter-sets (SPS)") }
        return FormatDescription(codec: .h264, width: sps.width, height: sps.height,
                                 profileLevel: ProfileLevel(codec: .h264, profileNamed: sps.profileName, level: sps.levelName),
                                 parameterSets: spsUnits + ppsUnits)
    }
}
