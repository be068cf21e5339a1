import Containers
import MediaCore

/// The sliding window of a live HLS stream held in memory (RFC 8216 §6.2.1, §6.2.2): the last ``windowSize`` media
/// segments listed in the playlist, `EXT-X-MEDIA-SEQUENCE` advancing as the oldest leave it, and the segments that left
/// it kept a little longer — §6.2.2 asks that a removed segment stay available for its own duration plus that of the
/// longest playlist that listed it — then forgotten (a request for one is a 404). At most `2 × windowSize` segments
/// are held, so memory is bounded by the window.
///
/// ```swift
/// var window = HLSLiveWindow(windowSize: 6, segmentFormat: .fragmentedMP4, targetDuration: 2)
/// window.add(segment)                       // from HLSSegmentStream
/// let body = window.body(of: .playlist)     // the playlist's bytes
/// ```
public struct HLSLiveWindow: Sendable {
    /// A segment that left the playlist, and the media time (end of the stream so far) from which it may go.
    private struct Retired: Sendable {
        var segment: HLSSegmentStream.Segment
        var removableAt: MediaTime
    }

    /// How many segments the playlist lists.
    public let windowSize: Int
    /// The segments' container.
    public let segmentFormat: HLSSegmentFormat
    /// The fragmented MP4 initialization section, once known.
    public var initializationSegment: [UInt8]?
    /// The playlist as it stands.
    public private(set) var playlist: HLSMediaPlaylist
    /// The listed segments, oldest first.
    public private(set) var segments: [HLSSegmentStream.Segment] = []
    /// Whether the stream has ended (`EXT-X-ENDLIST`).
    public var hasEnded: Bool { playlist.hasEnded }

    private var retired: [Retired] = []
    private var mediaEnd = MediaTime.zero
    private var playlistBytes: [UInt8] = []

    /// An empty window.
    /// - Parameters:
    ///   - windowSize: the segments the playlist lists (at least 1).
    ///   - segmentFormat: fragmented MP4 (with `EXT-X-MAP`) or MPEG-TS.
    ///   - targetDuration: `EXT-X-TARGETDURATION` in whole seconds (the ceiling of the segmenter's target; raised if a
    ///     segment is longer).
    public init(windowSize: Int, segmentFormat: HLSSegmentFormat, targetDuration: Int) {
        self.windowSize = max(1, windowSize)
        self.segmentFormat = segmentFormat
        playlist = HLSMediaPlaylist(targetDuration: max(1, targetDuration),
                                    initializationSegmentURI: segmentFormat == .fragmentedMP4 ? HLSLiveResource.initializationSegmentName : nil,
                                    playlistType: nil, hasIndependentSegments: true)
    }

    /// Whether a playlist can be served: at least one segment is listed.
    public var isReady: Bool { !segments.isEmpty }

    /// The media sequence number of the first listed segment (`EXT-X-MEDIA-SEQUENCE`).
    public var mediaSequence: Int { playlist.mediaSequence }

    /// The number of segments held (listed and retired), never above `2 × windowSize`.
    public var heldSegmentCount: Int { segments.count + retired.count }

    /// The bytes held in segments.
    public var heldByteCount: Int {
        segments.reduce(0) { $0 + $1.bytes.count } + retired.reduce(0) { $0 + $1.segment.bytes.count }
    }

    /// Lists a new segment at the end; the oldest leave the playlist once more than ``windowSize`` are listed, and
    /// those that left it long enough ago are forgotten.
    /// - Parameter segment: the next segment (its sequence number follows the last one's).
    public mutating func add(_ segment: HLSSegmentStream.Segment) {
        if segments.isEmpty, retired.isEmpty { playlist.mediaSequence = segment.sequenceNumber }
        segments.append(segment)
        mediaEnd = mediaEnd + segment.duration
        playlist.append(HLSMediaSegment(uri: HLSLiveResource.segment(sequenceNumber: segment.sequenceNumber).name(segmentFormat: segmentFormat),
                                        duration: segment.duration, byteCount: segment.bytes.count))
        let windowDuration = playlist.duration
        let removed = playlist.removeSegments(keepingLast: windowSize)
        for _ in removed {
            let leaving = segments.removeFirst()
            retired.append(Retired(segment: leaving, removableAt: mediaEnd + leaving.duration + windowDuration))
        }
        while let first = retired.first, !(mediaEnd < first.removableAt) || retired.count > windowSize {
            retired.removeFirst()
        }
        renderPlaylist()
    }

    /// Ends the playlist (`EXT-X-ENDLIST`, §4.3.3.4): players stop reloading it.
    public mutating func end() {
        playlist.hasEnded = true
        renderPlaylist()
    }

    /// The bytes of a resource, or `nil` when it is not (or no longer, or not yet) held.
    /// - Parameter resource: the playlist, the initialization section or a segment.
    /// - Returns: the bytes.
    public func body(of resource: HLSLiveResource) -> [UInt8]? {
        switch resource {
        case .playlist:
            return isReady ? playlistBytes : nil
        case .initializationSegment:
            return initializationSegment
        case let .segment(number):
            if let segment = segments.first(where: { $0.sequenceNumber == number }) { return segment.bytes }
            return retired.first { $0.segment.sequenceNumber == number }?.segment.bytes
        }
    }

    private mutating func renderPlaylist() {
        // The playlist is built from segments the segmenter measured: its rules hold (durations positive, names
        // plain); were one broken, the previous text stays served.
        guard let text = try? playlist.text() else { return }
        playlistBytes = Array(text.utf8)
    }
}
