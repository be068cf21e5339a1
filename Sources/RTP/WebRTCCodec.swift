/// One payload type of a WebRTC media section (RFC 8829 §5.8): its `a=rtpmap`, `a=fmtp` and `a=rtcp-fb` lines.
public struct WebRTCCodec: Hashable, Sendable {
    /// The mapping (payload type, encoding name, clock rate, channels).
    public var rtpMap: SDPRTPMap
    /// The format parameters (empty without `a=fmtp`).
    public var parameters: SDPFormatParameters
    /// The feedback it takes (`nack`, `nack pli`, `ccm fir`, `goog-remb`, `transport-cc`), including `a=rtcp-fb:*` ones.
    public var feedback: [String]

    /// A codec.
    /// - Parameters:
    ///   - rtpMap: the mapping.
    ///   - parameters: the format parameters.
    ///   - feedback: the feedback types.
    public init(rtpMap: SDPRTPMap, parameters: SDPFormatParameters = SDPFormatParameters(), feedback: [String] = []) {
        self.rtpMap = rtpMap
        self.parameters = parameters
        self.feedback = feedback
    }

    /// The payload type.
    public var payloadType: UInt8 { rtpMap.payloadType }

    /// The encoding name, uppercased (`H264`, `OPUS`, `RTX`).
    public var name: String { rtpMap.encodingName.uppercased() }

    /// For an `rtx` codec, the payload type it repairs (`apt`, RFC 4588 §8.6).
    public var associatedPayloadType: UInt8? {
        name == "RTX" ? parameters["apt"].flatMap { UInt8($0) } : nil
    }

    /// For H.264, the parameters of RFC 6184 §8.1 (packetization-mode, profile-level-id), or `nil` when they do not
    /// parse or the codec is not H.264.
    public var h264: SDPH264Parameters? {
        name == "H264" ? try? SDPH264Parameters(parameters) : nil
    }
}
