import Containers
import MediaCore
import Synchronization
import Transport

/// A recording of the video into an Annex B elementary stream (`.h264` / `.h265`), as
/// `ffmpeg -c copy -f h264` writes it: parameter sets before every key frame. Audio is not written here (add an
/// ``ADTSFileDestination`` beside it).
public final class AnnexBFileDestination: LiveDestination {
    /// The file's path.
    public let path: String
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }

    private let writer = Mutex<AnnexBWriter<FileByteSink>?>(nil)

    /// Creates the destination; the file is created when the stream starts.
    /// - Parameter path: the `.h264` or `.h265` file to write.
    public init(path: String) {
        self.path = path
    }

    /// Creates the file.
    /// - Parameter stream: the stream's formats (it needs video).
    /// - Throws: ``LiveDestinationError/missingTrack(_:destination:)`` without video; the file's
    ///   `ContainerWriteError`.
    public func open(_ stream: LiveStreamDescription) async throws {
        guard stream.video != nil else { throw LiveDestinationError.missingTrack("video", destination: path) }
        let path = self.path
        try writer.withLock { writer throws(ContainerWriteError) in writer = try AnnexBWriter(path: path) }
    }

    /// Writes a picture; audio frames are passed over.
    /// - Parameter media: the frame.
    /// - Throws: the file's `ContainerWriteError`.
    public func send(_ media: OutgoingMedia) async throws {
        guard case let .video(frame, _) = media else { return }
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
