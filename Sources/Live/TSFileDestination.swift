import Containers
import MediaCore
import Synchronization
import Transport

/// A recording into an MPEG-TS file (`.ts`, ISO/IEC 13818-1), as `ffmpeg -c copy -f mpegts` writes it (see
/// ``TSWriter``): PAT and PMT, one PES packet per picture with an access unit delimiter and the parameter sets
/// before key frames, AAC in ADTS gathered several frames per PES packet, the PCR on the video PID.
///
/// Pictures and AAC frames come from two encoders at their own pace; the file gets them merged in decode-time order
/// (``DecodeOrderInterleaver``). Like FFmpeg's muxer it moves time so that the earliest frame is at 1.4 s, which
/// keeps the negative decode times of B-frames positive.
///
/// ```swift
/// pipeline.add(TSFileDestination(path: "recording.ts"), options: .recording())
/// ```
public final class TSFileDestination: LiveDestination {
    /// Where the earliest frame lands: 1.4 s, FFmpeg's.
    public static let startTime: Int64 = 126_000

    /// The file's path.
    public let path: String
    /// The path.
    public var name: String { path }
    /// A recording: never a live link.
    public var isLive: Bool { false }

    /// The writer (made with the first frame, whose time fixes the offset) and the frames waiting for the other track's.
    private struct State {
        var configuration: TSWriter<FileByteSink>.Configuration?
        var sink: FileByteSink?
        var writer: TSWriter<FileByteSink>?
        var interleaver = DecodeOrderInterleaver(hasVideo: false, hasAudio: false)

        mutating func write(_ media: [OutgoingMedia]) throws(ContainerWriteError) {
            for media in media {
                if writer == nil, var configuration, let sink {
                    let first: MediaTime
                    switch media {
                    case let .video(frame, _): first = frame.dts
                    case let .audio(frame, _): first = frame.pts
                    }
                    configuration.timestampOffset = TSFileDestination.startTime - first.converted(to: 90_000).value
                    writer = try TSWriter(sink: sink, configuration: configuration)
                }
                switch media {
                case let .video(frame, _): try writer?.append(frame)
                case let .audio(frame, _): try writer?.append(frame)
                }
            }
        }
    }

    private let state = Mutex(State())

    /// Creates the destination; the file is created when the stream starts.
    /// - Parameter path: the `.ts` file to write.
    public init(path: String) {
        self.path = path
    }

    /// Creates the file (its tables are written with the first frame).
    /// - Parameter stream: the formats.
    /// - Throws: ``ContainerWriteError``: `io` when the file cannot be created, `unsupportedCodec` for a format a
    ///   TS cannot carry here.
    public func open(_ stream: LiveStreamDescription) async throws(ContainerWriteError) {
        let path = self.path
        let configuration = TSWriter<FileByteSink>.Configuration(video: stream.video, audio: stream.audio)
        // Checked now, so that a format the muxer refuses fails the destination at once.
        _ = try TSWriter(sink: MemoryByteSink(), configuration: TSWriter<MemoryByteSink>.Configuration(video: stream.video, audio: stream.audio))
        try state.withLock { state throws(ContainerWriteError) in
            do throws(ContainerIOError) { state.sink = try FileByteSink(path: path) } catch { throw .io(error) }
            state.configuration = configuration
            state.interleaver = DecodeOrderInterleaver(hasVideo: stream.video != nil, hasAudio: stream.audio != nil)
        }
    }

    /// Takes a picture or an AAC frame and writes what the other track lets go in decode order.
    /// - Parameter media: the frame.
    /// - Throws: ``ContainerWriteError`` from the writer.
    public func send(_ media: OutgoingMedia) async throws(ContainerWriteError) {
        try state.withLock { state throws(ContainerWriteError) in try state.write(state.interleaver.push(media)) }
    }

    /// Writes the frames still held and closes the file.
    /// - Throws: ``ContainerWriteError`` when the file cannot be finished.
    public func finish() async throws(ContainerWriteError) {
        try state.withLock { state throws(ContainerWriteError) in
            defer { state = State() }
            try state.write(state.interleaver.drain())
            if state.writer != nil {
                try state.writer?.finish()
            } else {
                do throws(ContainerIOError) { try state.sink?.close() } catch { throw .io(error) }
            }
        }
    }
}
