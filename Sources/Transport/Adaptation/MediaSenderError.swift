/// Why an ``AdaptiveMediaSender`` stopped before it had sent everything.
public enum MediaSenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The connection dropped and every attempt of the ``ReconnectPolicy`` to restore it failed.
    case connectionLost(attempts: Int, lastError: String)
    /// A message was submitted after ``AdaptiveMediaSender/finish()`` or after the sender stopped.
    case closed

    /// The error in words.
    public var description: String {
        switch self {
        case let .connectionLost(attempts, last):
            return "the connection was lost and \(attempts) attempt\(attempts == 1 ? "" : "s") to reconnect failed (last: \(last))"
        case .closed: return "the sender is closed"
        }
    }
}
