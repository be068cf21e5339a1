import POSIX

/// What happens on an ``RTMPServer``, in order, in ``RTMPServer/events``.
public enum RTMPServerEvent: Sendable {
    /// A peer connected and finished the handshake (`digest`: whether it sent the Flash Player 9 form).
    case connected(SocketAddress, digest: Bool)
    /// A publisher started publishing at a path.
    case publishing(path: String, from: SocketAddress)
    /// The publisher of a path stopped (`nil`: it unpublished or closed cleanly; else why its connection ended).
    case unpublished(path: String, error: RTMPError?)
    /// A player started playing a path.
    case playing(path: String, from: SocketAddress)
    /// A publish or play was refused by the configuration's authorization, or because the path was busy.
    case refused(RTMPStreamRequest, reason: String)
    /// A connection ended with an error (malformed input, a limit, the peer vanished).
    case failed(SocketAddress, RTMPError)
    /// A player was disconnected because it fell too far behind.
    case playerTooSlow(path: String, SocketAddress)
}
