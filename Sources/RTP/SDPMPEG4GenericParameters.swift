import AAC
import MediaCore

/// The format parameters of `mpeg4-generic` (RFC 3640 §4.1) as AAC uses them (`mode=AAC-hbr`): the
/// AudioSpecificConfig in `config`, and the sizes of the AU header fields a depacketizer needs
/// (`sizelength`, `indexlength`, `indexdeltalength`, …). Other parameters are kept in ``otherParameters``.
public struct SDPMPEG4GenericParameters: Sendable, Hashable {
    /// `streamtype`: 5 for audio (ISO/IEC 14496-1 Table 6); `nil` when absent (ffmpeg leaves it out).
    public var streamType: Int?
    /// `profile-level-id`: the MPEG-4 audio profile and level indication.
    public var profileLevelID: Int?
    /// `mode`: `AAC-hbr`, `AAC-lbr`, `generic` … (kept as written; compare ignoring case).
    public var mode: String
    /// `config`: the AudioSpecificConfig bytes (ISO/IEC 14496-3 §1.6.2.1), from hexadecimal.
    public var config: [UInt8]
    /// `sizelength`: bits of the AU-size field of each AU header (13 for AAC-hbr).
    public var sizeLength: Int
    /// `indexlength`: bits of the AU-Index field of the first AU header (3 for AAC-hbr).
    public var indexLength: Int
    /// `indexdeltalength`: bits of the AU-Index-delta field of later AU headers (3 for AAC-hbr).
    public var indexDeltaLength: Int
    /// `ctsdeltalength`: bits of the CTS-delta field (0: absent).
    public var ctsDeltaLength: Int
    /// `dtsdeltalength`: bits of the DTS-delta field (0: absent).
    public var dtsDeltaLength: Int
    /// `randomaccessindication`: whether each AU header has a RAP flag.
    public var randomAccessIndication: Bool
    /// `streamstateindication`: bits of the stream-state field (0: absent).
    public var streamStateIndication: Int
    /// `auxiliarydatasizelength`: bits of the auxiliary-data size field (0: no auxiliary section).
    public var auxiliaryDataSizeLength: Int
    /// `constantsize`: the size of every AU when constant (then there is no AU-size field).
    public var constantSize: Int?
    /// `constantduration`: the duration of every AU in RTP clock units, when constant.
    public var constantDuration: Int?
    /// The other parameters, kept as written.
    public var otherParameters: SDPFormatParameters

    /// Creates AAC-hbr parameters (sizelength 13, indexlength 3, indexdeltalength 3: RFC 3640 §3.3.6).
    /// - Parameters:
    ///   - config: the AudioSpecificConfig bytes.
    ///   - profileLevelID: the profile and level indication; 1 as ffmpeg writes it.
    public init(aacHighBitRate config: [UInt8], profileLevelID: Int = 1) {
        streamType = 5
        self.profileLevelID = profileLevelID
        mode = "AAC-hbr"
        self.config = config
        sizeLength = 13
        indexLength = 3
        indexDeltaLength = 3
        ctsDeltaLength = 0
        dtsDeltaLength = 0
        randomAccessIndication = false
        streamStateIndication = 0
        auxiliaryDataSizeLength = 0
        constantSize = nil
        constantDuration = nil
        otherParameters = SDPFormatParameters()
    }

    /// Reads the parameters of an `a=fmtp:` line (RFC 3640 §4.1).
    /// - Parameter parameters: the fmtp parameters.
    /// - Throws: ``SDPError/missingParameter(_:)`` without `mode`,
    ///   ``SDPError/invalidParameter(name:value:reason:)`` for a bad number or hexadecimal config.
    public init(_ parameters: SDPFormatParameters) throws(SDPError) {
        guard let mode = parameters["mode"] else { throw .missingParameter("mode") }
        self.init(aacHighBitRate: [])
        self.mode = mode
        streamType = try parameters.integer("streamtype", in: 0...63)
        profileLevelID = try parameters.integer("profile-level-id", in: 0...255)
        if let text = parameters["config"] {
            guard let bytes = SDPBinaryText.bytes(hex: text.trimmingSDPSpaces) else {
                throw .invalidParameter(name: "config", value: text, reason: "not hexadecimal")
            }
            config = bytes
        }
        // Lengths of AU header fields (RFC 3640 §3.2.1): at most 32 bits each here.
        sizeLength = try parameters.integer("sizelength", in: 0...32) ?? 0
        indexLength = try parameters.integer("indexlength", in: 0...32) ?? 0
        indexDeltaLength = try parameters.integer("indexdeltalength", in: 0...32) ?? 0
        ctsDeltaLength = try parameters.integer("ctsdeltalength", in: 0...32) ?? 0
        dtsDeltaLength = try parameters.integer("dtsdeltalength", in: 0...32) ?? 0
        randomAccessIndication = (try parameters.integer("randomaccessindication", in: 0...1) ?? 0) == 1
        streamStateIndication = try parameters.integer("streamstateindication", in: 0...32) ?? 0
        auxiliaryDataSizeLength = try parameters.integer("auxiliarydatasizelength", in: 0...32) ?? 0
        constantSize = try parameters.integer("constantsize", in: 1...65535)
        constantDuration = try parameters.integer("constantduration", in: 1...1 << 20)
        var others = parameters
        for name in Self.typedNames { others[name] = nil }
        otherParameters = others
    }

