/// Which end of the DTLS handshake this side is (RFC 5763 §5, RFC 4145 `a=setup`).
public enum DTLSRole: Sendable, Hashable {
    /// The DTLS client: `a=setup:active` (our WHIP client facing a passive endpoint; our WHIP and WHEP servers facing a
    /// passive offer).
    case client
    /// The DTLS server: `a=setup:passive` (our WHIP and WHEP servers facing an `actpass` or `active` offer).
    case server

    /// The SDP `a=setup` value this role answers with.
    public var sdpSetup: String {
        switch self {
        case .client: "active"
        case .server: "passive"
        }
    }
}
