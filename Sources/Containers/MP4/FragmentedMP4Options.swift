import MediaCore

/// How a ``FragmentedMP4Muxer`` (and ``FragmentedMP4Writer``) cuts and labels its fragments.
public struct FragmentedMP4Options: Sendable, Hashable {
    /// The shortest fragment: a fragment ends at the first key frame of the video track once it holds
    /// at least this much. `nil` (the default) ends one at every key frame. With no video track every
    /// sample is a key frame and fragments last this long (1 s when `nil`).
    public var fragmentDuration: MediaTime?
    /// The longest fragment: past it a fragment ends even without a key frame (bounded memory for a
    /// stream whose key frames stop coming). 10 s by default.
    public var maximumFragmentDuration: MediaTime
    /// The most bytes of samples a fragment holds before it ends anyway (64 MiB by default).
    public var maximumFragmentByteCount: Int
    /// Whether a `sidx` box (ISO/IEC 14496-12 §8.16.3) indexing the fragment precedes each `moof`.
    public var writesSegmentIndex: Bool
    /// Whether ``FragmentedMP4Writer/finish()`` appends an `mfra` box (§8.8.9) listing the fragments
    /// that start with a key frame.
    public var writesRandomAccessIndex: Bool

    /// Creates options.
    /// - Parameters:
    ///   - fragmentDuration: the shortest fragment, `nil` for one at each key frame.
    ///   - maximumFragmentDuration: the longest fragment.
    ///   - maximumFragmentByteCount: the most sample bytes in one fragment.
    ///   - writesSegmentIndex: a `sidx` before each `moof`.
    ///   - writesRandomAccessIndex: an `mfra` at a clean finish.
    public init(fragmentDuration: MediaTime? = nil, maximumFragmentDuration: MediaTime = MediaTime(value: 10, timescale: 1),
                maximumFragmentByteCount: Int = 64 << 20, writesSegmentIndex: Bool = false, writesRandomAccessIndex: Bool = true) {
        self.fragmentDuration = fragmentDuration
        self.maximumFragmentDuration = maximumFragmentDuration
        self.maximumFragmentByteCount = maximumFragmentByteCount
        self.writesSegmentIndex = writesSegmentIndex
        self.writesRandomAccessIndex = writesRandomAccessIndex
    }
}
