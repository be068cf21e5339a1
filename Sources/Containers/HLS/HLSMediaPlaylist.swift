import MediaCore

/// A media playlist (RFC 8216 §4.3.3, §4.3.2): the list of a stream's media segments, with the
/// initialization section of its fragmented MP4 segments (`EXT-X-MAP`).
///
/// A live playlist keeps a sliding window (``removeSegments(keepingLast:)`` drops the oldest and
/// advances ``mediaSequence``), an event playlist only grows, a VOD playlist is written once, complete.
/// ``text()`` checks the rules of RFC 8216 and renders the file:
///
/// ```swift
/// var playlist = HLSMediaPlaylist(initializationSegmentURI: "init.mp4", playlistType: .vod)
/// playlist.append(HLSMediaSegment(uri: "segment_00001.m4s", duration: MediaTime(value: 2, timescale: 1)))
/// playlist.hasEnded = true
/// try AtomicFile.replace("out/stream.m3u8", withText: try playlist.text())
/// ```
public struct HLSMediaPlaylist: Sendable, Hashable {
    /// `EXT-X-PLAYLIST-TYPE` (§4.3.3.5).
    public enum PlaylistType: String, Sendable, Hashable {
        /// Segments are only added at the end; the playlist is never cut (a recording watched live).
        case event = "EVENT"
        /// The playlist never changes (a finished file).
        case vod = "VOD"
    }

    /// `EXT-X-TARGETDURATION` (§4.3.3.1): every segment's duration rounded to the nearest integer must
    /// not exceed it. ``append(_:)`` raises it to the ceiling of the longest segment.
    public var targetDuration: Int
    /// `EXT-X-MEDIA-SEQUENCE` (§4.3.3.2): the sequence number of the first segment listed.
    public var mediaSequence: Int
    /// The `EXT-X-MAP` URI (§4.3.2.5) of the initialization section, or `nil` for segments that need none.
    public var initializationSegmentURI: String?
    /// `EXT-X-PLAYLIST-TYPE`, or `nil` for a live playlist whose window slides.
    public var playlistType: PlaylistType?
    /// `EXT-X-INDEPENDENT-SEGMENTS` (§4.3.5.1): every segment starts with a key frame, so it decodes
    /// without the one before.
    public var hasIndependentSegments: Bool
    /// The segments, oldest first.
    public private(set) var segments: [HLSMediaSegment]
    /// `EXT-X-ENDLIST` (§4.3.3.4): no segment will be added.
    public var hasEnded: Bool

    /// Creates a playlist.
    /// - Parameters:
    ///   - targetDuration: the target duration in seconds (raised by ``append(_:)`` as needed).
    ///   - mediaSequence: the sequence number of the first segment.
    ///   - initializationSegmentURI: the `EXT-X-MAP` URI, if any.
    ///   - playlistType: `EVENT`, `VOD` or `nil` for live.
    ///   - hasIndependentSegments: whether each segment starts with a key frame.
    ///   - segments: the segments, oldest first.
    ///   - hasEnded: whether to write `EXT-X-ENDLIST`.
    public init(targetDuration: Int = 1, mediaSequence: Int = 0, initializationSegmentURI: String? = nil,
                playlistType: PlaylistType? = nil, hasIndependentSegments: Bool = true,
                segments: [HLSMediaSegment] = [], hasEnded: Bool = false) {
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.initializationSegmentURI = initializationSegmentURI
        self.playlistType = playlistType
        self.hasIndependentSegments = hasIndependentSegments
        self.segments = []
        self.hasEnded = hasEnded
        for segment in segments { append(segment) }
    }

    /// The lowest `EXT-X-VERSION` the playlist's features need (§7): 6 with `EXT-X-MAP` in a playlist
    /// that is not I-frames-only, else 3 for the decimal `EXTINF` durations.
    public var version: Int { initializationSegmentURI == nil ? 3 : 6 }

    /// The sum of the listed segments' durations.
    public var duration: MediaTime {
        segments.reduce(MediaTime.zero) { $0 + $1.duration }
    }

