/// What a session did, returned by its `close()`: how many inputs it received, how many outputs it
/// passed on, and everything it could not finish — dropped or withheld frames (each was also reported
/// in the session's outputs, in its place) and the errors of the frames that failed.
public struct SessionReport: Sendable, Equatable {
    /// The most failures kept in ``failures``; ``failureCount`` counts them all.
    public static let failureLimit = 1000

    /// Pictures, frames or audio buffers given to the session.
    public var received: Int
    /// Outputs passed on: frames (compression), pictures (decompression), audio frames.
    public var emitted: Int
    /// Inputs that did not come out: dropped by the policy or the engine (compression), withheld until
    /// a key frame after a failure (decompression).
    public var dropped: Int
    /// The errors of the frames that failed, in order (at most ``failureLimit``).
    public var failures: [CodecError]
    /// How many frames failed.
    public var failureCount: Int

    /// Creates a report.
    /// - Parameters:
    ///   - received: inputs given to the session.
    ///   - emitted: outputs passed on.
    ///   - dropped: inputs that did not come out.
    ///   - failures: the errors of the frames that failed.
    ///   - failureCount: how many failed (defaults to `failures.count`).
    public init(received: Int, emitted: Int, dropped: Int, failures: [CodecError] = [], failureCount: Int? = nil) {
        self.received = received
        self.emitted = emitted
        self.dropped = dropped
        self.failures = failures
        self.failureCount = failureCount ?? failures.count
    }

    /// Whether everything given to the session came out.
    public var isComplete: Bool { dropped == 0 && failureCount == 0 }
}
