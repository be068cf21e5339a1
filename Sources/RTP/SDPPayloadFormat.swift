/// What one payload type of a media section carries: its `a=rtpmap` and its format parameters, typed for
/// the payload formats StreamKit packetizes (H.264, H.265, AAC in mpeg4-generic, Opus).
public struct SDPPayloadFormat: Sendable, Hashable {
    /// The typed format parameters.
    public enum Parameters: Sendable, Hashable {
        /// `H264` (RFC 6184).
        case h264(SDPH264Parameters)
        /// `H265` (RFC 7798).
        case h265(SDPH265Parameters)
        /// `mpeg4-generic` (RFC 3640).
        case mpeg4Generic(SDPMPEG4GenericParameters)
        /// `opus` (RFC 7587).
        case opus(SDPOpusParameters)
        /// Any other encoding, with its parameters as written.
        case other(SDPFormatParameters)
    }

    /// The payload type's mapping (encoding name, clock rate, channels).
    public var rtpMap: SDPRTPMap
    /// The typed parameters.
    public var parameters: Parameters

    /// Creates a payload format.
    /// - Parameters:
    ///   - rtpMap: the mapping.
    ///   - parameters: the parameters.
    public init(rtpMap: SDPRTPMap, parameters: Parameters) {
        self.rtpMap = rtpMap
        self.parameters = parameters
    }

    /// The payload type.
    public var payloadType: UInt8 { rtpMap.payloadType }
    /// The RTP clock rate in Hz.
    public var clockRate: Int { rtpMap.clockRate }

    /// The fmtp parameters to write for this format.
    public var formatParameters: SDPFormatParameters {
        switch parameters {
        case let .h264(parameters): return parameters.formatParameters
        case let .h265(parameters): return parameters.formatParameters
        case let .mpeg4Generic(parameters): return parameters.formatParameters
        case let .opus(parameters): return parameters.formatParameters
        case let .other(parameters): return parameters
        }
    }
}

extension SDPMediaDescription {
    /// The typed format of a payload type: its rtpmap, and its fmtp read by the payload format's RFC.
    /// - Parameter payloadType: one of ``payloadTypes``.
    /// - Returns: the format.
    /// - Throws: ``SDPError/missingRTPMap(payloadType:)`` for a dynamic type without rtpmap; the typed
    ///   parameters' errors (``SDPError/invalidParameter(name:value:reason:)`` …).
    public func payloadFormat(for payloadType: UInt8) throws(SDPError) -> SDPPayloadFormat {
        guard let map = rtpMap(for: payloadType) else { throw .missingRTPMap(payloadType: payloadType) }
        let parameters = formatParameters(for: payloadType)
        switch map.encodingName.uppercased() {
        case "H264": return SDPPayloadFormat(rtpMap: map, parameters: .h264(try SDPH264Parameters(parameters)))
        case "H265": return SDPPayloadFormat(rtpMap: map, parameters: .h265(try SDPH265Parameters(parameters)))
        case "MPEG4-GENERIC": return SDPPayloadFormat(rtpMap: map, parameters: .mpeg4Generic(try SDPMPEG4GenericParameters(parameters)))
        case "OPUS": return SDPPayloadFormat(rtpMap: map, parameters: .opus(try SDPOpusParameters(parameters)))
        default: return SDPPayloadFormat(rtpMap: map, parameters: .other(parameters))
        }
    }
}
