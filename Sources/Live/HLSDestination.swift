import Containers
import MediaCore
import Synchronization
import Transport

/// A recording into an HLS presentation (RFC 8216) with fragmented MP4 segments: the initialization segment
/// (`EXT-X-MAP`, §4.3.2.5), media segments that each start at a key frame (`EXT-X-INDEPENDENT-SEGMENTS`,
/// §4.3.5.1) once the target duration has passed (`EXT-X-TARGETDURATION`, §4.3.3.1), and the media playlist,
/// rewritten as each segment closes (an `EVENT` playlist by default, §4.3.3.5, or a live sliding window whose
/// old segments are removed as §6.2.2 allows) and ended with `EXT-X-ENDLIST` (§4.3.3.4) by ``finish()``. Every
/// file appears whole (written under a temporary name, then renamed), so a web server serving the folder never
/// hands out half of one. What ``HLSWriter`` writes; this type feeds it from a ``LivePipeline``.
///
/// ```swift
/// pipeline.add(HLSDestination(path: "www/live/stream.m3u8", segmentDuration: 2), options: .recording())
/// ```
public final class HLSDestination: LiveDestination {
    /// The writer while the presentation is open, and each track's index in it.
    private struct State {
        var writer: HLSWriter?
        var videoTrack: Int?
        var audioTrack: Int?
        /// TS segments hold both tracks in one stream: they go in merged by decode time (fMP4 keeps them apart).
        var interleaver: DecodeOrderInterleaver?

        mutating func write(_ media: OutgoingMedia) throws(HLSError) {
            switch media {
            case let .video(frame, _):
                guard let track = videoTrack else { return }
                try writer?.append(frame, toTrack: track)
            case let .audio(frame, _):
                guard let track = audioTrack else { return }
                try writer?.append(frame, toTrack: track)
            }
        }
    }

    /// The folder, file names, target duration and playlist mode.
    public let configuration: HLSWriter.Configuration
    /// The media playlist's path.
    public var path: String { configuration.playlistPath }
    /// The playlist's path.
    public var name: String { path }
    /// A recording: never a live link (its bit rate never follows a network).
    public var isLive: Bool { false }

    private let state = Mutex(State())

    /// Creates the destination; the folder and the files are made when the stream starts.
    /// - Parameters:
    ///   - path: the media playlist (`.m3u8`); the segments go beside it.
    ///   - segmentDuration: the shortest segment in seconds (default 2): a segment ends at the first key frame at
    ///     least this long after its start, so the encoder's key-frame interval should divide it.
    ///   - mode: `.event` (default: every segment kept, the playlist rewritten as each closes), `.live(windowSize:)`
    ///     (the last segments only, older files removed) or `.vod` (the playlist written once, at the end).
    ///   - segmentFormat: fragmented MP4 (default: `init.mp4` and `.m4s` segments) or MPEG-TS (`.ts` segments).
    public convenience init(path: String, segmentDuration: Double = 2, mode: HLSWriter.Mode = .event,
                            segmentFormat: HLSSegmentFormat = .fragmentedMP4) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        let playlist = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let milliseconds = Int64((max(0, segmentDuration) * 1000).rounded())
        self.init(configuration: HLSWriter.Configuration(directory: directory, playlistName: playlist,
                                                         targetSegmentDuration: MediaTime(value: milliseconds, timescale: 1000),
                                                         mode: mode, segmentFormat: segmentFormat))
    }

    /// Creates the destination from a full configuration (segment names, program date-time …).
    /// - Parameter configuration: where and how to write.
    public init(configuration: HLSWriter.Configuration) {
        self.configuration = configuration
    }

    /// The number of media segments written so far.
    public var segmentCount: Int { state.withLock { $0.writer?.segmentCount ?? 0 } }

    /// Makes the folder and prepares a track per format of the stream (video first, then audio).
    /// - Parameter stream: the stream's formats.
    /// - Throws: ``HLSError``: `invalidConfiguration` for a target duration that is not positive or a bad file name,
    ///   `codecString` for a format without usable parameter sets, `io` when the folder cannot be made.
    public func open(_ stream: LiveStreamDescription) async throws(HLSError) {
        var tracks: [MP4TrackDescription] = []
        if let video = stream.video { tracks.append(.video(video)) }
        if let audio = stream.audio { tracks.append(.audio(audio)) }
        let configuration = self.configuration
        try state.withLock { state throws(HLSError) in
            var opened = State()
            opened.writer = try HLSWriter(tracks: tracks, configuration: configuration)
            opened.videoTrack = stream.video == nil ? nil : 0
            opened.audioTrack = stream.audio == nil ? nil : (stream.video == nil ? 0 : 1)
            if configuration.segmentFormat == .mpegTS {
                opened.interleaver = DecodeOrderInterleaver(hasVideo: stream.video != nil, hasAudio: stream.audio != nil)
            }
            state = opened
        }
    }

    /// Adds a picture or an AAC frame to its track; a key frame past the target duration closes the segment and
    /// rewrites the playlist.
    /// - Parameter media: the frame.
    /// - Throws: ``HLSError`` from the writer (`segment` when the muxer refuses the frame, `io`).
    public func send(_ media: OutgoingMedia) async throws(HLSError) {
        try state.withLock { state throws(HLSError) in
            guard var interleaver = state.interleaver else { return try state.write(media) }
            let ready = interleaver.push(media)
            state.interleaver = interleaver
            for media in ready { try state.write(media) }
        }
    }

    /// Writes the last segment and the playlist with `EXT-X-ENDLIST` (RFC 8216 §4.3.3.4); ``segmentCount`` still
    /// counts them afterwards.
    /// - Throws: ``HLSError`` when a file cannot be written.
    public func finish() async throws(HLSError) {
        try state.withLock { state throws(HLSError) in
            for media in state.interleaver?.drain() ?? [] { try state.write(media) }
            try state.writer?.finish()
        }
    }
}
