/// The hard caps an RTMP connection enforces on what its peer sends, so that memory stays bounded whatever arrives.
public struct RTMPLimits: Sendable, Hashable {
    /// The largest chunk size a peer may set (Adobe RTMP specification 1.0 §5.4.1 allows 31 bits; no message is
    /// longer than 2^24 − 1 bytes, so a larger chunk is never needed). 16 777 215 by default.
    public var maximumChunkSize: Int
    /// The longest message accepted (§5.3.1.2.1's 3-byte length allows 16 MiB − 1). 16 MiB by default.
    public var maximumMessageLength: Int
    /// How many chunk streams may be open at once (§5.3.1.1 allows 65 599). 64 by default.
    public var maximumChunkStreams: Int
    /// The most bytes held for incomplete messages over every chunk stream. 32 MiB by default.
    public var maximumBufferedBytes: Int
    /// The deepest nesting of AMF0 objects and arrays in a command or data message. 32 by default.
    public var maximumAMFDepth: Int

    /// Limits with the defaults above, or the values given.
    /// - Parameters:
    ///   - maximumChunkSize: the largest chunk size a peer may set.
    ///   - maximumMessageLength: the longest message.
    ///   - maximumChunkStreams: chunk streams open at once.
    ///   - maximumBufferedBytes: bytes held for incomplete messages.
    ///   - maximumAMFDepth: the deepest AMF0 nesting.
    public init(maximumChunkSize: Int = 0xFF_FFFF, maximumMessageLength: Int = 16 * 1024 * 1024,
                maximumChunkStreams: Int = 64, maximumBufferedBytes: Int = 32 * 1024 * 1024, maximumAMFDepth: Int = 32) {
        self.maximumChunkSize = maximumChunkSize
        self.maximumMessageLength = maximumMessageLength
        self.maximumChunkStreams = maximumChunkStreams
        self.maximumBufferedBytes = maximumBufferedBytes
        self.maximumAMFDepth = maximumAMFDepth
    }
}
