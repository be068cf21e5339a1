/// Why a destination of the library could not take a stream, or why a destination a user typed
/// (``LiveDestinations/destination(for:options:)``) is not understood.
public enum LiveDestinationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The destination needs a track the stream does not have ("video", "audio").
    case missingTrack(String, destination: String)
    /// A frame came before ``LiveDestination/open(_:)`` or after ``LiveDestination/finish()``.
    case notOpen(destination: String)
    /// The destination cannot take the stream, and why (a path already taken).
    case refused(destination: String, reason: String)
    /// The URL's scheme (the word before `://`, for example `ftp`) names no destination.
    case unknownScheme(String, destination: String)
    /// The file's extension (for example `mkv`, or the empty word when the name has none) names no file format a
    /// destination writes.
    case unknownFileExtension(String, destination: String)
    /// The URL's scheme is understood but the rest is not: `part` names the word that is wrong (the host, the port,
    /// the path), `reason` what is wrong with it.
    case invalidAddress(part: String, destination: String, reason: String)

    /// The error in words.
    public var description: String {
        switch self {
        case let .missingTrack(track, destination): return "\(destination) needs \(track), and the stream has none"
        case let .notOpen(destination): return "\(destination) is not open"
        case let .refused(destination, reason): return "\(destination) refused the stream: \(reason)"
        case let .unknownScheme(scheme, destination):
            return "\(destination): \"\(scheme)://\" is not a destination (rtmp, rtmps, rtsp, rtp or srt)"
        case let .unknownFileExtension(fileExtension, destination):
            return fileExtension.isEmpty
                ? "\(destination): a file needs an extension that names its format (.mp4, .m3u8, .flv, .ts, .h264, .h265, .aac)"
                : "\(destination): \".\(fileExtension)\" is not a format a destination writes (.mp4, .m3u8, .flv, .ts, .h264, .h265, .aac)"
        case let .invalidAddress(part, destination, reason): return "\(destination): \"\(part)\" \(reason)"
        }
    }
}
