/// The offer of a WebRTC publisher (a WHIP client, RFC 9725 §4.2): JSEP's initial offer (RFC 8829 §5.2.1) with a
/// `sendonly` video section (H.264 packetization-mode 1, RFC 6184 §8.1, one payload type per profile offered, each
/// with its RFC 4588 rtx) and/or a `sendonly` audio section (Opus 48000/2, RFC 7587 §7), both in one BUNDLE group
/// (RFC 9143) with rtcp-mux (RFC 5761), our ICE credentials and host candidates (RFC 8839), our DTLS fingerprint
/// and `a=setup:actpass` (RFC 8842 §5.1), and our SSRCs with an `a=ssrc-group:FID` for the rtx stream (RFC 5576).
///
/// Payload types: H.264 profile *i* (in ``h264Profiles`` order) is 96 + 2*i*, its rtx 97 + 2*i*; Opus is 111 —
/// what Chromium writes, so answers that keep them read naturally.
///
/// ```swift
/// var offer = WebRTCPublishOffer(iceUserFragment: ice.userFragment, icePassword: ice.password,
///                                fingerprint: certificate.fingerprint.sdpValue, candidates: [host])
/// offer.videoSSRC = 0x1234; offer.audioSSRC = 0x5678
/// let text = offer.description.text   // POST it to the WHIP endpoint
/// ```
public struct WebRTCPublishOffer: Hashable, Sendable {
    /// Constrained Baseline level 3.1, `42e01f`: what every WebRTC endpoint decodes.
    public static let constrainedBaseline = SDPH264Parameters.ProfileLevelID(profileIDC: 0x42, constraints: 0xE0, levelIDC: 0x1F)
    /// High level 3.1, `640c1f` (Chromium's High entry).
    public static let high = SDPH264Parameters.ProfileLevelID(profileIDC: 0x64, constraints: 0x0C, levelIDC: 0x1F)
    /// Opus's payload type.
    public static let opusPayloadType: UInt8 = 111

    /// Our ICE user fragment.
    public var iceUserFragment: String
    /// Our ICE password.
    public var icePassword: String
    /// Our certificate's fingerprint, `sha-256 AB:CD:…` (RFC 8122 §5).
    public var fingerprint: String
    /// Our host candidates (the first one is also the sections' default address and port).
    public var candidates: [WebRTCCandidate]
    /// The H.264 profiles offered, most preferred first; empty offers no video.
    public var h264Profiles: [SDPH264Parameters.ProfileLevelID]
    /// Whether an Opus section is offered.
    public var offersAudio: Bool
    /// The SSRC of our video.
    public var videoSSRC: UInt32
    /// The SSRC of our video's rtx stream.
    public var videoRetransmissionSSRC: UInt32
    /// The SSRC of our audio.
    public var audioSSRC: UInt32
    /// The RTCP feedback offered on H.264 (RFC 4585 §4.2, RFC 5104 §7.1).
    public var videoFeedback: [String]
    /// The CNAME (RFC 7022).
    public var cname: String
    /// The `o=` session id.
    public var sessionID: String

    /// An offer with fresh random SSRCs.
    /// - Parameters:
    ///   - iceUserFragment: our ufrag.
    ///   - icePassword: our ICE password.
    ///   - fingerprint: our certificate's fingerprint.
    ///   - candidates: our host candidates.
    ///   - h264Profiles: the H.264 profiles (default 42e01f then High); empty for no video.
    ///   - offersAudio: whether Opus is offered (default yes).
    public init(iceUserFragment: String, icePassword: String, fingerprint: String, candidates: [WebRTCCandidate],
                h264Profiles: [SDPH264Parameters.ProfileLevelID] = [constrainedBaseline, high], offersAudio: Bool = true) {
        self.iceUserFragment = iceUserFragment
        self.icePassword = icePassword
        self.fingerprint = fingerprint
        self.candidates = candidates
        self.h264Profiles = h264Profiles
        self.offersAudio = offersAudio
        videoSSRC = UInt32.random(in: 1...UInt32.max)
        videoRetransmissionSSRC = UInt32.random(in: 1...UInt32.max)
        audioSSRC = UInt32.random(in: 1...UInt32.max)
        videoFeedback = ["nack", "nack pli", "ccm fir", "goog-remb"]
        cname = "streamkit"
        sessionID = String(UInt64.random(in: 1...UInt64(Int64.max)))
    }