    /// Adds a segment at the end and raises ``targetDuration`` to the ceiling of its duration if needed.
    ///
    /// A live server must not change the target duration (§6.2.1); it only grows here when a segment
    /// is longer than every one before, which a segmenter cutting at key frames avoids by choosing a
    /// target of at least the key-frame interval.
    /// - Parameter segment: the segment.
    public mutating func append(_ segment: HLSMediaSegment) {
        segments.append(segment)
        targetDuration = max(targetDuration, Int(clamping: HLSDecimal.ceilingSeconds(segment.duration)))
    }

    /// Drops the oldest segments so at most `count` stay, advancing ``mediaSequence`` by as many
    /// (§6.2.2: a live server removes segments from the start, in order).
    /// - Parameter count: the window size; 0 or less keeps none.
    /// - Returns: the segments removed, oldest first (their files must stay available a while longer:
    ///   §6.2.2 asks for the segment's duration plus the playlist's).
    @discardableResult
    public mutating func removeSegments(keepingLast count: Int) -> [HLSMediaSegment] {
        let excess = segments.count - max(0, count)
        guard excess > 0 else { return [] }
        let removed = Array(segments.prefix(excess))
        segments.removeFirst(excess)
        mediaSequence += excess
        return removed
    }

    /// Checks the rules of RFC 8216 this playlist must follow.
    /// - Throws: ``HLSError/invalidPlaylist(field:reason:)`` naming the tag and segment: a target
    ///   duration below 1 or below a segment's rounded duration (§4.3.3.1), a negative media sequence
    ///   (§4.3.3.2), a segment duration that is not positive (§4.3.2.1), a URI that is empty, starts
    ///   with `#` or holds a line break (§4.1), an `EXT-X-MAP` URI with a quote or line break (§4.2).
    public func validate() throws(HLSError) {
        guard targetDuration >= 1 else {
            throw .invalidPlaylist(field: "EXT-X-TARGETDURATION", reason: "\(targetDuration) is not a positive integer")
        }
        guard mediaSequence >= 0 else {
            throw .invalidPlaylist(field: "EXT-X-MEDIA-SEQUENCE", reason: "\(mediaSequence) is negative")
        }
        if let uri = initializationSegmentURI {
            guard !uri.isEmpty, !uri.contains(where: { $0 == "\"" || $0.isNewline }) else {
                throw .invalidPlaylist(field: "EXT-X-MAP URI", reason: "a quoted-string must be non-empty without quotes or line breaks")
            }
        }
        for (index, segment) in segments.enumerated() {
            let name = "segment \(mediaSequence + index)"
            guard segment.duration.value > 0 else {
                throw .invalidPlaylist(field: "EXTINF of \(name)", reason: "duration \(segment.duration) is not positive")
            }
            let rounded = segment.duration.converted(to: 1).value
            guard rounded <= Int64(targetDuration) else {
                throw .invalidPlaylist(field: "EXTINF of \(name)",
                                       reason: "duration \(segment.durationText) s rounds to \(rounded), above EXT-X-TARGETDURATION \(targetDuration)")
            }
            guard !segment.uri.isEmpty, segment.uri.first != "#", !segment.uri.contains(where: \.isNewline) else {
                throw .invalidPlaylist(field: "URI of \(name)", reason: "a URI line must be non-empty, not start with # and hold no line break")
            }
        }
    }

    /// The playlist file (UTF-8 text, one tag or URI per line, §4.1), after ``validate()``.
    /// - Returns: the text, starting `#EXTM3U`.
    /// - Throws: ``HLSError/invalidPlaylist(field:reason:)`` as ``validate()``.
    public func text() throws(HLSError) -> String {
        try validate()
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(version)", "#EXT-X-TARGETDURATION:\(targetDuration)",
                     "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)"]
        if let playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(playlistType.rawValue)") }
        if hasIndependentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let uri = initializationSegmentURI { lines.append("#EXT-X-MAP:URI=\"\(uri)\"") }
        for segment in segments {
            if let time = segment.programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(time)") }
            lines.append("#EXTINF:\(segment.durationText),")
            lines.append(segment.uri)
        }
        if hasEnded { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }
}
