import POSIX

/// What happens in an ``ICEFullAgent`` (and its ``ICECheckList``).
public enum ICEFullAgentEvent: Hashable, Sendable {
    /// A check of ours to this address succeeded: the pair is valid (RFC 8445 §7.2.5.3.2).
    case checkSucceeded(SocketAddress)
    /// The pair with this remote address is nominated and selected (§8.1.1): media goes there now.
    case selected(SocketAddress)
    /// A role conflict (§7.2.5.1, §7.3.1.1) made us switch: `true` when we are controlling now.
    case roleChanged(controlling: Bool)
    /// A check to this address got an error response with this code (a 487 is a role conflict, handled).
    case checkRefused(SocketAddress, code: Int)
    /// A check from the peer was refused with this code (400, 401, 420, 487).
    case requestRefused(from: SocketAddress, code: Int)
    /// Every pair failed: ICE cannot connect (§8.1.2).
    case failed
    /// No consent-freshness check was answered for the consent timeout (RFC 7675 §5.1): sending must stop.
    case consentExpired
}
