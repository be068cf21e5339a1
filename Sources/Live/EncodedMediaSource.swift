/// A source of media that is already encoded — a file sent as it is (`.flv`, `.mp4`, Annex B), a stream
/// received from a server or a publisher — which a ``LivePipeline`` fans out without encoding it again
/// (`ffmpeg -c copy` into a `tee`, GStreamer's `parsebin ! tee`).
///
/// The pipeline calls ``open()`` once, then ``next()`` until it returns `nil`, from one task; ``stop()`` may
/// come from another task at any time and makes a pending or later ``next()`` return `nil` promptly.
public protocol EncodedMediaSource: AnyObject, Sendable {
    /// What the source is, for people and events: a path or a URL.
    var name: String { get }

    /// Opens the source and learns its formats: a file's header and parameter sets, a server's SDP or the
    /// sequence headers a publisher sent.
    /// - Returns: the tracks' formats and the nominal frame rate.
    /// - Throws: ``LiveSourceError`` when the source cannot be opened or carries nothing the pipeline can send.
    func open() async throws(LiveSourceError) -> LiveStreamDescription

    /// Waits for the next frame. Pictures come in decode order; the two tracks are interleaved by decode time as
    /// closely as the source allows. A paced source (a file played in real time) waits for each frame's time.
    /// - Returns: the frame, or `nil` once the source has ended or was stopped.
    /// - Throws: ``LiveSourceError`` when the source fails midway (damaged file, lost connection).
    func next() async throws(LiveSourceError) -> EncodedMedia?

    /// Ends the source; a pending ``next()`` returns `nil` promptly.
    func stop() async
}
