/// How a file source hands out its frames: at their own times, as a camera would (`ffmpeg -re`), or as fast as
/// the pipeline takes them.
public enum Pacing: Sendable, Hashable {
    /// Each frame at its time after the first one: a file stands in for a live source.
    case realTime
    /// Every frame at once: the slowest destination sets the pace (a transcode, a file sent as fast as the link
    /// takes it).
    case asFastAsPossible
}
