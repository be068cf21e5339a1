import MediaCore

/// Why an HLS playlist, codec string or presentation could not be written, naming the tag, attribute,
/// segment or file.
public enum HLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The playlist breaks a rule of RFC 8216: `field` names the tag and segment (for example
    /// `EXTINF of segment 12`), `reason` the rule.
    case invalidPlaylist(field: String, reason: String)
    /// No RFC 6381 `CODECS` string can be made for the format (missing or unreadable parameter set).
    case codecString(CodecType, reason: String)
    /// The presentation's settings cannot work (a zero segment duration, a bad file name pattern).
    case invalidConfiguration(String)
    /// The fragmented MP4 muxer refused a frame or its tracks.
    case segment(ContainerWriteError)
    /// Writing, renaming or removing a file failed.
    case io(ContainerIOError)
    /// `append` or `finish` was called after `finish()`.
    case alreadyFinished

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .invalidPlaylist(field, reason): return "invalid HLS playlist: \(field): \(reason)"
        case let .codecString(codec, reason): return "no CODECS string for \(codec): \(reason)"
        case let .invalidConfiguration(text): return "invalid HLS configuration: \(text)"
        case let .segment(error): return "HLS segment: \(error)"
        case let .io(error): return "HLS: \(error)"
        case .alreadyFinished: return "the HLS writer was already finished"
        }
    }
}
