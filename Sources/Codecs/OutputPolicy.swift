/// What a session does when its output buffer is full because the consumer reads more slowly than
/// the session produces.
public enum OutputPolicy: Sendable, Hashable {
    /// Backpressure, for files: `encode`/`decode` suspend until the consumer has read enough that the
    /// buffer has room again. Nothing is ever dropped.
    case wait
    /// For live streams: the session never waits; when the buffer is full it drops whole frames that
    /// nothing later depends on (see ``DropReason``) and reports each drop as an output, in its place.
    case drop
}
