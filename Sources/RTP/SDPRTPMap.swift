/// An `a=rtpmap:` attribute (RFC 8866 §6.6): payload type → encoding name, clock rate and, for audio,
/// the channel count — `a=rtpmap:96 H264/90000`, `a=rtpmap:97 MPEG4-GENERIC/48000/2`.
public struct SDPRTPMap: Sendable, Hashable {
    /// The RTP payload type, 0...127.
    public var payloadType: UInt8
    /// The encoding name as written (`H264`, `H265`, `MPEG4-GENERIC`); compare ignoring case.
    public var encodingName: String
    /// The RTP clock rate in Hz (90000 for video).
    public var clockRate: Int
    /// The encoding parameters: the channel count for audio, when written.
    public var encodingParameters: String?

    /// Creates a mapping.
    /// - Parameters:
    ///   - payloadType: the payload type, 0...127.
    ///   - encodingName: the encoding name.
    ///   - clockRate: the clock rate in Hz.
    ///   - encodingParameters: the channel count for audio.
    public init(payloadType: UInt8, encodingName: String, clockRate: Int, encodingParameters: String? = nil) {
        self.payloadType = payloadType
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.encodingParameters = encodingParameters
    }

    /// Reads `<payload type> <encoding name>/<clock rate>[/<encoding parameters>]`; `nil` when malformed.
    /// - Parameter value: the attribute value after `rtpmap:`.
    public init?(attributeValue value: String) {
        let trimmed = value.trimmingSDPSpaces
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }),
              let payloadType = UInt8(trimmed[..<space]), payloadType < 128 else { return nil }
        let parts = trimmed[space...].trimmingSDPSpaces.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.count <= 3, !parts[0].isEmpty,
              let rate = Int(parts[1].trimmingSDPSpaces), rate > 0 else { return nil }
        self.init(payloadType: payloadType, encodingName: String(parts[0]), clockRate: rate,
                  encodingParameters: parts.count == 3 ? String(parts[2]) : nil)
    }

    /// The attribute value: `96 H264/90000`.
    public var attributeValue: String {
        var text = "\(payloadType) \(encodingName)/\(clockRate)"
        if let encodingParameters { text += "/\(encodingParameters)" }
        return text
    }

    /// The channel count (audio), 1 when the encoding parameters are absent (RFC 8866 §6.6).
    public var channelCount: Int? { encodingParameters.map { Int($0) } ?? 1 }

    /// The static payload types of RFC 3551 §6 a receiver may meet without an `a=rtpmap`.
    /// - Parameter payloadType: the payload type.
    /// - Returns: its mapping, or `nil` for a dynamic or unassigned type.
    public static func staticMapping(for payloadType: UInt8) -> SDPRTPMap? {
        switch payloadType {
        case 0: return SDPRTPMap(payloadType: 0, encodingName: "PCMU", clockRate: 8000, encodingParameters: "1")
        case 8: return SDPRTPMap(payloadType: 8, encodingName: "PCMA", clockRate: 8000, encodingParameters: "1")
        case 14: return SDPRTPMap(payloadType: 14, encodingName: "MPA", clockRate: 90000)
        case 26: return SDPRTPMap(payloadType: 26, encodingName: "JPEG", clockRate: 90000)
        case 32: return SDPRTPMap(payloadType: 32, encodingName: "MPV", clockRate: 90000)
        case 33: return SDPRTPMap(payloadType: 33, encodingName: "MP2T", clockRate: 90000)
        default: return nil
        }
    }
}
