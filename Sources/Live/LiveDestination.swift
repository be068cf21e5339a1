import MediaCore
import Transport

/// Where a ``LivePipeline`` sends its stream: a server it publishes to, a server it feeds, or a file it
/// records — GStreamer's sink behind a `tee`, HaishinKit's stream behind its mixer.
///
/// The pipeline puts each destination behind a queue of its own (``DestinationOptions/queue``), so a slow or
/// dead destination never stalls the encoder or the other destinations. It calls the destination from one task
/// at a time, in this order: ``open(_:)`` once, with the stream's formats (known from the first encoded picture);
/// ``send(_:)`` for every frame, each track in decode order; ``finish()`` once at the end. A destination that
/// throws from ``open(_:)`` or ``send(_:)`` has failed: the pipeline reports it
/// (``LiveEvent/destinationFailed(_:error:)``) and goes on with the others. Reconnection is the destination's
/// own business (an RTMP destination reconnects with backoff and resumes at a key frame); it reports what it
/// does in ``events``.
public protocol LiveDestination: AnyObject, Sendable {
    /// A short name for logs and events, for example `rtmp://host/live/key` or `recording.mp4`.
    var name: String { get }
    /// Whether the destination is a live link whose speed may lower the encoder's bit rate (a network
    /// destination); `false` for a recording, which keeps its rate whatever the network does.
    var isLive: Bool { get }
    /// What the destination reports of its link: drops, bit-rate suggestions, key-frame requests, lost and
    /// restored connections. `nil` for a destination with nothing to report (a file).
    var events: AsyncStream<SendQueueEvent>? { get }
    /// The tracks it takes: both by default; an elementary-stream file one alone (an `.aac` file the audio, an
    /// Annex B or `.y4m` file the video). The pipeline neither queues nor counts frames of a track it does not take.
    var tracks: LiveTracks { get }

    /// Prepares the destination for the stream (connects, writes a header, announces the formats).
    /// - Parameter stream: the formats and the frame rate.
    /// - Throws: why the destination cannot take the stream; the pipeline then reports it as failed.
    func open(_ stream: LiveStreamDescription) async throws

    /// Sends one frame: a picture in decode order or an AAC frame.
    /// - Parameter media: the frame and its index in its track.
    /// - Throws: why the frame could not be sent; the pipeline then reports the destination as failed.
    func send(_ media: OutgoingMedia) async throws

    /// Sends what is left and closes (writes a file's index, says goodbye to a server).
    /// - Throws: what went wrong while closing.
    func finish() async throws
}

extension LiveDestination {
    /// No events by default.
    public var events: AsyncStream<SendQueueEvent>? { nil }

    /// Both tracks by default.
    public var tracks: LiveTracks { .all }
}
