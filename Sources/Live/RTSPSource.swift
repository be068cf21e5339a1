import RTP
import Synchronization
import Transport

/// A stream pulled from an RTSP server (RFC 2326: DESCRIBE, SETUP of each track, PLAY) over UDP or interleaved TCP
/// (§10.12), as a source a ``LivePipeline`` records or serves again without decoding: H.264/H.265 pictures in AVCC
/// form with their parameter sets in the format, AAC frames, both with presentation times on the sender reports'
/// common clock (RFC 3550 §6.4.1). Each RTP packet is parsed once (``RTPSessionReceiver``); after a loss, pictures
/// are withheld until the next key frame, so nothing damaged is handed on. ``statistics`` says what was lost.
///
/// ```swift
/// let pipeline = LivePipeline(source: RTSPSource(url: "rtsp://camera.local/stream", transport: .tcp))
/// pipeline.add(MP4FileDestination(path: "camera.mp4"), options: .recording())
/// let report = try await pipeline.run()
/// ```
public final class RTSPSource: EncodedMediaSource {
    private struct State {
        var client: RTSPClient?
        var stopped = false
    }

    /// The server's URL: `rtsp://[user:password@]host[:port]/path`.
    public let url: String
    /// UDP or interleaved TCP.
    public let transport: RTSPLowerTransport
    /// The tracks taken.
    public var tracks: ReceivedTracks { received.tracks }
    /// The receiver's limits.
    public var configuration: RTPSessionReceiver.Configuration { received.configuration }
    /// The URL.
    public var name: String { url }

    private let received: ReceivedRTPSession.Holder
    private let state = Mutex(State())

    /// Creates the source; it connects in ``open()``.
    /// - Parameters:
    ///   - url: `rtsp://[user:password@]host[:port]/path`.
    ///   - transport: UDP (default) or interleaved TCP.
    ///   - tracks: the tracks to set up (both by default).
    ///   - configuration: the receiver's windows and limits.
    public init(url: String, transport: RTSPLowerTransport = .udp, tracks: ReceivedTracks = .all,
                configuration: RTPSessionReceiver.Configuration = RTPSessionReceiver.Configuration()) {
        self.url = url
        self.transport = transport
        received = ReceivedRTPSession.Holder(tracks: tracks, configuration: configuration)
    }

    /// What the source saw so far: frames good, lost and withheld; packets, jitter, A/V offset.
    public var statistics: ReceivedStreamStatistics { received.statistics }

    /// Connects, DESCRIBEs, SETs UP the tracks taken and PLAYs.
    /// - Returns: the formats (from the SDP, or from parameter sets the stream carries in band).
    /// - Throws: ``LiveSourceError``: `.unavailable` when the server cannot be reached or refuses, `.unsupported`
    ///   for an SDP without H.264/H.265/AAC tracks.
    public func open() async throws(LiveSourceError) -> LiveStreamDescription {
        let loop: EventLoop
        do { loop = try EventLoop() } catch { throw LiveSourceError(source: url, kind: .unavailable, reason: "\(error)") }
        received.loop = loop
        let client: RTSPClient
        let receiver: RTPSessionReceiver
        var sections: [Int] = []
        do {
            client = try await RTSPClient(url: url, on: loop)
            state.withLock { $0.client = client }
            let answer = try await client.describe()
            let description: SessionDescription
            do throws(SDPError) {
                description = try SessionDescription(parsing: answer.sdp)
            } catch {
                throw LiveSourceError(source: url, kind: .malformed, reason: "DESCRIBE answer: \(error)")
            }
            receiver = try received.receiver(for: description, source: url)
            for track in [receiver.video, receiver.audio].compactMap({ $0 }) {
                let number = try await client.setup(control: description.media[track.index].control ?? "*", transport: transport)
                if sections.count <= number { sections += Array(repeating: -1, count: number + 1 - sections.count) }
                sections[number] = track.index
            }
            try await client.play()
        } catch let error as LiveSourceError {
            await stop()
            throw error
        } catch {
            await stop()
            throw LiveSourceError(source: url, kind: .unavailable, reason: "\(error)")
        }
        let link = ReceivedRTPSession.Link(packets: client.packets, sendControl: { bytes, track in
            try? await client.send(rtcp: bytes, track: track)
        }, sections: sections)
        let session = ReceivedRTPSession(name: url, receiver: receiver, link: link)
        received.session = session
        let stopped = state.withLock { $0.stopped }
        if stopped { await client.teardown() }
        return try await session.open()
    }

    /// The next picture or audio frame.
    /// - Returns: the frame, or `nil` once the server ended the stream or ``stop()`` was called.
    public func next() async throws(LiveSourceError) -> EncodedMedia? {
        await received.next()
    }

    /// Ends the session (TEARDOWN); a pending ``next()`` returns what was held, then `nil`.
    public func stop() async {
        let client = state.withLock { state in
            state.stopped = true
            return state.client
        }
        await client?.teardown()
    }
}
