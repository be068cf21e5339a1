import Containers
import Foundation
import MediaCore
import Synchronization
import Transport

/// A live MPEG-TS stream received over SRT (`srt://`), sent on as it is: as a caller that pulls from a listener (an
/// SRT server, `ffmpeg -f mpegts srt://:PORT?mode=listener`), or as a listener that waits for one publisher to call
/// (an ingest: `ffmpeg -f mpegts srt://HOST:PORT`, OBS, srt-live-transmit). The pictures and AAC frames of the
/// first H.264/H.265 and ADTS streams come out with the stream's own times (``TSMediaReader``).
///
/// libsrt's calls block, so the socket is read on a thread of its own; what it reads waits in a bounded queue (the
/// oldest kept: a pipeline that cannot keep up loses the newest, and ``droppedFrames`` says how many). What goes
/// wrong in the stream — a continuity gap, a damaged PES — is kept in ``issues`` and the frames after it still come.
/// A listener admits one caller whose stream id does not ask to receive (`m=request` is refused: 1405).
///
/// ```swift
/// let ingest = SRTSource(url: "srt://:9000?mode=listener&passphrase=…")
/// let pipeline = LivePipeline(source: ingest)
/// pipeline.add(MP4FileDestination(path: "ingest.mp4"), options: .recording())
/// ```
public actor SRTSource: EncodedMediaSource {
    /// The most frames read ahead to find the formats, and the most waiting for the pipeline.
    public static let queueLimit = 1024
    /// The most issues kept.
    public static let maximumIssues = 100

    /// The URL, without its passphrase.
    public nonisolated let name: String
    private nonisolated let text: String
    /// What went wrong in the stream so far.
    public private(set) var issues: [TSStreamIssue] = []

    private nonisolated let connection = Mutex<(socket: SRTSocket?, listener: SRTListener?, stopped: Bool)>((nil, nil, false))
    private nonisolated let dropped = Mutex(0)
    private var events: AsyncStream<TSMediaReader.Event>.Iterator?
    private var ready: [EncodedMedia] = []
    private var videoPID: UInt16?
    private var audioPID: UInt16?
    private var isStopped = false

    /// Prepares to receive (the connection is made by ``open()``).
    /// - Parameter url: `srt://HOST:PORT?…` (a caller pulling from a listener) or `srt://:PORT` / `mode=listener`
    ///   (waiting for a publisher).
    public init(url: String) {
        text = url
        name = (try? SRTURL(url))?.description ?? url
    }

    /// What SRT counted for the connection so far (`nil` before it is made and after it ends).
    public nonisolated var statistics: SRTStatistics? { connection.withLock { $0.socket?.statistics() } }

    /// Frames the queue had no room for.
    public nonisolated var droppedFrames: Int { dropped.withLock { $0 } }

    /// Connects (or waits for the publisher) and reads until the formats of the streams the program map announces
    /// are known.
    /// - Returns: the formats and the frame rate (from the first pictures' durations; 0 when unknown).
    /// - Throws: ``LiveSourceError``: `unavailable` (refused, no answer, bad URL, a build without SRT), `unsupported`
    ///   (neither H.264/H.265 nor AAC), `disconnected` (the peer left before any frame).
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        let url: SRTURL
        do { url = try SRTURL(text) } catch { throw LiveSourceError(source: name, kind: .unavailable, reason: error.description) }
        let socket: SRTSocket
        do {
            socket = try await SRTDestination.onThread { [self] in
                if url.options.mode == .listener {
                    let listener = try SRTListener(url: url) { request in
                        let mode = request.streamID.flatMap { try? SRTStreamID(parsing: $0) }?.mode
                        return mode == .request ? .reject(.badMode) : .accept
                    }
                    let stopped = self.connection.withLock { state in
                        state.listener = listener
                        return state.stopped
                    }
                    if stopped { listener.close() }
                    defer { listener.close() }
                    return try listener.accept()
                }
                return try SRTSocket.connect(to: url)
            }
        } catch let error as SRTError {
            throw LiveSourceError(source: name, kind: .unavailable, reason: error.description)
        } catch {
            throw LiveSourceError(source: name, kind: .unavailable, reason: "\(error)")
        }
        let stopped = connection.withLock { state in
            state.socket = socket
            return state.stopped
        }
        if stopped { socket.closeNow() }
        let (stream, continuation) = AsyncStream<TSMediaReader.Event>.makeStream(bufferingPolicy: .bufferingOldest(Self.queueLimit))
        let thread = Thread { [self] in self.read(socket, into: continuation) }
        thread.start()
        events = stream.makeAsyncIterator()

        var video: FormatDescription?, audio: AudioFormatDescription?
        var wantsVideo = true, wantsAudio = true
        var frameRate = 0.0
        var index = 0
        while index < Self.queueLimit, (wantsVideo && video == nil) || (wantsAudio && audio == nil) {
            while ready.count <= index, await fill(announced: &wantsVideo, &wantsAudio) {}
            guard ready.count > index else { break }
            switch ready[index] {
            case let .video(frame):
                video = video ?? frame.format
                if frameRate == 0, frame.duration.seconds > 0, index > 0 { frameRate = 1 / frame.duration.seconds }
            case let .audio(frame): audio = audio ?? frame.format
            }
            index += 1
        }
        guard video != nil || audio != nil else {
            if ready.isEmpty, events == nil { throw LiveSourceError(source: name, kind: .disconnected, reason: "the peer left before any frame") }
            throw LiveSourceError(source: name, kind: .unsupported, reason: "it carries no H.264/H.265 pictures and no AAC frames")
        }
        return LiveStreamDescription(video: video, audio: audio, frameRate: frameRate)
    }

    /// The next picture or audio frame, as it arrived.
    /// - Returns: the frame, or `nil` once the peer closed or the source was stopped.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        var wantsVideo = true, wantsAudio = true
        while !isStopped, ready.isEmpty, await fill(announced: &wantsVideo, &wantsAudio) {}
        guard !isStopped, !ready.isEmpty else { return nil }
        return ready.removeFirst()
    }

    /// Ends the source: closes the connection (or stops waiting for a publisher).
    public func stop() {
        isStopped = true
        ready = []
        let (socket, listener) = connection.withLock { state in
            state.stopped = true
            return (state.socket, state.listener)
        }
        listener?.close()
        socket?.closeNow()
    }

    /// Takes the next event from the reading thread; `false` at the end of the stream.
    private func fill(announced wantsVideo: inout Bool, _ wantsAudio: inout Bool) async -> Bool {
        guard var iterator = events else { return false }
        let event = await iterator.next(isolation: self)
        events = iterator
        guard let event else {
            events = nil
            return false
        }
        switch event {
        case let .programMap(map):
            wantsVideo = map.streams.contains { $0.streamType.isVideo }
            wantsAudio = map.streams.contains { $0.streamType == .adtsAAC }
        case let .video(frame, pid):
            if videoPID == nil { videoPID = pid }
            if pid == videoPID { keep(.video(frame)) }
        case let .audio(frame, pid):
            if audioPID == nil { audioPID = pid }
            if pid == audioPID { keep(.audio(frame)) }
        case let .issue(issue):
            if issues.count < Self.maximumIssues { issues.append(issue) }
        }
        return true
    }

    private func keep(_ media: EncodedMedia) {
        guard ready.count < Self.queueLimit else {
            dropped.withLock { $0 += 1 }
            return
        }
        ready.append(media)
    }

    /// The reading thread: packets → the TS reader → events, until the peer closes or the socket is closed. An
    /// event the full queue refuses is counted in ``droppedFrames``.
    private nonisolated func read(_ socket: SRTSocket, into continuation: AsyncStream<TSMediaReader.Event>.Continuation) {
        var reader = TSMediaReader()
        func yield(_ events: [TSMediaReader.Event]) {
            for event in events {
                if case .dropped = continuation.yield(event) { dropped.withLock { $0 += 1 } }
            }
        }
        while let packet = try? socket.receive() { yield(reader.append(packet)) }
        yield(reader.finish())
        continuation.finish()
    }
}
