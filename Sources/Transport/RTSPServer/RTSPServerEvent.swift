import POSIX

/// What happened to a client of an ``RTSPServer``, in order, on ``RTSPServer/events``: every drop is reported with
/// its reason, never silent.
public enum RTSPServerEvent: Hashable, Sendable {
    /// A connection was refused because the server had ``RTSPServerConfiguration/maximumConnections``.
    case connectionRefused(peer: SocketAddress)
    /// A connection sent what is not RTSP (or went over a cap); it was answered with the error's status and closed.
    case malformedStream(peer: SocketAddress, error: RTSPParseError)
    /// A session started playing a stream.
    case playing(session: String, path: String, peer: SocketAddress)
    /// A client stopped reading: its send queue filled, so it was dropped without slowing the others.
    case slowClientDropped(session: String, peer: SocketAddress)
    /// A session was not heard from for ``RTSPServerConfiguration/sessionTimeout`` and was torn down.
    case sessionTimedOut(session: String, peer: SocketAddress)
    /// A session ended: TEARDOWN, or its connection closed.
    case sessionEnded(session: String)
}