    /// The H.264 payload type of profile `index` of ``h264Profiles``.
    /// - Parameter index: the profile's index.
    /// - Returns: 96 + 2 × index.
    public static func videoPayloadType(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: 96 + 2 * index) }

    /// The mids, in section order: `0` for video (when offered), then the next number for audio.
    public var mids: [String] {
        var mids: [String] = []
        if !h264Profiles.isEmpty { mids.append("0") }
        if offersAudio { mids.append(String(mids.count)) }
        return mids
    }

    /// The codecs of each section in payload-type order: kind, media payload type, its rtx payload type (video only).
    public var offeredCodecs: [(kind: String, payloadType: UInt8, retransmission: UInt8?)] {
        var codecs = h264Profiles.indices.map { (kind: "video", payloadType: Self.videoPayloadType($0), retransmission: Optional(Self.videoPayloadType($0) + 1)) }
        if offersAudio { codecs.append((kind: "audio", payloadType: Self.opusPayloadType, retransmission: nil)) }
        return codecs
    }

    /// The offer as a session description (RFC 8829 §5.2.1 in the order Chromium writes it).
    public var description: SessionDescription {
        let first = candidates.first
        let address = first?.address ?? "0.0.0.0"
        let connection = SDPConnection(addressType: address.contains(":") ? "IP6" : "IP4", address: address)
        let port = Int(first?.port ?? 9)
        var sections: [SDPMediaDescription] = []
        let mids = mids
        func common(_ mid: String) -> [SDPAttribute] {
            [SDPAttribute("mid", mid), SDPAttribute("sendonly"), SDPAttribute("ice-ufrag", iceUserFragment), SDPAttribute("ice-pwd", icePassword),
             SDPAttribute("fingerprint", fingerprint), SDPAttribute("setup", "actpass"), SDPAttribute("rtcp-mux"), SDPAttribute("rtcp-rsize")]
        }
        func sources(_ kind: String, _ ssrc: UInt32, repair: UInt32?) -> [SDPAttribute] {
            var attributes = [SDPAttribute("msid", "streamkit \(kind)")]
            if let repair { attributes.append(SDPAttribute("ssrc-group", "FID \(ssrc) \(repair)")) }
            for source in [ssrc] + (repair.map { [$0] } ?? []) {
                attributes.append(SDPAttribute("ssrc", "\(source) cname:\(cname)"))
                attributes.append(SDPAttribute("ssrc", "\(source) msid:streamkit \(kind)"))
            }
            return attributes
        }
        var trailer = candidates.map { SDPAttribute("candidate", $0.attributeValue) }
        trailer.append(SDPAttribute("end-of-candidates"))
        if !h264Profiles.isEmpty {
            var attributes = common(mids[0])
            var formats: [String] = []
            for (index, profile) in h264Profiles.enumerated() {
                let media = Self.videoPayloadType(index)
                formats += [String(media), String(media + 1)]
                attributes.append(SDPAttribute("rtpmap", "\(media) H264/90000"))
                attributes += videoFeedback.map { SDPAttribute("rtcp-fb", "\(media) \($0)") }
                attributes.append(SDPAttribute("fmtp", "\(media) level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=\(profile.text)"))
                attributes.append(SDPAttribute("rtpmap", "\(media + 1) rtx/90000"))
                attributes.append(SDPAttribute("fmtp", "\(media + 1) apt=\(media)"))
            }
            attributes += sources("video", videoSSRC, repair: videoRetransmissionSSRC)
            attributes += trailer
            sections.append(SDPMediaDescription(media: "video", port: port, transportProtocol: "UDP/TLS/RTP/SAVPF", formats: formats,
                                                attributes: attributes, connections: [connection]))
        }
        if offersAudio, let mid = mids.last {
            var attributes = common(mid)
            attributes.append(SDPAttribute("rtpmap", "\(Self.opusPayloadType) opus/48000/2"))
            attributes.append(SDPAttribute("fmtp", "\(Self.opusPayloadType) minptime=10;useinbandfec=1"))
            attributes += sources("audio", audioSSRC, repair: nil)
            attributes += trailer
            sections.append(SDPMediaDescription(media: "audio", port: port, transportProtocol: "UDP/TLS/RTP/SAVPF",
                                                formats: [String(Self.opusPayloadType)], attributes: attributes, connections: [connection]))
        }
        let attributes = [SDPAttribute("group", "BUNDLE " + mids.joined(separator: " ")), SDPAttribute("extmap-allow-mixed"),
                          SDPAttribute("msid-semantic", "WMS streamkit")]
        return SessionDescription(origin: SDPOrigin(username: "-", sessionID: sessionID, sessionVersion: "2", unicastAddress: "127.0.0.1"),
                                  sessionName: "-", attributes: attributes, media: sections)
    }
}
