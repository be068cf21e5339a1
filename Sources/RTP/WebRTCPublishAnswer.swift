/// What a WHIP endpoint's answer (RFC 9725 §4.2, JSEP RFC 8829 §5.3) tells a publisher that sent a
/// ``WebRTCPublishOffer``: per accepted section the payload type it chose among ours and the rtx one that repairs it,
/// and the endpoint's ICE credentials and candidates (RFC 8839 §5), DTLS fingerprint and role (RFC 8842 §5.1),
/// whether it is ICE-lite.
///
/// The answer is checked against the offer (RFC 3264 §6): at most as many sections as offered, each of the kind
/// offered at its index; an accepted section (port not 0, direction `recvonly` or `sendrecv`) names at least one of
/// our payload types; `a=setup` is `active` or `passive` (RFC 5763 §5: `actpass` is not an answer), absent meaning
/// `active` (RFC 4145 §4); the ICE credentials and the fingerprint are present (here or at session level).
/// Errors name the attribute or section that is wrong.
public struct WebRTCPublishAnswer: Hashable, Sendable {
    /// One accepted section.
    public struct Track: Hashable, Sendable {
        /// `video` or `audio`.
        public var kind: String
        /// The section's mid.
        public var mid: String?
        /// The media payload type chosen (one of the offer's).
        public var payloadType: UInt8
        /// The rtx payload type that repairs it, where the answer kept one (RFC 4588 §8.6).
        public var retransmissionPayloadType: UInt8?
        /// The RTP clock rate of the codec (90000 for H.264, 48000 for Opus).
        public var clockRate: Int
        /// For H.264, the profile of the chosen payload type (index into the offer's profiles).
        public var profileIndex: Int?
        /// The RTCP feedback the answer kept for the payload type.
        public var feedback: [String]
    }

    /// The sections accepted, in order.
    public var tracks: [Track]
    /// The endpoint's ufrag.
    public var iceUserFragment: String
    /// The endpoint's ICE password (the key of the checks we send it).
    public var icePassword: String
    /// Its fingerprint, `sha-256 AB:CD:…`.
    public var fingerprint: String
    /// `active` (the endpoint is the DTLS client) or `passive` (we are).
    public var setup: String
    /// Whether the endpoint is ICE-lite (`a=ice-lite`, RFC 8839 §5.3).
    public var isICELite: Bool
    /// The endpoint's candidates for component 1 over UDP (from the first accepted section: they are BUNDLEd).
    public var candidates: [WebRTCCandidate]

    /// The most candidates kept from an answer (a hostile one cannot make us check thousands of pairs).
    public static let maximumCandidateCount = 32

    /// Reads and checks an answer.
    /// - Parameters:
    ///   - text: the answer's SDP (the 201's body).
    ///   - offer: the offer it answers.
    /// - Throws: ``SDPError``: for text that is not SDP, ``SDPError/invalidParameter(name:value:reason:)`` naming the
    ///   section or attribute that does not answer the offer, ``SDPError/missingParameter(_:)`` for missing ICE or
    ///   DTLS attributes, ``SDPError/unrepresentableFormat(_:)`` when no section was accepted.
    public init(parsing text: String, offer: WebRTCPublishOffer) throws(SDPError) {
        let parsed = try WebRTCOffer(parsing: text)
        let offered = offer.description.media
        guard parsed.media.count <= offered.count else {
            throw .invalidParameter(name: "m=", value: String(parsed.media.count), reason: "the answer has more sections than the \(offered.count) offered")
        }
        let codecs = offer.offeredCodecs
        var tracks: [Track] = []
        var firstAccepted: WebRTCMediaOffer?
        for (index, section) in parsed.media.enumerated() {
            guard section.kind == offered[index].media else {
                throw .invalidParameter(name: "m=", value: section.kind, reason: "section \(index) was offered as \(offered[index].media)")
            }
            let port = parsed.description.media[index].port
            guard port != 0, section.direction == "recvonly" || section.direction == "sendrecv" else { continue }
            let ours = codecs.filter { $0.kind == section.kind }
            guard let chosen = section.codecs.first(where: { codec in ours.contains { $0.payloadType == codec.payloadType } }),
                  let entry = ours.first(where: { $0.payloadType == chosen.payloadType }) else {
                throw .invalidParameter(name: "m=", value: parsed.description.media[index].mediaLineValue,
                                        reason: "section \(index) names none of the offered payload types")
            }
            let repair = section.codecs.first { $0.associatedPayloadType == chosen.payloadType && $0.payloadType == entry.retransmission }
            let profile = section.kind == "video" ? Int(chosen.payloadType &- 96) / 2 : nil
            tracks.append(Track(kind: section.kind, mid: section.mid, payloadType: chosen.payloadType,
                                retransmissionPayloadType: repair?.payloadType, clockRate: section.kind == "video" ? 90000 : 48000,
                                profileIndex: profile, feedback: chosen.feedback))
            if firstAccepted == nil { firstAccepted = section }
        }
        guard let first = firstAccepted else { throw .unrepresentableFormat("the answer accepts no section of the offer") }
        guard let ufrag = first.iceUserFragment, !ufrag.isEmpty else { throw .missingParameter("ice-ufrag") }
        guard let password = first.icePassword, !password.isEmpty else { throw .missingParameter("ice-pwd") }
        guard let fingerprint = first.fingerprint else { throw .missingParameter("fingerprint") }
        let setup = first.setup?.lowercased() ?? "active"
        guard setup == "active" || setup == "passive" else {
            throw .invalidParameter(name: "setup", value: setup, reason: "an answer is active or passive (RFC 5763 §5)")
        }
        self.tracks = tracks
        iceUserFragment = ufrag
        icePassword = password
        self.fingerprint = fingerprint
        self.setup = setup
        isICELite = parsed.isICELite
        candidates = Array(first.candidates.filter { $0.component == 1 && $0.transport == "udp" }.prefix(Self.maximumCandidateCount))
    }

    /// The accepted track of a kind.
    /// - Parameter kind: `video` or `audio`.
    /// - Returns: the track, or `nil`.
    public func track(_ kind: String) -> Track? { tracks.first { $0.kind == kind } }
}
