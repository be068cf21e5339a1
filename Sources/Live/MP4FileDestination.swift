import Containers
import MediaCore
import Synchronization
import Transport

/// A recording into an MP4 file: fragmented by default (killed at any moment, it plays up to its last fragment), or
/// classic with its index at the end (optionally moved to the front). Video is track 1, audio track 2 — or track 1
/// when there is no video.
public final class MP4FileDestination: LiveDestination {
    /// How the file is laid out.
    public enum Layout: Sendable {
        /// Fragmented MP4 (`moov` first, then `moof`/`mdat` pairs), each fragment starting at a key frame.
        case fragmented(FragmentedMP4Options)
        /// Classic MP4: the samples, then the index (`faststart` moves it before them at the end).
        case classic(MP4WriterOptions)
    }

    /// One of the two writers is set while the file is open (each changed in place, never copied).
    private struct State {
        var fragmented: FragmentedMP4Writer<FileByteSink>?
        var classic: MP4Writer<FileByteSink>?
        var videoTrack: Int?
        var audioTrack: Int?

        mutating func append(_ media: OutgoingMedia) throws(ContainerWriteError) {
            switch media {
            case let .video(frame, _):
                guard let track = videoTrack else { return }
                try fragmented?.append(frame, toTrack: track)
                try classic?.append(frame, toTrack: track)
            case let .audio(frame, _):
                guard let track = audioTrack else { return }
                try fragmented?.append(frame, toTrack: track)
                try classic?.append(frame, toTrack: track)
            }
        }
    }

    /// The file's path.
    public let path: String
    /// The layout.
    public let layout: Layout
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }

    private let state = Mutex(State())

    /// Creates the destination; the file is created when the stream starts.
    /// - Parameters:
    ///   - path: the `.mp4` (`.m4v`, `.mov`, `.m4a`) file to write.
    ///   - layout: fragmented (default) or classic.
    public init(path: String, layout: Layout = .fragmented(FragmentedMP4Options())) {
        self.path = path
        self.layout = layout
    }

    /// Creates the file with a track per format of the stream.
    /// - Parameter stream: the stream's formats.
    /// - Throws: the writer's `ContainerWriteError`.
    public func open(_ stream: LiveStreamDescription) async throws {
        var tracks: [MP4TrackDescription] = []
        if let video = stream.video { tracks.append(.video(video)) }
        if let audio = stream.audio { tracks.append(.audio(audio)) }
        let (path, layout) = (self.path, self.layout)
        try state.withLock { state throws(ContainerWriteError) in
            var opened = State()
            switch layout {
            case let .fragmented(options): opened.fragmented = try FragmentedMP4Writer(path: path, tracks: tracks, options: options)
            case let .classic(options): opened.classic = try MP4Writer(path: path, tracks: tracks, options: options)
            }
            opened.videoTrack = stream.video == nil ? nil : 0
            opened.audioTrack = stream.audio == nil ? nil : (stream.video == nil ? 0 : 1)
            state = opened
        }
    }

    /// Appends a picture or an AAC frame to its track.
    /// - Parameter media: the frame.
    /// - Throws: the writer's `ContainerWriteError`.
    public func send(_ media: OutgoingMedia) async throws {
        try state.withLock { state throws(ContainerWriteError) in try state.append(media) }
    }

    /// Writes what is left and the index, and closes the file.
    /// - Throws: the writer's `ContainerWriteError`.
    public func finish() async throws {
        try state.withLock { state throws(ContainerWriteError) in
            defer { state = State() }
            try state.fragmented?.finish()
            try state.classic?.finish()
        }
    }
}
