/// How a file source hands out its frames: at their own times, as a camera would (`ffmpeg -re`), or as fast as
/// the pipeline takes them.
public enum Pacing: Sendable, Hashable {
    /// Each frame at its time after the first one: a file stands in for a live source.
    case realTime
    /// Every frame at once: the slowest destination sets the pace (a transcode, a file sent as fast as the link
    /// takes it).
    case asFastAsPossible
}

extension Pacing {
    /// The pipeline's rule for a file source: what was asked, else from the destinations — a file into files goes
    /// as fast as possible (a transcode, every frame kept), a file into any live link (``LiveDestination/isLive``)
    /// at its own pace, as a camera would.
    /// - Parameters:
    ///   - requested: the pacing asked for (`--re`: ``realTime``), or `nil` to let the destinations decide.
    ///   - destinations: where the file goes.
    /// - Returns: the pacing.
    public static func forFile(requested: Pacing?, into destinations: [any LiveDestination]) -> Pacing {
        requested ?? (destinations.contains { $0.isLive } ? .realTime : .asFastAsPossible)
    }
}
