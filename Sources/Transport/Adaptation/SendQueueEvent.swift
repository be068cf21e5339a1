/// What a send queue reports while it adapts a live stream to its link: every drop, every change of the
/// target bitrate, every key frame it needs, and the connection's ups and downs.
public enum SendQueueEvent: Sendable, Hashable, CustomStringConvertible {
    /// A message that will not be sent, and why.
    case dropped(MediaPosition, reason: SendDropReason)
    /// The target bitrate changed (bits per second), with the media time queued when it did (seconds).
    case bitRateChanged(from: Int, to: Int, queuedSeconds: Double)
    /// The encoder should make its next picture a key frame (the queue skips pictures up to one).
    case keyFrameNeeded
    /// The connection was lost (the error in words); the publisher tries again after `retryAfter` seconds.
    case disconnected(reason: String, retryAfter: Double)
    /// The connection is back (the attempt's number, from 1) and sending resumes at a key frame.
    case reconnected(attempt: Int)

    /// The event in words, for a log line.
    public var description: String {
        switch self {
        case let .dropped(position, reason): return "dropped \(position): \(reason)"
        case let .bitRateChanged(from, to, queued):
            return "bitrate \(from / 1000) → \(to / 1000) kbit/s (\(String(Int((queued * 1000).rounded()))) ms queued)"
        case .keyFrameNeeded: return "key frame requested"
        case let .disconnected(reason, retry): return "connection lost (\(reason)); retrying in \(retry) s"
        case let .reconnected(attempt): return "reconnected (attempt \(attempt)); resuming at a key frame"
        }
    }
}
