/// The hard caps of ``FLVReader``: what a hostile or broken file may ask for before reading stops.
public struct FLVReaderLimits: Sendable, Hashable {
    /// The largest tag body accepted (`DataSize` can say up to 16 MiB − 1).
    public var maximumTagByteCount: Int
    /// The size of the blocks the reader reads into (tags are views into them; a block is freed when no tag
    /// of it is left).
    public var blockByteCount: Int
    /// The caps for the AMF0 of script-data tags.
    public var amf0: AMF0Limits

    /// Creates limits.
    /// - Parameters:
    ///   - maximumTagByteCount: the largest tag body, 16 MiB − 1 (all FLV allows) by default.
    ///   - blockByteCount: the read block size, 1 MiB by default.
    ///   - amf0: the AMF0 caps.
    public init(maximumTagByteCount: Int = FLVTag.maximumBodyByteCount, blockByteCount: Int = 1 << 20, amf0: AMF0Limits = .default) {
        self.maximumTagByteCount = maximumTagByteCount
        self.blockByteCount = blockByteCount
        self.amf0 = amf0
    }

    /// The default caps.
    public static let `default` = FLVReaderLimits()
}
