import Transport

/// A publisher coming to or leaving a ``WHIPSource`` (RFC 9725 §4.2: its POST made a session; §4.3: its DELETE, or
/// anything else that ended the session), in order, from ``WHIPSource/publisherEvents``.
public enum WHIPPublisherEvent: Sendable, Equatable {
    /// A publisher's offer was answered: its session exists (publishers are numbered from 1, in order of arrival).
    case arrived(Int)
    /// That publisher's session ended, and why (a DELETE is ``WebRTCPeerSessionCloseReason/closedByOwner``).
    case left(Int, WebRTCPeerSessionCloseReason)
}