    private static let typedNames = ["streamtype", "profile-level-id", "mode", "config", "sizelength", "indexlength",
                                     "indexdeltalength", "ctsdeltalength", "dtsdeltalength", "randomaccessindication",
                                     "streamstateindication", "auxiliarydatasizelength", "constantsize", "constantduration"]

    /// Whether each AU header carries the fields of AAC-hbr (an AU-size and an index), so that the
    /// AU headers section is present (RFC 3640 §3.2.1).
    public var hasAUHeaders: Bool { sizeLength + indexLength + indexDeltaLength + ctsDeltaLength + dtsDeltaLength > 0 || randomAccessIndication || streamStateIndication > 0 }

    /// The fmtp parameters in the order ffmpeg writes them:
    /// `streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config=1190`.
    public var formatParameters: SDPFormatParameters {
        var parameters = SDPFormatParameters()
        if let streamType { parameters["streamtype"] = "\(streamType)" }
        if let profileLevelID { parameters["profile-level-id"] = "\(profileLevelID)" }
        parameters["mode"] = mode
        let lengths = [("sizelength", sizeLength), ("indexlength", indexLength), ("indexdeltalength", indexDeltaLength),
                       ("ctsdeltalength", ctsDeltaLength), ("dtsdeltalength", dtsDeltaLength),
                       ("streamstateindication", streamStateIndication), ("auxiliarydatasizelength", auxiliaryDataSizeLength)]
        for (name, value) in lengths where value > 0 { parameters[name] = "\(value)" }
        if randomAccessIndication { parameters["randomaccessindication"] = "1" }
        if let constantSize { parameters["constantsize"] = "\(constantSize)" }
        if let constantDuration { parameters["constantduration"] = "\(constantDuration)" }
        parameters["config"] = SDPBinaryText.hex(config)
        parameters.parameters += otherParameters.parameters
        return parameters
    }

    /// The AudioSpecificConfig of ``config``, parsed by the AAC module.
    /// - Returns: the configuration.
    /// - Throws: ``SDPError/missingParameter(_:)`` for an empty config,
    ///   ``SDPError/invalidParameterSet(name:index:reason:)`` when it does not parse.
    public func audioSpecificConfig() throws(SDPError) -> AudioSpecificConfig {
        guard !config.isEmpty else { throw .missingParameter("config") }
        do throws(AudioSpecificConfigError) {
            return try AudioSpecificConfig.parse(config)
        } catch {
            throw .invalidParameterSet(name: "config", index: 0, reason: error.description)
        }
    }

    /// The decoder format: rate, channels, profile and frame length from the AudioSpecificConfig (the
    /// rtpmap's channel count where the config leaves it to a program config element).
    /// - Parameter channelCount: the rtpmap's channel count, used when the config does not say.
    /// - Returns: the format.
    /// - Throws: as ``audioSpecificConfig()``, and ``SDPError/invalidParameter(name:value:reason:)`` when
    ///   the channel count is unknown.
    public func audioFormatDescription(channelCount: Int? = nil) throws(SDPError) -> AudioFormatDescription {
        let asc = try audioSpecificConfig()
        guard let channels = asc.channelCount ?? channelCount, channels > 0 else {
            throw .invalidParameter(name: "config", value: SDPBinaryText.hex(config), reason: "the channel count is not given")
        }
        let frameLength = asc.gaSpecificConfig?.samplesPerFrame(for: asc.audioObjectType) ?? 1024
        return AudioFormatDescription(codec: .aac, sampleRate: asc.outputSampleRate, channelCount: channels,
                                      profile: asc.profileName ?? "LC", audioSpecificConfig: config,
                                      samplesPerFrame: frameLength)
    }
}
