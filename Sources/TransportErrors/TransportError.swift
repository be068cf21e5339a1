import POSIX

/// Why a socket operation of the event loop did not complete.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed (the call, the address and the `errno` are in the ``SystemError``).
    case system(SystemError)
    /// The socket was closed (by this side) before or while the operation waited.
    case closed
    /// The task waiting for the operation was cancelled.
    case cancelled
    /// Another task is already reading (or writing) this socket; one waiter per direction at a time.
    case busy(operation: String)
    /// The event loop was shut down, so nothing can wait on it any more.
    case loopStopped
    /// TLS over the connection failed (certificate, handshake, record, or a missing close_notify).
    indirect case tls(TLSError)

    /// For example `cannot connect to 127.0.0.1:1: Connection refused`.
    public var description: String {
        switch self {
        case let .system(error): return error.description
        case .closed: return "the socket is closed"
        case .cancelled: return "the operation was cancelled"
        case let .busy(operation): return "another task is already waiting to \(operation) on this socket"
        case .loopStopped: return "the event loop has been shut down"
        case let .tls(error): return error.description
        }
    }
}
