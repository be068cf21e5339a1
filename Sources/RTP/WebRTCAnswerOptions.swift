/// What an answerer (a WHIP or WHEP server, ICE-lite) puts into its answer (RFC 8829 §5.3): its ICE credentials,
/// DTLS fingerprint, candidates, what it sends and receives, and which codecs it takes.
public struct WebRTCAnswerOptions: Hashable, Sendable {
    /// One H.264 profile the answerer accepts, matched on `profile_idc` and the constraint flags that matter
    /// (RFC 6184 §8.1: level asymmetry is allowed, the level is the offerer's).
    public struct H264Profile: Hashable, Sendable {
        /// `profile_idc`: 0x42 Baseline, 0x4D Main, 0x64 High.
        public var profileIDC: UInt8
        /// Whether `constraint_set1_flag` must be set (Constrained Baseline: 42e0xx, 42c0xx).
        public var constrained: Bool

        /// A profile.
        /// - Parameters:
        ///   - profileIDC: the profile.
        ///   - constrained: whether constraint_set1 is required.
        public init(profileIDC: UInt8, constrained: Bool) {
            self.profileIDC = profileIDC
            self.constrained = constrained
        }

        /// Constrained Baseline (42e01f and its kin), what every WebRTC endpoint decodes.
        public static let constrainedBaseline = H264Profile(profileIDC: 0x42, constrained: true)
        /// High (640c1f and its kin), where offered.
        public static let high = H264Profile(profileIDC: 0x64, constrained: false)
        /// Main (4d001f).
        public static let main = H264Profile(profileIDC: 0x4D, constrained: false)

        func matches(_ id: SDPH264Parameters.ProfileLevelID) -> Bool {
            id.profileIDC == profileIDC && (!constrained || id.constraints & 0x40 != 0)
        }
    }

    /// The local ICE credentials (the ICE-lite agent's).
    public var iceUserFragment: String
    /// The local ICE password.
    public var icePassword: String
    /// The DTLS certificate's fingerprint, `sha-256 AB:CD:…` (RFC 8122 §5).
    public var fingerprint: String
    /// The host candidates of the bound port.
    public var candidates: [WebRTCCandidate]
    /// Whether the answerer sends media (WHEP) — a section the offerer receives becomes `sendonly` here.
    public var sends: Bool
    /// Whether it receives media (WHIP) — a section the offerer sends becomes `recvonly` here.
    public var receives: Bool
    /// The H.264 profiles accepted, most preferred first (packetization-mode 1 only).
    public var h264Profiles: [H264Profile]
    /// The `profile-level-id` of the H.264 the answerer sends (its SPS's profile_idc, constraint flags and level_idc),
    /// when known: the offered payload type whose profile carries it is chosen first (RFC 6184 §8.2.2), so a High
    /// stream goes out as the offer's High payload type, not as 42e01f; ``h264Profiles`` decide when no offered
    /// profile decodes it, or when it is `nil`.
    public var sentH264: SDPH264Parameters.ProfileLevelID?
    /// The RTCP feedback answered where offered (the others are left out).
    public var feedback: [String]
    /// The SSRC, CNAME and MediaStream id of what the answerer sends, per kind (`audio`, `video`), written as
    /// `a=ssrc` and `a=msid` in sections it sends on; none for a section not listed.
    public var sendingSSRCs: [String: UInt32]
    /// The SSRC of the rtx stream (RFC 4588) that repairs each kind's SSRC, written as `a=ssrc-group:FID` with its own
    /// `a=ssrc` lines (RFC 5576 §4.2) where rtx is negotiated.
    public var retransmissionSSRCs: [String: UInt32] = [:]
    /// The CNAME of `a=ssrc:… cname:` (RFC 7022).
    public var cname: String
    /// The `o=` session id.
    public var sessionID: String
    /// The answer's `a=setup` (RFC 5763 §5, RFC 8842 §5.3): `passive` (default) makes the answerer the DTLS server,
    /// `active` its client — the one an offer of `a=setup:passive` needs, and a choice an offer of `actpass` leaves.
    public var dtlsSetup = "passive"

    /// Options.
    /// - Parameters:
    ///   - iceUserFragment: the local ufrag.
    ///   - icePassword: the local password.
    ///   - fingerprint: the certificate fingerprint.
    ///   - candidates: the host candidates.
    ///   - sends: whether the answerer sends.
    ///   - receives: whether it receives.
    ///   - h264Profiles: the H.264 profiles accepted, preferred first.
    ///   - feedback: the RTCP feedback it handles.
    ///   - sendingSSRCs: the SSRCs it sends with, by kind.
    ///   - cname: the CNAME.
    ///   - sessionID: the `o=` session id.
    public init(iceUserFragment: String, icePassword: String, fingerprint: String, candidates: [WebRTCCandidate],
                sends: Bool, receives: Bool, h264Profiles: [H264Profile] = [.constrainedBaseline, .high],
                feedback: [String] = ["nack", "nack pli", "ccm fir", "goog-remb"], sendingSSRCs: [String: UInt32] = [:],
                cname: String = "streamkit", sessionID: String = "1") {
        self.iceUserFragment = iceUserFragment
        self.icePassword = icePassword
        self.fingerprint = fingerprint
        self.candidates = candidates
        self.sends = sends
        self.receives = receives
        self.h264Profiles = h264Profiles
        self.sentH264 = nil
        self.feedback = feedback
        self.sendingSSRCs = sendingSSRCs
        self.cname = cname
        self.sessionID = sessionID
    }
}
