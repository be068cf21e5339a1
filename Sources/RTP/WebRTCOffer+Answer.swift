extension WebRTCOffer {
    /// The codecs chosen for one accepted media section.
    public struct Choice: Hashable, Sendable {
        /// The section's index in the offer.
        public var index: Int
        /// Its mid.
        public var mid: String?
        /// `audio` or `video`.
        public var kind: String
        /// The media codec: H.264 (packetization-mode 1) or Opus 48000/2.
        public var codec: WebRTCCodec
        /// Its rtx codec, where offered.
        public var retransmission: WebRTCCodec?
        /// The answer's direction for the section.
        public var direction: String

        /// A choice.
        /// - Parameters:
        ///   - index: the section index.
        ///   - mid: the mid.
        ///   - kind: the kind.
        ///   - codec: the codec.
        ///   - retransmission: the rtx codec.
        ///   - direction: the direction.
        public init(index: Int, mid: String?, kind: String, codec: WebRTCCodec, retransmission: WebRTCCodec?, direction: String) {
            self.index = index
            self.mid = mid
            self.kind = kind
            self.codec = codec
            self.retransmission = retransmission
            self.direction = direction
        }
    }

    /// The codec an answerer takes from a section: for video, H.264 with packetization-mode 1 — the payload type that
    /// carries what the answerer sends (``WebRTCAnswerOptions/sentH264``) when it is known, else the first of the most
    /// preferred profile (``WebRTCAnswerOptions/h264Profiles``); for audio, Opus at 48000/2 (RFC 7587 §7). `nil` when
    /// there is none.
    /// - Parameters:
    ///   - section: the section.
    ///   - options: the profiles accepted, and what is sent.
    /// - Returns: the codec.
    public static func chooseCodec(in section: WebRTCMediaOffer, options: WebRTCAnswerOptions) -> WebRTCCodec? {
        switch section.kind {
        case "video":
            let offered = section.codecs.compactMap { codec -> (codec: WebRTCCodec, id: SDPH264Parameters.ProfileLevelID)? in
                guard let h264 = codec.h264, h264.packetizationMode == 1 else { return nil }
                // RFC 6184 §8.1: no profile-level-id means 420010 (Baseline, level 1).
                return (codec, h264.profileLevelID ?? .init(profileIDC: 0x42, constraints: 0, levelIDC: 10))
            }
            if let sent = options.sentH264, let codec = carrier(of: sent, among: offered) { return codec }
            for profile in options.h264Profiles {
                if let match = offered.first(where: { profile.matches($0.id) }) { return match.codec }
            }
            return nil
        case "audio":
            return section.codecs.first { $0.name == "OPUS" && $0.rtpMap.clockRate == 48000 && $0.rtpMap.encodingParameters == "2" }
        default:
            return nil
        }
    }

    /// The offered H.264 payload type that can carry a stream of `sent`'s profile and level (RFC 6184 §8.2.2): the
    /// profiles must match — the same profile first, else one whose decoders take the stream's (H.264 A.2: a
    /// Constrained Baseline stream in a Main or High payload type, a Main stream in a High one); the level is
    /// asymmetric (`level-asymmetry-allowed`: the offer's level is the most the offerer receives), so the first one
    /// whose level is at least the stream's is taken, else the highest offered.
    /// - Parameters:
    ///   - sent: the stream's `profile-level-id` (from its SPS).
    ///   - offered: the offer's packetization-mode 1 payload types with their `profile-level-id`, in offer order.
    /// - Returns: the codec, or `nil` when no offered profile decodes the stream.
    static func carrier(of sent: SDPH264Parameters.ProfileLevelID,
                        among offered: [(codec: WebRTCCodec, id: SDPH264Parameters.ProfileLevelID)]) -> WebRTCCodec? {
        let profile = sent.profile
        let same = offered.filter { $0.id.profile == profile }
        let containing = offered.filter { $0.id.profile != profile && $0.id.profile.decodes(profile) }
        for candidates in [same, containing] where !candidates.isEmpty {
            if let enough = candidates.first(where: { $0.id.orderedLevel >= sent.orderedLevel }) { return enough.codec }
            return candidates.max { $0.id.orderedLevel < $1.id.orderedLevel }?.codec
        }
        return nil
    }

    /// The answer's direction from the offer's and what the answerer does (RFC 8866 §6.7, RFC 3264 §6.1).
    static func answerDirection(offered: String, sends: Bool, receives: Bool) -> String {
        let send = sends && (offered == "sendrecv" || offered == "recvonly")
        let receive = receives && (offered == "sendrecv" || offered == "sendonly")
        switch (send, receive) {
        case (true, true): return "sendrecv"
        case (true, false): return "sendonly"
        case (false, true): return "recvonly"
        case (false, false): return "inactive"
        }
    }

    /// The codecs chosen per accepted section (a section with no codec the answerer takes is rejected).
    /// - Parameter options: the answerer's options.
    /// - Returns: the choices, in section order.
    public func choices(_ options: WebRTCAnswerOptions) -> [Choice] {
        media.enumerated().compactMap { index, section in
            guard section.transportProtocol.uppercased().hasSuffix("SAVPF"), let codec = Self.chooseCodec(in: section, options: options) else {
                return nil
            }
            let retransmission = section.retransmissionPayloadType(for: codec.payloadType).flatMap { section.codec($0) }
            return Choice(index: index, mid: section.mid, kind: section.kind, codec: codec, retransmission: retransmission,
                          direction: Self.answerDirection(offered: section.direction, sends: options.sends, receives: options.receives))
        }
    }

    /// The answer (RFC 8829 §5.3) of an ICE-lite answerer: one section per offered one, in order, with the same
    /// mids; accepted ones carry the chosen codec and its rtx with the offered payload types and parameters, the
    /// feedback both sides handle, `a=setup` from ``WebRTCAnswerOptions/dtlsSetup`` (RFC 8842 §5.3: `passive` by
    /// default, the server as the DTLS server; `active` where the offerer is passive), rtcp-mux,
    /// the local credentials, fingerprint and candidates, and `a=end-of-candidates`; rejected ones have port 0 and
    /// leave the BUNDLE group (RFC 9143 §7.3.3). The session says `a=ice-lite` (RFC 8839 §5.3).
    /// - Parameter options: the answerer's options.
    /// - Returns: the answer.
    /// - Throws: ``SDPError/unrepresentableFormat(_:)`` when no section can be accepted.
    public func answer(_ options: WebRTCAnswerOptions) throws(SDPError) -> SessionDescription {
        let chosen = choices(options)
        guard !chosen.isEmpty else { throw .unrepresentableFormat("no offered section has H.264 (packetization-mode 1) or Opus") }
        let first = options.candidates.first
        let address = first?.address ?? "0.0.0.0"
        let connection = SDPConnection(addressType: address.contains(":") ? "IP6" : "IP4", address: address)
        var sections: [SDPMediaDescription] = []
        for (index, offered) in media.enumerated() {
            guard let choice = chosen.first(where: { $0.index == index }) else {
                var rejected = SDPMediaDescription(media: offered.kind, port: 0, transportProtocol: offered.transportProtocol,
                                                   formats: [offered.codecs.first.map { String($0.payloadType) } ?? "0"],
                                                   connections: [SDPConnection(address: "0.0.0.0")])
                if let mid = offered.mid { rejected.attributes.append(SDPAttribute("mid", mid)) }
                rejected.attributes.append(SDPAttribute("inactive"))
                sections.append(rejected)
                continue
            }
            let codecs = [choice.codec] + (choice.retransmission.map { [$0] } ?? [])
            var section = SDPMediaDescription(media: offered.kind, port: Int(first?.port ?? 9), transportProtocol: offered.transportProtocol,
                                              formats: codecs.map { String($0.payloadType) }, connections: [connection])
            var attributes: [SDPAttribute] = []
            if let mid = offered.mid { attributes.append(SDPAttribute("mid", mid)) }
            attributes.append(SDPAttribute(choice.direction))
            attributes.append(SDPAttribute("ice-ufrag", options.iceUserFragment))
            attributes.append(SDPAttribute("ice-pwd", options.icePassword))
            attributes.append(SDPAttribute("fingerprint", options.fingerprint))
            attributes.append(SDPAttribute("setup", options.dtlsSetup))
            attributes.append(SDPAttribute("rtcp-mux"))
            if offered.rtcpReducedSize { attributes.append(SDPAttribute("rtcp-rsize")) }
            for codec in codecs {
                attributes.append(SDPAttribute("rtpmap", codec.rtpMap.attributeValue))
                if !codec.parameters.parameters.isEmpty {
                    attributes.append(SDPAttribute("fmtp", "\(codec.payloadType) \(codec.parameters.text)"))
                }
                for type in codec.feedback where options.feedback.contains(type) {
                    attributes.append(SDPAttribute("rtcp-fb", "\(codec.payloadType) \(type)"))
                }
            }
            if choice.direction.hasPrefix("send"), let ssrc = options.sendingSSRCs[offered.kind] {
                let stream = "streamkit"
                attributes.append(SDPAttribute("msid", "\(stream) \(offered.kind)"))
                attributes.append(SDPAttribute("ssrc", "\(ssrc) cname:\(options.cname)"))
                attributes.append(SDPAttribute("ssrc", "\(ssrc) msid:\(stream) \(offered.kind)"))
                if choice.retransmission != nil, let repair = options.retransmissionSSRCs[offered.kind] {
                    attributes.append(SDPAttribute("ssrc-group", "FID \(ssrc) \(repair)"))
                    attributes.append(SDPAttribute("ssrc", "\(repair) cname:\(options.cname)"))
                    attributes.append(SDPAttribute("ssrc", "\(repair) msid:\(stream) \(offered.kind)"))
                }
            }
            for candidate in options.candidates { attributes.append(SDPAttribute("candidate", candidate.attributeValue)) }
            attributes.append(SDPAttribute("end-of-candidates"))
            section.attributes = attributes
            sections.append(section)
        }
        let accepted = chosen.compactMap(\.mid).filter { bundle.isEmpty || bundle.contains($0) }
        var attributes = [SDPAttribute("ice-lite")]
        if !bundle.isEmpty, !accepted.isEmpty { attributes.insert(SDPAttribute("group", "BUNDLE " + accepted.joined(separator: " ")), at: 0) }
        attributes.append(SDPAttribute("msid-semantic", "WMS *"))
        return SessionDescription(origin: SDPOrigin(username: "-", sessionID: options.sessionID, sessionVersion: "2", unicastAddress: "127.0.0.1"),
                                  sessionName: "-", attributes: attributes, media: sections)
    }
}
