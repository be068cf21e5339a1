import Containers
import MediaCore
import Transport

/// MPEG-TS for a datagram link (SRT, UDP): pictures and AAC frames in, chunks of seven TS packets (1316 bytes) out,
/// as `ffmpeg -f mpegts` writes into an `srt://` or `udp://` URL with `pkt_size=1316`.
///
/// The two tracks are merged in decode order (``DecodeOrderInterleaver``). A key frame always starts a chunk — the
/// bytes before it go out in a shorter chunk — so that a receiver joining the stream can start at a chunk that
/// begins with the program tables and a key frame (``Chunk/startsKeyFrame``).
struct TSChunkStream {
    /// One datagram's payload.
    struct Chunk: Sendable {
        /// Whole TS packets, at most ``TSChunkStream/chunkSize`` bytes.
        var bytes: [UInt8]
        /// Whether it begins with the tables and a key frame: where a new receiver may start.
        var startsKeyFrame: Bool
    }

    /// Seven TS packets: what fits an SRT packet (1456 bytes at most) and a 1500-byte Ethernet frame over UDP.
    static let chunkSize = 7 * 188

    private var writer: TSWriter<MemoryByteSink>?
    private let configuration: TSWriter<MemoryByteSink>.Configuration
    private var interleaver: DecodeOrderInterleaver
    private var pending: [UInt8] = []
    private var pendingStartsKeyFrame = false

    /// Prepares the stream for the formats (checked now: a format TS cannot carry fails here).
    /// - Parameter stream: the formats.
    /// - Throws: ``ContainerWriteError/unsupportedCodec(_:frameIndex:)`` and the writer's other errors.
    init(_ stream: LiveStreamDescription) throws(ContainerWriteError) {
        configuration = TSWriter<MemoryByteSink>.Configuration(video: stream.video, audio: stream.audio)
        _ = try TSWriter(sink: MemoryByteSink(), configuration: configuration)
        interleaver = DecodeOrderInterleaver(hasVideo: stream.video != nil, hasAudio: stream.audio != nil)
    }

    /// Takes a frame and returns the chunks that are complete now (the frames the other track lets go in decode
    /// order, cut at 1316 bytes and before each key frame).
    /// - Parameter media: a picture or an AAC frame.
    /// - Returns: the complete chunks.
    /// - Throws: ``ContainerWriteError`` from the muxer.
    mutating func push(_ media: OutgoingMedia) throws(ContainerWriteError) -> [Chunk] {
        try write(interleaver.push(media))
    }

    /// Writes what is still held and returns every remaining byte.
    /// - Returns: the last chunks.
    /// - Throws: ``ContainerWriteError`` from the muxer.
    mutating func finish() throws(ContainerWriteError) -> [Chunk] {
        var chunks = try write(interleaver.drain())
        if var writer {
            try writer.finish()
            pending += writer.replaceSink(with: MemoryByteSink()).bytes
            self.writer = writer
        }
        chunks += cut(all: true)
        return chunks
    }

    private mutating func write(_ media: [OutgoingMedia]) throws(ContainerWriteError) -> [Chunk] {
        var chunks: [Chunk] = []
        for item in media {
            if writer == nil {
                var configuration = self.configuration
                let first: MediaTime
                switch item {
                case let .video(frame, _): first = frame.dts
                case let .audio(frame, _): first = frame.pts
                }
                configuration.timestampOffset = TSFileDestination.startTime - first.converted(to: 90_000).value
                writer = try TSWriter(sink: MemoryByteSink(), configuration: configuration)
                pendingStartsKeyFrame = true
            }
            guard var writer else { continue }
            switch item {
            case let .video(frame, _):
                if frame.isKeyFrame {
                    // The bytes before a key frame leave in a chunk of their own, so that the key frame (and the
                    // tables the writer puts before it) begins the next one.
                    pending += writer.replaceSink(with: MemoryByteSink()).bytes
                    chunks += cut(all: true)
                    pendingStartsKeyFrame = true
                }
                try writer.append(frame)
            case let .audio(frame, _):
                try writer.append(frame)
            }
            pending += writer.replaceSink(with: MemoryByteSink()).bytes
            self.writer = writer
            chunks += cut(all: false)
        }
        return chunks
    }

    /// Cuts ``pending`` into chunks: the full ones, and with `all` the rest too.
    private mutating func cut(all: Bool) -> [Chunk] {
        var chunks: [Chunk] = []
        var start = 0
        while pending.count - start >= Self.chunkSize || (all && start < pending.count) {
            let end = min(start + Self.chunkSize, pending.count)
            chunks.append(Chunk(bytes: Array(pending[start..<end]), startsKeyFrame: pendingStartsKeyFrame && start == 0))
            pendingStartsKeyFrame = false
            start = end
        }
        pending.removeFirst(start)
        return chunks
    }
}
