/// The hard caps of ``RTSPStreamParser``: what keeps a hostile peer from exhausting memory.
public struct RTSPMessageLimits: Hashable, Sendable {
    /// The longest request or status line, in bytes (default 8192).
    public var maximumStartLineLength: Int
    /// The most header lines (default 64).
    public var maximumHeaderCount: Int
    /// The longest header section (start line, headers and the empty line), in bytes (default 16384).
    public var maximumHeaderSectionLength: Int
    /// The largest body (`Content-Length`), in bytes (default 65536).
    public var maximumBodyLength: Int

    /// Limits.
    /// - Parameters:
    ///   - maximumStartLineLength: the longest start line.
    ///   - maximumHeaderCount: the most header lines.
    ///   - maximumHeaderSectionLength: the longest header section.
    ///   - maximumBodyLength: the largest body.
    public init(maximumStartLineLength: Int = 8192, maximumHeaderCount: Int = 64,
                maximumHeaderSectionLength: Int = 16384, maximumBodyLength: Int = 65536) {
        self.maximumStartLineLength = maximumStartLineLength
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumHeaderSectionLength = maximumHeaderSectionLength
        self.maximumBodyLength = maximumBodyLength
    }
}
