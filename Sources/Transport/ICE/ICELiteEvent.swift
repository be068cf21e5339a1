import POSIX

/// What happens on an ``ICELiteAgent``'s port.
public enum ICELiteEvent: Hashable, Sendable {
    /// A connectivity check from this address was answered with a success: it may now send media.
    case checkSucceeded(from: SocketAddress)
    /// The controlling agent nominated the pair with this address (USE-CANDIDATE): media goes there now.
    case nominated(SocketAddress)
    /// A check was refused with this error code (400, 401, 420, 487) — wrong credentials, for example.
    case checkRefused(from: SocketAddress, code: Int)
}
