import Transport

/// How a ``LivePipeline`` feeds one destination: the bounds of its queue and the video rendition it takes.
public struct DestinationOptions: Sendable {
    /// Which encoder's pictures a destination gets.
    public enum Rendition: Sendable, Hashable {
        /// The main rendition, whose bit rate adaptation moves.
        case main
        /// An encoder of its own, at a fixed average bit rate (bits per second) that adaptation never lowers — for
        /// a recording that should keep its quality whatever the network does. Destinations that ask for the same
        /// rate share one encoder.
        case dedicated(averageBitRate: Int)
    }

    /// The queue in front of the destination: at most this much media waits; beyond it, frames nothing depends on
    /// go first, then the rest of a group of pictures — or, with ``Delivery/waitForSlowest``, the pipeline waits for it
    /// (the queue's own policy is set by the pipeline's delivery).
    public var queue: SendQueueLimits
    /// The rendition.
    public var rendition: Rendition

    /// Creates options.
    /// - Parameters:
    ///   - queue: the queue's bounds (default: 2 s or 4 MiB).
    ///   - rendition: the rendition (default: the main one).
    public init(queue: SendQueueLimits = SendQueueLimits(), rendition: Rendition = .main) {
        self.queue = queue
        self.rendition = rendition
    }

    /// A recording's options: a longer queue (10 s, 64 MiB: a disk that stalls for a moment loses nothing) on the main
    /// rendition, or on a dedicated one at `averageBitRate`.
    /// - Parameter averageBitRate: the recording's own bit rate, or `nil` to record the main rendition.
    /// - Returns: the options.
    public static func recording(averageBitRate: Int? = nil) -> DestinationOptions {
        DestinationOptions(queue: SendQueueLimits(maximumBytes: 64 << 20, maximumSeconds: 10),
                           rendition: averageBitRate.map { .dedicated(averageBitRate: $0) } ?? .main)
    }
}
