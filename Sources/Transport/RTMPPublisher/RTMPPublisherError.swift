import MediaCore

/// Why an ``RTMPPublisher`` could not publish.
public enum RTMPPublisherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not an `rtmp://HOST[:PORT]/APP/KEY` the publisher can use (the reason in words).
    case invalidURL(String, reason: String)
    /// Connecting, `connect`, `createStream` or `publish` failed (the server's or the socket's words).
    case connectFailed(String)
    /// The video codec cannot be published (only H.264 and H.265 can).
    case unsupportedCodec(CodecType)
    /// A picture's codec is not the configured one.
    case codecMismatch(expected: CodecType, got: CodecType)
    /// The connection was lost for good, or the publisher was closed.
    case sender(MediaSenderError)

    /// The error in words.
    public var description: String {
        switch self {
        case let .invalidURL(url, reason): return "\(url): \(reason)"
        case let .connectFailed(reason): return "could not start publishing: \(reason)"
        case let .unsupportedCodec(codec): return "\(codec) cannot be published over RTMP (H.264 or H.265 only)"
        case let .codecMismatch(expected, got): return "the stream was set up for \(expected), but a \(got) picture came"
        case let .sender(error): return error.description
        }
    }
}
