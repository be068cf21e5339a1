import MediaCore

/// What ``VideoStreamAnalyzer`` learns from a whole video elementary stream, in memory that does not
/// grow with the stream: counts, the properties of the first sequence parameter set, GOP lengths as
/// runs, and the first problems (every frame and NAL unit went by as a ``VideoStreamEvent``).
public struct VideoStreamSummary: Sendable, Hashable {
    /// The most GOP-length runs kept; later GOPs are counted in ``omittedGOPCount``.
    public static let maximumGOPLengthRuns = 4096
    /// The most issues kept; all are counted in ``issueCount``.
    public static let maximumIssues = 1000

    /// ``CodecType/h264`` or ``CodecType/hevc``.
    public var codec: CodecType
    /// The properties of the first sequence parameter set read, if any.
    public var properties: VideoStreamProperties?
    /// The number of frames.
    public var frameCount = 0
    /// The number of key frames.
    public var keyFrameCount = 0
    /// How many frames of each type.
    public var frameTypeCounts: [FrameType: Int] = [:]
    /// The GOP lengths in stream order, equal neighbours collapsed into runs.
    public var gopLengthRuns: [GOPLengthRun] = []
    /// GOPs not in ``gopLengthRuns`` because it reached ``maximumGOPLengthRuns``.
    public var omittedGOPCount = 0
    /// The number of NAL units.
    public var nalUnitCount = 0
    /// The size of the stream in bytes.
    public var byteCount = 0
    /// The first ``maximumIssues`` problems, in stream order.
    public var issues: [StreamIssue] = []
    /// How many problems were found in all.
    public var issueCount = 0

    /// Creates an empty summary.
    /// - Parameter codec: the stream's codec.
    public init(codec: CodecType) {
        self.codec = codec
    }

    /// The average bit rate in bits per second, when the frame rate is known.
    public var averageBitRate: Double? {
        guard let frameRate = properties?.frameRate, frameRate > 0, frameCount > 0 else { return nil }
        return Double(byteCount) * 8 * frameRate / Double(frameCount)
    }

    /// Counts a frame: its type, whether it is a key frame, and the GOP it ends.
    mutating func count(_ frame: FrameSummary, lastKeyIndex: inout Int?) {
        frameCount += 1
        frameTypeCounts[frame.type, default: 0] += 1
        guard frame.isKey else { return }
        keyFrameCount += 1
        if let last = lastKeyIndex { addGOP(length: frame.index - last) }
        lastKeyIndex = frame.index
    }

    /// Adds one GOP length, extending the last run when it has the same length.
    mutating func addGOP(length: Int) {
        if let last = gopLengthRuns.last, last.length == length {
            gopLengthRuns[gopLengthRuns.count - 1].count += 1
        } else if gopLengthRuns.count < Self.maximumGOPLengthRuns {
            gopLengthRuns.append(GOPLengthRun(length: length, count: 1))
        } else {
            omittedGOPCount += 1
        }
    }

    /// Records a problem, keeping the first ``maximumIssues``.
    mutating func record(_ issue: StreamIssue) {
        issueCount += 1
        if issues.count < Self.maximumIssues { issues.append(issue) }
    }
}
