/// The hard caps of ``HTTPRequestParser`` and ``HTTPResponseParser``: what keeps a hostile peer from exhausting memory.
public struct HTTPMessageLimits: Hashable, Sendable {
    /// The longest request or status line, in bytes (default 8192, RFC 9112 §3 recommends at least 8000).
    public var maximumStartLineLength: Int
    /// The most header lines (default 100).
    public var maximumHeaderCount: Int
    /// The longest header section (start line, headers and the empty line), in bytes (default 16384); chunked
    /// trailers count against it too.
    public var maximumHeaderSectionLength: Int
    /// The largest body, in bytes, whether framed by `Content-Length` or chunked (default 1 MiB).
    public var maximumBodyLength: Int

    /// Limits.
    /// - Parameters:
    ///   - maximumStartLineLength: the longest start line.
    ///   - maximumHeaderCount: the most header lines.
    ///   - maximumHeaderSectionLength: the longest header section.
    ///   - maximumBodyLength: the largest body.
    public init(maximumStartLineLength: Int = 8192, maximumHeaderCount: Int = 100,
                maximumHeaderSectionLength: Int = 16384, maximumBodyLength: Int = 1 << 20) {
        self.maximumStartLineLength = maximumStartLineLength
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumHeaderSectionLength = maximumHeaderSectionLength
        self.maximumBodyLength = maximumBodyLength
    }
}
