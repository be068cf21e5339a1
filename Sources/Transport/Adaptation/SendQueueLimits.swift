/// The bounds of a publisher's send queue and what happens at them (DESIGN.md, "Bounded memory, explicit
/// policy").
public struct SendQueueLimits: Sendable, Hashable {
    /// What the queue does when it is full.
    public enum Policy: Sendable, Hashable {
        /// Drop (live sources): whole pictures nothing later depends on first, then group-of-pictures tails;
        /// audio only when no video is left to drop. Every drop is reported.
        case drop
        /// Wait (files sent as fast as possible): the producer suspends until there is room; nothing dropped.
        case wait
    }

    /// The most payload bytes queued.
    public var maximumBytes: Int
    /// The most media time queued, in seconds (per track, from the oldest queued message's decode time to
    /// the end of the newest).
    public var maximumSeconds: Double
    /// What a full queue does.
    public var policy: Policy

    /// Creates limits.
    /// - Parameters:
    ///   - maximumBytes: the byte bound (at least 1).
    ///   - maximumSeconds: the media-time bound in seconds.
    ///   - policy: drop (live) or wait (files).
    public init(maximumBytes: Int = 4 << 20, maximumSeconds: Double = 2, policy: Policy = .drop) {
        self.maximumBytes = max(1, maximumBytes)
        self.maximumSeconds = max(0.001, maximumSeconds)
        self.policy = policy
    }
}
