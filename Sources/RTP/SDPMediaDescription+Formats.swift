import MediaCore

// MediaCore formats ⇄ media sections: what a sender or an RTSP server writes into a DESCRIBE answer or an
// .sdp file, and what a receiver reads back to build its decoder's format.

extension SDPMediaDescription {
    /// A video section for a stream of `format`: `m=video <port> RTP/AVP <pt>`, `a=rtpmap:<pt> H264/90000`
    /// (or `H265/90000`) and its fmtp (RFC 6184 §8.1 / RFC 7798 §7.1), then `a=framerate` and `a=control`
    /// when given.
    /// - Parameters:
    ///   - format: an H.264 or H.265 format with its parameter sets.
    ///   - payloadType: the dynamic payload type, 96 by default.
    ///   - port: the port; 0 in an RTSP DESCRIBE answer.
    ///   - control: the `a=control:` value (RTSP), for example `trackID=0`.
    ///   - frameRate: the `a=framerate:` value, if known.
    /// - Throws: ``SDPError/unrepresentableFormat(_:)`` for audio or missing parameter sets.
    public init(video format: FormatDescription, payloadType: UInt8 = 96, port: Int = 0, control: String? = nil,
                frameRate: Double? = nil) throws(SDPError) {
        let map: SDPRTPMap
        let parameters: SDPFormatParameters
        switch format.codec {
        case .h264:
            map = SDPRTPMap(payloadType: payloadType, encodingName: "H264", clockRate: 90_000)
            parameters = try SDPH264Parameters(format: format).formatParameters
        case .hevc:
            map = SDPRTPMap(payloadType: payloadType, encodingName: "H265", clockRate: 90_000)
            parameters = try SDPH265Parameters(format: format).formatParameters
        case .aac, .opus:
            throw .unrepresentableFormat("\(format.codec == .aac ? "AAC" : "Opus") is not video")
        }
        var attributes = [SDPAttribute("rtpmap", map.attributeValue), SDPAttribute("fmtp", "\(payloadType) \(parameters.text)")]
        if let frameRate, frameRate > 0, frameRate.isFinite {
            attributes.append(SDPAttribute("framerate", frameRate == frameRate.rounded() ? "\(Int(frameRate))" : "\(frameRate)"))
        }
        if let control { attributes.append(SDPAttribute("control", control)) }
        self.init(media: "video", port: port, formats: ["\(payloadType)"], attributes: attributes)
    }

    /// An audio section for an AAC stream of `format`: `a=rtpmap:<pt> MPEG4-GENERIC/<rate>/<channels>` and
    /// the AAC-hbr fmtp with its AudioSpecificConfig (RFC 3640 §4.1, §3.3.6).
    /// - Parameters:
    ///   - format: an AAC format with its AudioSpecificConfig, or an Opus format (then as
    ///     ``init(opusChannelCount:payloadType:port:control:)``).
    ///   - payloadType: the dynamic payload type, 97 by default.
    ///   - port: the port; 0 in an RTSP DESCRIBE answer.
    ///   - control: the `a=control:` value (RTSP).
    /// - Throws: ``SDPError/unrepresentableFormat(_:)`` for another codec or an empty config.
    public init(audio format: AudioFormatDescription, payloadType: UInt8 = 97, port: Int = 0, control: String? = nil) throws(SDPError) {
        if format.codec == .opus {
            self.init(opusChannelCount: format.channelCount, payloadType: payloadType, port: port, control: control)
            return
        }
        guard format.codec == .aac else { throw .unrepresentableFormat("\(format.codec) is not AAC") }
        guard !format.audioSpecificConfig.isEmpty else { throw .unrepresentableFormat("the AAC format has no AudioSpecificConfig") }
        let map = SDPRTPMap(payloadType: payloadType, encodingName: "MPEG4-GENERIC", clockRate: format.sampleRate,
                            encodingParameters: "\(format.channelCount)")
        let parameters = SDPMPEG4GenericParameters(aacHighBitRate: format.audioSpecificConfig).formatParameters
        var attributes = [SDPAttribute("rtpmap", map.attributeValue), SDPAttribute("fmtp", "\(payloadType) \(parameters.text)")]
        if let control { attributes.append(SDPAttribute("control", control)) }
        self.init(media: "audio", port: port, formats: ["\(payloadType)"], attributes: attributes)
    }

    /// An audio section for an Opus stream (RFC 7587 §6.1, §7): `a=rtpmap:<pt> opus/48000/2` and the fmtp of
    /// ``SDPOpusParameters/init(channelCount:)``.
    /// - Parameters:
    ///   - channelCount: 1 or 2: the stream's channels (`stereo`/`sprop-stereo`).
    ///   - payloadType: the dynamic payload type.
    ///   - port: the port; 0 in an RTSP DESCRIBE answer.
    ///   - control: the `a=control:` value (RTSP).
    public init(opusChannelCount channelCount: Int, payloadType: UInt8 = 111, port: Int = 0, control: String? = nil) {
        let map = SDPOpusParameters.rtpMap(payloadType: payloadType)
        let parameters = SDPOpusParameters(channelCount: channelCount).formatParameters
        var attributes = [SDPAttribute("rtpmap", map.attributeValue), SDPAttribute("fmtp", "\(payloadType) \(parameters.text)")]
        if let control { attributes.append(SDPAttribute("control", control)) }
        self.init(media: "audio", port: port, formats: ["\(payloadType)"], attributes: attributes)
    }

    /// The decoder format of the section's video: the first H.264 or H.265 payload type with parameter sets.
    /// - Parameter payloadType: the payload type to read; the first of ``payloadTypes`` when `nil`.
    /// - Returns: the format.
    /// - Throws: ``SDPError/unsupportedEncoding(_:)`` for another encoding, the typed parameters' errors,
    ///   ``SDPError/missingParameter(_:)`` when the parameter sets travel in band only.
    public func videoFormat(payloadType: UInt8? = nil) throws(SDPError) -> FormatDescription {
        guard let type = payloadType ?? payloadTypes.first else { throw .invalidField(line: 0, field: "m= format", value: formats.joined(separator: " ")) }
        let format = try payloadFormat(for: type)
        switch format.parameters {
        case let .h264(parameters): return try parameters.formatDescription()
        case let .h265(parameters): return try parameters.formatDescription()
        default: throw .unsupportedEncoding(format.rtpMap.encodingName)
        }
    }

    /// The decoder format of the section's AAC or Opus audio.
    /// - Parameter payloadType: the payload type to read; the first of ``payloadTypes`` when `nil`.
    /// - Returns: the format.
    /// - Throws: ``SDPError/unsupportedEncoding(_:)`` for another encoding, the typed parameters' errors.
    public func audioFormat(payloadType: UInt8? = nil) throws(SDPError) -> AudioFormatDescription {
        guard let type = payloadType ?? payloadTypes.first else { throw .invalidField(line: 0, field: "m= format", value: formats.joined(separator: " ")) }
        let format = try payloadFormat(for: type)
        if case let .opus(parameters) = format.parameters { return parameters.audioFormatDescription }
        guard case let .mpeg4Generic(parameters) = format.parameters else { throw .unsupportedEncoding(format.rtpMap.encodingName) }
        return try parameters.audioFormatDescription(channelCount: format.rtpMap.channelCount)
    }
}
