import Containers
import MediaCore
import Transport

/// A writer of one elementary stream into a file — the part of a recording that differs between an Annex B file
/// (`.h264` / `.h265`, ITU-T H.264 / H.265 Annex B) and an ADTS file (`.aac`, ISO/IEC 13818-7 §6.2.1); the rest
/// (the lock, opening on the first frame, finishing once) is ``ElementaryStreamFileDestination``'s.
public protocol ElementaryStreamFileWriting: SendableMetatype {
    /// The track the file holds, as ``LiveDestinationError/missingTrack(_:destination:)`` names it: `video` or
    /// `audio`.
    static var trackName: String { get }
    /// The track the file holds, as a destination's ``LiveDestination/tracks``.
    static var track: LiveTracks { get }

    /// Whether a stream has the track this file holds.
    /// - Parameter stream: the stream's formats.
    /// - Returns: `true` when the stream has it.
    static func carriesTrack(of stream: LiveStreamDescription) -> Bool

    /// Creates (or truncates) the file.
    /// - Parameter path: the file's path.
    /// - Throws: ``ContainerWriteError/io(_:)`` when the file cannot be created.
    init(path: String) throws(ContainerWriteError)

    /// Writes a frame of the file's track; a frame of the other track is passed over.
    /// - Parameter media: the frame.
    /// - Throws: the writer's ``ContainerWriteError``.
    mutating func writeIfCarried(_ media: OutgoingMedia) throws(ContainerWriteError)

    /// Flushes and closes the file.
    /// - Throws: the writer's ``ContainerWriteError``.
    mutating func finish() throws(ContainerWriteError)
}

extension AnnexBWriter: ElementaryStreamFileWriting where Sink == FileByteSink {
    /// `video`.
    public static var trackName: String { "video" }
    /// ``LiveTracks/video``.
    public static var track: LiveTracks { .video }

    /// Whether the stream has video.
    /// - Parameter stream: the stream's formats.
    /// - Returns: `true` when it has a video format.
    public static func carriesTrack(of stream: LiveStreamDescription) -> Bool { stream.video != nil }

    /// Writes a picture (parameter sets before every key frame, Annex B start codes); audio is passed over.
    /// - Parameter media: the frame.
    /// - Throws: the writer's ``ContainerWriteError``.
    public mutating func writeIfCarried(_ media: OutgoingMedia) throws(ContainerWriteError) {
        guard case let .video(frame, _) = media else { return }
        try write(frame)
    }
}

extension ADTSWriter: ElementaryStreamFileWriting where Sink == FileByteSink {
    /// `audio`.
    public static var trackName: String { "audio" }
    /// ``LiveTracks/audio``.
    public static var track: LiveTracks { .audio }

    /// Whether the stream has audio.
    /// - Parameter stream: the stream's formats.
    /// - Returns: `true` when it has an audio format.
    public static func carriesTrack(of stream: LiveStreamDescription) -> Bool { stream.audio != nil }

    /// Writes an AAC frame behind its ADTS header; pictures are passed over.
    /// - Parameter media: the frame.
    /// - Throws: the writer's ``ContainerWriteError``.
    public mutating func writeIfCarried(_ media: OutgoingMedia) throws(ContainerWriteError) {
        guard case let .audio(frame, _) = media else { return }
        try write(frame)
    }
}
