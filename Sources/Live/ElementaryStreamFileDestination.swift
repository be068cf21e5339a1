import Containers
import MediaCore
import Synchronization
import Transport

/// A recording of one track into an elementary-stream file, whatever its syntax: the one implementation behind
/// ``AnnexBFileDestination`` (pictures as an Annex B stream) and ``ADTSFileDestination`` (AAC frames behind ADTS
/// headers). The file is created when the stream starts, frames of the other track are passed over, and
/// ``finish()`` flushes and closes it.
public final class ElementaryStreamFileDestination<Writer: ElementaryStreamFileWriting>: LiveDestination {
    /// The file's path.
    public let path: String
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }
    /// The writer's one track: the pipeline does not queue the other.
    public var tracks: LiveTracks { Writer.track }

    private let writer = Mutex<Writer?>(nil)

    /// Creates the destination; the file is created when the stream starts.
    /// - Parameter path: the file to write (`.h264` / `.h265` for Annex B, `.aac` for ADTS).
    public init(path: String) {
        self.path = path
    }

    /// Creates the file.
    /// - Parameter stream: the stream's formats (it needs the writer's track).
    /// - Throws: ``LiveDestinationError/missingTrack(_:destination:)`` without the track; the file's
    ///   ``ContainerWriteError``.
    public func open(_ stream: LiveStreamDescription) async throws {
        guard Writer.carriesTrack(of: stream) else { throw LiveDestinationError.missingTrack(Writer.trackName, destination: path) }
        let path = self.path
        try writer.withLock { writer throws(ContainerWriteError) in writer = try Writer(path: path) }
    }

    /// Writes a frame of the file's track; frames of the other track are passed over.
    /// - Parameter media: the frame.
    /// - Throws: the file's ``ContainerWriteError``.
    public func send(_ media: OutgoingMedia) async throws(ContainerWriteError) {
        try writer.withLock { writer throws(ContainerWriteError) in try writer?.writeIfCarried(media) }
    }

    /// Flushes and closes the file.
    /// - Throws: the file's ``ContainerWriteError``.
    public func finish() async throws(ContainerWriteError) {
        try writer.withLock { writer throws(ContainerWriteError) in
            try writer?.finish()
            writer = nil
        }
    }
}
