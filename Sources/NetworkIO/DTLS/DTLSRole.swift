/// Which end of the DTLS handshake this side is (RFC 5763 §5, RFC 4145 `a=setup`).
public enum DTLSRole: Sendable, Hashable {
    /// The DTLS client: `a=setup:active` (our WHIP client answers a passive endpoint this way).
    case client
    /// The DTLS server: `a=setup:passive` (our WHIP and WHEP servers).
    case server

    /// The SDP `a=setup` value this role answers with.
    public var sdpSetup: String {
        switch self {
        case .client: "active"
        case .server: "passive"
        }
    }
}
