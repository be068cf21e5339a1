/// The bounds that keep a hostile transport stream from exhausting memory: everything beyond them is reported
/// (``TSStreamIssue/limitReached(_:)``, ``TSStreamIssue/PESDamage/tooLarge(limit:)``) and ignored.
public struct TSDemuxerLimits: Hashable, Sendable {
    /// The largest PES packet gathered, in bytes (16 MiB: a 4K intra picture fits).
    public var maximumPESSize: Int
    /// The most programs followed.
    public var maximumProgramCount: Int
    /// The most elementary streams followed, over all programs.
    public var maximumStreamCount: Int
    /// The most bytes skipped while looking for sync before one report (the scan itself goes on).
    public var maximumResyncReport: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumPESSize: the largest PES packet.
    ///   - maximumProgramCount: the most programs.
    ///   - maximumStreamCount: the most elementary streams.
    ///   - maximumResyncReport: bytes skipped before a report is made even without sync.
    public init(maximumPESSize: Int = 16 << 20, maximumProgramCount: Int = 16, maximumStreamCount: Int = 32,
                maximumResyncReport: Int = 1 << 20) {
        self.maximumPESSize = maximumPESSize
        self.maximumProgramCount = maximumProgramCount
        self.maximumStreamCount = maximumStreamCount
        self.maximumResyncReport = maximumResyncReport
    }
}
