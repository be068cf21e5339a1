/// A WebRTC offer (JSEP, RFC 8829 §5.8) read from its session description: the BUNDLE group, and per media section
/// the mid, direction, ICE credentials, DTLS fingerprint and setup role, rtcp-mux, candidates, header extensions and
/// codecs with their parameters and feedback. Session-level ICE and DTLS attributes apply to every section that has
/// none of its own (RFC 8839 §5.4, RFC 8842 §5).
///
/// ```swift
/// let offer = try WebRTCOffer(parsing: sdpText)
/// let answer = try offer.answer(WebRTCAnswerOptions(credentials: ..., fingerprint: ..., candidates: [...]))
/// ```
public struct WebRTCOffer: Hashable, Sendable {
    /// The session description as parsed.
    public var description: SessionDescription
    /// The mids of `a=group:BUNDLE` (RFC 9143 §7), in order; empty without one.
    public var bundle: [String]
    /// Whether the offerer is an ICE-lite agent (`a=ice-lite`).
    public var isICELite: Bool
    /// The media sections, in order.
    public var media: [WebRTCMediaOffer]

    /// Reads an offer.
    /// - Parameter text: the SDP.
    /// - Throws: ``SDPError`` for text that is not SDP, or a candidate, `a=rtpmap` or `a=extmap` that does not parse.
    public init(parsing text: String) throws(SDPError) {
        try self.init(try SessionDescription(parsing: text))
    }

    /// Reads an offer from a parsed description.
    /// - Parameter description: the description.
    /// - Throws: ``SDPError`` for a candidate, `a=rtpmap` or `a=extmap` that does not parse.
    public init(_ description: SessionDescription) throws(SDPError) {
        self.description = description
        let groups = description.attributes.filter { $0.name.lowercased() == "group" }.compactMap(\.value)
        bundle = groups.first { $0.hasPrefix("BUNDLE") }.map { $0.split(separator: " ").dropFirst().map(String.init) } ?? []
        isICELite = description.attribute("ice-lite") != nil
        let sessionUfrag = description.attribute("ice-ufrag")
        let sessionPassword = description.attribute("ice-pwd")
        let sessionFingerprint = description.attribute("fingerprint")
        let sessionSetup = description.attribute("setup")
        var media: [WebRTCMediaOffer] = []
        for section in description.media {
            var offer = WebRTCMediaOffer(kind: section.media, transportProtocol: section.transportProtocol)
            offer.mid = section.attribute("mid")
            offer.iceUserFragment = section.attribute("ice-ufrag") ?? sessionUfrag
            offer.icePassword = section.attribute("ice-pwd") ?? sessionPassword
            offer.fingerprint = section.attribute("fingerprint") ?? sessionFingerprint
            offer.setup = section.attribute("setup") ?? sessionSetup
            offer.rtcpMux = section.attribute("rtcp-mux") != nil
            offer.rtcpReducedSize = section.attribute("rtcp-rsize") != nil
            offer.direction = ["sendrecv", "sendonly", "recvonly", "inactive"].first { section.attribute($0) != nil } ?? "sendrecv"
            var wildcardFeedback: [String] = []
            var feedback: [UInt8: [String]] = [:]
            var formatParameters: [UInt8: SDPFormatParameters] = [:]
            for attribute in section.attributes {
                let value = attribute.value ?? ""
                switch attribute.name.lowercased() {
                case "candidate":
                    offer.candidates.append(try WebRTCCandidate(attributeValue: value))
                case "extmap":
                    let parts = value.split(separator: " ", omittingEmptySubsequences: true)
                    guard parts.count >= 2, let id = Int(parts[0].split(separator: "/").first ?? ""), (1...255).contains(id) else {
                        throw .invalidParameter(name: "extmap", value: value, reason: "not <id>[/direction] <uri>")
                    }
                    offer.headerExtensions[id] = String(parts[1])
                case "rtcp-fb":
                    guard let space = value.firstIndex(of: " ") else { continue }
                    let type = String(value[value.index(after: space)...])
                    if value[..<space] == "*" { wildcardFeedback.append(type) } else if let payloadType = UInt8(value[..<space]) {
                        feedback[payloadType, default: []].append(type)
                    }
                case "fmtp":
                    guard let space = value.firstIndex(of: " "), let payloadType = UInt8(value[..<space]) else { continue }
                    formatParameters[payloadType] = SDPFormatParameters(parsing: String(value[value.index(after: space)...]))
                default:
                    continue
                }
            }
            for payloadType in section.payloadTypes {
                // A dynamic type without a=rtpmap is skipped (nothing can be negotiated for it); a static one gets its RFC 3551 mapping.
                guard let map = section.rtpMap(for: payloadType) ?? SDPRTPMap.staticMapping(for: payloadType) else { continue }
                offer.codecs.append(WebRTCCodec(rtpMap: map, parameters: formatParameters[payloadType] ?? SDPFormatParameters(),
                                                feedback: (feedback[payloadType] ?? []) + wildcardFeedback))
            }
            media.append(offer)
        }
        self.media = media
    }
}
