// The attributes of a media section that RTSP and RTP receivers read: rtpmap, fmtp, control, range,
// framerate (RFC 8866 §6, RFC 2326 Appendix C).

extension SDPMediaDescription {
    /// The `a=rtpmap:` of a payload type, or the RFC 3551 mapping of a static type.
    /// - Parameter payloadType: the payload type.
    /// - Returns: the mapping, or `nil` when there is none.
    public func rtpMap(for payloadType: UInt8) -> SDPRTPMap? {
        for attribute in attributes where attribute.name.lowercased() == "rtpmap" {
            if let map = SDPRTPMap(attributeValue: attribute.value ?? ""), map.payloadType == payloadType { return map }
        }
        return SDPRTPMap.staticMapping(for: payloadType)
    }

    /// The `a=fmtp:` parameters of a payload type; empty when there is no such attribute.
    /// - Parameter payloadType: the payload type.
    /// - Returns: the parameters.
    public func formatParameters(for payloadType: UInt8) -> SDPFormatParameters {
        for attribute in attributes where attribute.name.lowercased() == "fmtp" {
            if let split = SDPFormatParameters.split(attributeValue: attribute.value ?? ""), split.format == "\(payloadType)" {
                return SDPFormatParameters(parsing: split.parameters)
            }
        }
        return SDPFormatParameters()
    }

    /// The `a=control:` URL of the stream (RFC 2326 C.1.1): absolute, or relative to the content base.
    public var control: String? { attribute("control") }

    /// The `a=range:` of the section (RFC 2326 C.1.5), when written.
    public var range: SDPRange? { attribute("range").map(SDPRange.init(attributeValue:)) }

    /// The `a=framerate:` (RFC 8866 §6.4), when written and a positive number.
    public var frameRate: Double? {
        guard let text = attribute("framerate"), let rate = Double(text.trimmingSDPSpaces), rate > 0, rate.isFinite else { return nil }
        return rate
    }

    /// The direction attribute (`sendrecv`, `sendonly`, `recvonly`, `inactive`; RFC 8866 §6.7), when written.
    public var direction: String? {
        attributes.first { ["sendrecv", "sendonly", "recvonly", "inactive"].contains($0.name.lowercased()) && $0.value == nil }?.name
    }

    /// The URL to SETUP this stream with: the control attribute resolved against `base` (RFC 2326 C.1.1) —
    /// an absolute `rtsp://` control as is, `*` or none as the base itself, a relative one appended with `/`.
    /// - Parameter base: the Content-Base (or request) URL of the DESCRIBE answer.
    /// - Returns: the stream's URL.
    public func controlURL(relativeTo base: String) -> String {
        guard let control = control?.trimmingSDPSpaces, !control.isEmpty, control != "*" else { return base }
        let lower = control.lowercased()
        if lower.hasPrefix("rtsp://") || lower.hasPrefix("rtsps://") || lower.hasPrefix("rtspu://") { return String(control) }
        return base.hasSuffix("/") ? base + control : base + "/" + control
    }
}
