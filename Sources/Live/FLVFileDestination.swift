import Containers
import MediaCore
import Synchronization
import Transport

/// A recording into an FLV file (Adobe FLV specification v10.1, Annex E), as `ffmpeg -c copy -f flv` writes it:
/// the header (E.2), `onMetaData` (E.5), the AVC / AAC sequence headers, then one tag per frame (E.4.2 audio,
/// E.4.3 video) with its `PreviousTagSize` (E.3). H.264 gets the legacy tag header, H.265 the Enhanced RTMP one. At
/// the end the `duration` and `filesize` of `onMetaData` are filled in and the file is closed.
///
/// Pictures and AAC frames come from two encoders at their own pace; the file gets them merged in decode-time order
/// (``DecodeOrderInterleaver``, at most 2 s of media held for a silent track), so its tag timestamps never go back
/// and the earliest frame — AAC's, 1024 samples of priming before the first picture — fixes the file's time zero.
///
/// ```swift
/// pipeline.add(FLVFileDestination(path: "recording.flv"), options: .recording())
/// ```
public final class FLVFileDestination: LiveDestination {
    /// The file's path.
    public let path: String
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }

    /// The writer while the file is open, and the frames waiting for the other track's.
    private struct State {
        var writer: FLVWriter<FileByteSink>?
        var interleaver = DecodeOrderInterleaver(hasVideo: false, hasAudio: false)

        mutating func write(_ media: [OutgoingMedia]) throws(ContainerWriteError) {
            for media in media {
                switch media {
                case let .video(frame, _): try writer?.append(frame)
                case let .audio(frame, _): try writer?.append(frame)
                }
            }
        }
    }

    private let state = Mutex(State())

    /// Creates the destination; the file is created when the stream starts.
    /// - Parameter path: the `.flv` file to write.
    public init(path: String) {
        self.path = path
    }

    /// Creates the file and writes the header, `onMetaData` and the sequence headers of the stream's formats.
    /// - Parameter stream: the formats and the frame rate.
    /// - Throws: ``ContainerWriteError``: `io` when the file cannot be created, `invalidConfiguration` or
    ///   `unsupportedCodec` for a format FLV cannot carry.
    public func open(_ stream: LiveStreamDescription) async throws(ContainerWriteError) {
        let path = self.path
        let configuration = FLVWriter<FileByteSink>.Configuration(video: stream.video, audio: stream.audio,
                                                                  frameRate: stream.frameRate > 0 ? stream.frameRate : nil)
        try state.withLock { state throws(ContainerWriteError) in
            let sink: FileByteSink
            do throws(ContainerIOError) { sink = try FileByteSink(path: path) } catch { throw .io(error) }
            state.writer = try FLVWriter(sink: sink, configuration: configuration)
            state.interleaver = DecodeOrderInterleaver(hasVideo: stream.video != nil, hasAudio: stream.audio != nil)
        }
    }

    /// Takes a picture or an AAC frame and writes, as tags, what the other track lets go in decode order (a picture
    /// after a new sequence header when its parameter sets changed).
    /// - Parameter media: the frame.
    /// - Throws: ``ContainerWriteError`` from the writer (a timestamp outside FLV's range, the sink failing).
    public func send(_ media: OutgoingMedia) async throws(ContainerWriteError) {
        try state.withLock { state throws(ContainerWriteError) in try state.write(state.interleaver.push(media)) }
    }

    /// Writes the frames still held, the end-of-sequence tag, fills in `onMetaData`'s duration and size, and closes
    /// the file.
    /// - Throws: ``ContainerWriteError`` when the file cannot be finished.
    public func finish() async throws(ContainerWriteError) {
        try state.withLock { state throws(ContainerWriteError) in
            defer { state = State() }
            try state.write(state.interleaver.drain())
            try state.writer?.finish()
        }
    }
}
