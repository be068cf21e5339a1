import Containers
import MediaCore
import Synchronization
import Transport

/// A recording of the audio into an ADTS stream (`.aac`), as `ffmpeg -c copy -f adts` writes it. Pictures are
/// not written here (add an ``AnnexBFileDestination`` beside it).
public final class ADTSFileDestination: LiveDestination {
    /// The file's path.
    public let path: String
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }

    private let writer = Mutex<ADTSWriter<FileByteSink>?>(nil)

    /// Creates the destination; the file is created when the stream starts.
    /// - Parameter path: the `.aac` file to write.
    public init(path: String) {
        self.path = path
    }

    /// Creates the file.
    /// - Parameter stream: the stream's formats (it needs audio).
    /// - Throws: ``LiveDestinationError/missingTrack(_:destination:)`` without audio; the file's `ContainerWriteError`.
    public func open(_ stream: LiveStreamDescription) async throws {
        guard stream.audio != nil else { throw LiveDestinationError.missingTrack("audio", destination: path) }
        let path = self.path
        try writer.withLock { writer throws(ContainerWriteError) in writer = try ADTSWriter(path: path) }
    }

    /// Writes an AAC frame; pictures are passed over.
    /// - Parameter media: the frame.
    /// - Throws: the file's `ContainerWriteError`.
    public func send(_ media: OutgoingMedia) async throws {
        guard case let .audio(frame, _) = media else { return }
        try writer.withLock { writer throws(ContainerWriteError) in try writer?.write(frame) }
    }

    /// Finishes the file.
    /// - Throws: the file's `ContainerWriteError`.
    public func finish() async throws {
        try writer.withLock { writer throws(ContainerWriteError) in
            try writer?.finish()
            writer = nil
        }
    }
}
