/// What ``StreamInspector`` learnt about a stream.
public enum StreamSummary: Sendable, Hashable {
    /// An H.264 or H.265 Annex B stream.
    case video(VideoStreamSummary)
    /// An ADTS AAC stream.
    case audio(AudioStreamReport)

    /// The first problems found (see ``issueCount`` for how many in all).
    public var issues: [StreamIssue] {
        switch self {
        case let .video(summary): return summary.issues
        case let .audio(report): return report.issues
        }
    }

    /// How many problems were found in all.
    public var issueCount: Int {
        switch self {
        case let .video(summary): return summary.issueCount
        case let .audio(report): return report.issueCount
        }
    }
}
