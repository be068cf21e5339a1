import Codecs
import MediaCore
import Transport

/// What a ``LivePipeline`` reports while it runs, in order — for an app's status line and log. Each case carries
/// values, not sentences; ``description`` words them.
public enum LiveEvent: Sendable, CustomStringConvertible {
    /// A destination took the stream's formats and is sending.
    case destinationOpened(String)
    /// A destination lost its connection and tries again after `retryAfter` seconds.
    case reconnecting(String, reason: String, retryAfter: Double)
    /// A destination is connected again (the attempt's number, from 1) and resumes at a key frame.
    case reconnected(String, attempt: Int)
    /// The main rendition's bit rate changed (bits per second), because of the destination named.
    case bitRateChanged(from: Int, to: Int, cause: String)
    /// The audio encoder's bit rate changed (bits per second) with the video's (``AudioAdaptation``).
    case audioBitRateChanged(from: Int, to: Int)
    /// A destination's queue dropped a frame (which one, and why).
    case dropped(String, MediaPosition, reason: SendDropReason)
    /// The encoder dropped a picture before any destination saw it.
    case encoderDropped(FramePosition, reason: DropReason)
    /// A key frame was forced because a destination skipped to one.
    case keyFrameForced(String)
    /// A destination failed for good; the others go on.
    case destinationFailed(String, error: any Error)
    /// The audio source is not encoded, and why (a build without an AAC encoder); the video goes on alone.
    case audioSkipped(reason: String)
    /// The pipeline ended.
    case ended(LiveReport)

    /// The event in words, for a log line.
    public var description: String {
        switch self {
        case let .destinationOpened(name): return "\(name): sending"
        case let .reconnecting(name, reason, retry): return "\(name): connection lost (\(reason)); retrying in \(retry) s"
        case let .reconnected(name, attempt): return "\(name): reconnected (attempt \(attempt)), resuming at a key frame"
        case let .bitRateChanged(from, to, cause): return "bit rate \(from / 1000) → \(to / 1000) kbit/s (\(cause))"
        case let .audioBitRateChanged(from, to): return "audio bit rate \(from / 1000) → \(to / 1000) kbit/s"
        case let .dropped(name, position, reason): return "\(name): dropped \(position): \(reason)"
        case let .encoderDropped(position, reason): return "encoder dropped \(position): \(reason)"
        case let .keyFrameForced(name): return "key frame forced for \(name)"
        case let .destinationFailed(name, error): return "\(name): failed: \(error)"
        case let .audioSkipped(reason): return "audio: \(reason); carrying on with video alone"
        case let .ended(report): return "ended: \(report)"
        }
    }
}
