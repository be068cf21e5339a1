/// The hard caps of ``MP4File``: what a hostile file may ask for before the reader refuses it. They keep
/// the memory a file can make the reader allocate proportional to the file, and bounded.
public struct MP4ReaderLimits: Sendable, Hashable {
    /// The most tracks (`trak` boxes) a file may have.
    public var maxTrackCount: Int
    /// The most samples one track may have (the sample index costs about 30 bytes a sample).
    public var maxSampleCountPerTrack: Int
    /// The deepest nesting of boxes (`meta` inside `udta` inside `meta` …).
    public var maxBoxDepth: Int
    /// The most boxes the reader visits in the whole file (a file of millions of tiny boxes is refused).
    public var maxBoxCount: Int
    /// The most fragments (`moof` boxes) a file may have.
    public var maxFragmentCount: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maxTrackCount: the most tracks, 64 by default.
    ///   - maxSampleCountPerTrack: the most samples a track, 4 Mi by default (38 hours at 30 frames a second).
    ///   - maxBoxDepth: the deepest box nesting, 16 by default.
    ///   - maxBoxCount: the most boxes, 1 Mi by default.
    ///   - maxFragmentCount: the most fragments, 1 Mi by default.
    public init(maxTrackCount: Int = 64, maxSampleCountPerTrack: Int = 1 << 22, maxBoxDepth: Int = 16,
                maxBoxCount: Int = 1 << 20, maxFragmentCount: Int = 1 << 20) {
        self.maxTrackCount = maxTrackCount
        self.maxSampleCountPerTrack = maxSampleCountPerTrack
        self.maxBoxDepth = maxBoxDepth
        self.maxBoxCount = maxBoxCount
        self.maxFragmentCount = maxFragmentCount
    }

    /// The default caps.
    public static let `default` = MP4ReaderLimits()
}
