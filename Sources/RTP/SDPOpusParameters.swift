import MediaCore

/// The SDP of an Opus payload type, RFC 7587 §6.1: `a=rtpmap:<pt> opus/48000/2` — always 48000 and 2 channels,
/// whatever the stream holds (§7) — and the optional fmtp parameters a receiver states and a sender honours.
public struct SDPOpusParameters: Sendable, Hashable {
    /// `minptime`: the shortest packet duration in milliseconds the receiver wants (3, 5, 10, 20, 40, 60 or 120).
    public var minimumPacketTime: Int?
    /// `useinbandfec`: whether the receiver can use Opus's in-band forward error correction (default 0).
    public var usesInBandFEC: Bool?
    /// `stereo`: whether the receiver prefers stereo (default 0, mono).
    public var prefersStereo: Bool?
    /// `sprop-stereo`: whether the sender is likely to send stereo (default 0).
    public var sendsStereo: Bool?
    /// `maxplaybackrate`: the highest rate the receiver renders (8000...48000).
    public var maximumPlaybackRate: Int?
    /// `maxaveragebitrate`: the most bits per second the receiver wants (6000...510000).
    public var maximumAverageBitRate: Int?
    /// `cbr`: whether the receiver wants a constant bit rate (default 0).
    public var constantBitRate: Bool?
    /// `usedtx`: whether the receiver wants discontinuous transmission (default 0).
    public var usesDTX: Bool?
    /// Parameters RFC 7587 does not name, kept as written.
    public var otherParameters: SDPFormatParameters

    /// The rtpmap every Opus payload type carries (RFC 7587 §7): `opus/48000/2`.
    /// - Parameter payloadType: the dynamic payload type.
    /// - Returns: the mapping.
    public static func rtpMap(payloadType: UInt8) -> SDPRTPMap {
        SDPRTPMap(payloadType: payloadType, encodingName: "opus", clockRate: 48_000, encodingParameters: "2")
    }

    /// Parameters for a sender of `channelCount` channels: `sprop-stereo` and `stereo` say 1 for stereo, and the
    /// 10 ms `minptime` and in-band FEC that browsers offer.
    /// - Parameter channelCount: 1 or 2.
    public init(channelCount: Int) {
        minimumPacketTime = 10
        usesInBandFEC = true
        prefersStereo = channelCount == 2 ? true : nil
        sendsStereo = channelCount == 2 ? true : nil
        otherParameters = SDPFormatParameters()
    }

    /// Reads the parameters of an `a=fmtp:` line (RFC 7587 §6.1).
    /// - Parameter parameters: the fmtp parameters.
    /// - Throws: ``SDPError/invalidParameter(name:value:reason:)`` for a flag other than 0 or 1 or a number out of
    ///   its range.
    public init(_ parameters: SDPFormatParameters) throws(SDPError) {
        minimumPacketTime = try parameters.integer("minptime", in: 3...120)
        maximumPlaybackRate = try parameters.integer("maxplaybackrate", in: 8000...48000)
        maximumAverageBitRate = try parameters.integer("maxaveragebitrate", in: 6000...510_000)
        usesInBandFEC = try Self.flag("useinbandfec", parameters)
        prefersStereo = try Self.flag("stereo", parameters)
        sendsStereo = try Self.flag("sprop-stereo", parameters)
        constantBitRate = try Self.flag("cbr", parameters)
        usesDTX = try Self.flag("usedtx", parameters)
        var others = parameters
        for name in Self.typedNames { others[name] = nil }
        otherParameters = others
    }

    private static let typedNames = ["minptime", "useinbandfec", "stereo", "sprop-stereo", "maxplaybackrate",
                                     "maxaveragebitrate", "cbr", "usedtx"]

    private static func flag(_ name: String, _ parameters: SDPFormatParameters) throws(SDPError) -> Bool? {
        guard let value = try parameters.integer(name, in: 0...1) else { return nil }
        return value == 1
    }

    /// The fmtp parameters, in the order browsers write them (`minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1`).
    public var formatParameters: SDPFormatParameters {
        var parameters = SDPFormatParameters()
        if let minimumPacketTime { parameters["minptime"] = "\(minimumPacketTime)" }
        if let usesInBandFEC { parameters["useinbandfec"] = usesInBandFEC ? "1" : "0" }
        if let prefersStereo { parameters["stereo"] = prefersStereo ? "1" : "0" }
        if let sendsStereo { parameters["sprop-stereo"] = sendsStereo ? "1" : "0" }
        if let maximumPlaybackRate { parameters["maxplaybackrate"] = "\(maximumPlaybackRate)" }
        if let maximumAverageBitRate { parameters["maxaveragebitrate"] = "\(maximumAverageBitRate)" }
        if let constantBitRate { parameters["cbr"] = constantBitRate ? "1" : "0" }
        if let usesDTX { parameters["usedtx"] = usesDTX ? "1" : "0" }
        parameters.parameters += otherParameters.parameters
        return parameters
    }

    /// The decoder format the parameters describe: Opus at 48 kHz, stereo when `sprop-stereo=1` (RFC 7587 §6.1:
    /// the sender's hint; a decoder of two channels plays mono packets too), no OpusHead (RTP carries none: a
    /// decoder takes the channel count and no pre-skip).
    public var audioFormatDescription: AudioFormatDescription {
        AudioFormatDescription(codec: .opus, sampleRate: 48_000, channelCount: sendsStereo == true ? 2 : 1, profile: "Opus",
                               audioSpecificConfig: [], samplesPerFrame: 960)
    }
}
