import POSIX

/// A caller knocking at an ``SRTListener``: what a listener's admission policy decides on.
public struct SRTConnectionRequest: Hashable, Sendable {
    /// The caller's address.
    public let peer: SocketAddress?
    /// The stream id the caller sent, if any (read it with ``SRTStreamID/init(parsing:)``).
    public let streamID: String?

    /// A request as the listener sees it.
    /// - Parameters:
    ///   - peer: the caller's address.
    ///   - streamID: the stream id in its handshake.
    public init(peer: SocketAddress?, streamID: String?) {
        self.peer = peer
        self.streamID = streamID
    }
}

/// What an ``SRTListener`` answers a caller.
public enum SRTAdmission: Hashable, Sendable {
    /// Let the caller in, with the listener's own passphrase (if any).
    case accept
    /// Let the caller in if it has this passphrase (a passphrase per stream id).
    case acceptEncrypted(passphrase: String)
    /// Refuse the caller, telling it why (it fails with ``SRTError/rejected(_:)`` and this reason).
    case reject(SRTRejectionReason)
}

/// A listener's decision for each caller, called on libsrt's receiving thread during the handshake: keep it quick.
public typealias SRTAdmissionPolicy = @Sendable (SRTConnectionRequest) -> SRTAdmission
