/// Why a destination of the library could not take a stream.
public enum LiveDestinationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The destination needs a track the stream does not have ("video", "audio").
    case missingTrack(String, destination: String)
    /// A frame came before ``LiveDestination/open(_:)`` or after ``LiveDestination/finish()``.
    case notOpen(destination: String)
    /// The destination cannot take the stream, and why (a path already taken).
    case refused(destination: String, reason: String)

    /// The error in words.
    public var description: String {
        switch self {
        case let .missingTrack(track, destination): return "\(destination) needs \(track), and the stream has none"
        case let .notOpen(destination): return "\(destination) is not open"
        case let .refused(destination, reason): return "\(destination) refused the stream: \(reason)"
        }
    }
}
