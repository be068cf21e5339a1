import MediaCore

/// Where HLS media segments start: at the first key frame at or after the target duration since the
/// current segment's start (RFC 8216 §3: each segment of a playlist with `EXT-X-INDEPENDENT-SEGMENTS`
/// starts with a key frame; §4.3.3.1: the target duration is then the ceiling of the longest segment).
///
/// Times are decode times, the ones the fragments' sample durations add up to. Feed every video frame
/// in decode order (audio does not decide cuts):
///
/// ```swift
/// var segmenter = HLSSegmenter(targetDuration: MediaTime(value: 2, timescale: 1))
/// switch segmenter.decision(forFrameAt: frame.dts, isKeyFrame: frame.isKeyFrame) {
/// case .startNewSegment(let finished): closeSegment(duration: finished)
/// case .skipBeforeFirstKeyFrame: return // joined mid-stream: nothing decodes yet
/// case .startFirstSegment, .continueSegment: break
/// }
/// ```
public struct HLSSegmenter: Sendable, Hashable {
    /// What to do with a frame.
    public enum Decision: Sendable, Hashable {
        /// The frame is the first key frame: the first segment starts with it.
        case startFirstSegment
        /// The frame belongs to the current segment.
        case continueSegment
        /// The frame starts a new segment; the one before lasted `finishedDuration` (from its first
        /// frame's decode time to this frame's).
        case startNewSegment(finishedDuration: MediaTime)
        /// No key frame has come yet (a stream joined mid-GOP): the frame cannot start a segment and
        /// nothing before it decodes, so it is left out. A normal outcome, not an error.
        case skipBeforeFirstKeyFrame
    }

    /// The shortest segment: a segment ends at the first key frame at least this long after its start.
    public let targetDuration: MediaTime
    /// The decode time of the current segment's first frame, `nil` before the first key frame.
    public private(set) var segmentStart: MediaTime?
    /// How many segments have started.
    public private(set) var segmentCount = 0

    /// Creates a segmenter.
    /// - Parameter targetDuration: the shortest segment (2 s is the usual choice); must be positive.
    public init(targetDuration: MediaTime) {
        self.targetDuration = targetDuration
    }

    /// Decides what a frame does to the segments.
    /// - Parameters:
    ///   - time: the frame's decode time.
    ///   - isKeyFrame: whether it is a random-access point.
    /// - Returns: the decision; `startNewSegment` only at a key frame at or after ``targetDuration``
    ///   from ``segmentStart``.
    public mutating func decision(forFrameAt time: MediaTime, isKeyFrame: Bool) -> Decision {
        guard let start = segmentStart else {
            guard isKeyFrame else { return .skipBeforeFirstKeyFrame }
            segmentStart = time
            segmentCount = 1
            return .startFirstSegment
        }
        let elapsed = time - start
        guard isKeyFrame, !(elapsed < targetDuration) else { return .continueSegment }
        segmentStart = time
        segmentCount += 1
        return .startNewSegment(finishedDuration: elapsed)
    }
}
