import Bitstream
import Containers
import MediaCore
import POSIX
import Synchronization
import Transport

/// An RTMP server of our own as a destination of a ``LivePipeline``: players (`ffmpeg -i rtmp://HOST:PORT/APP/KEY`,
/// VLC, OBS's media source) connect and play the stream — FLV tag bodies of the pipeline's frames (Adobe RTMP 1.0
/// §7.1.5 audio and video messages, FLV 10.1 §E.4 tag bodies), `onMetaData` and the sequence headers first, which the
/// server also hands to players who join late. Only `play` of ``path`` is allowed: nobody may publish to it. A player
/// that falls behind is dropped alone; the encoder and the others never wait for it.
///
/// The server listens from the moment the destination is made, so ``url`` is known (port 0 included). Audio other than
/// AAC (the Opus of a WHIP ingest) has no classic FLV `SoundFormat`: it is left out (``omittedAudioCodec``) and the
/// players get the video alone, as MediaMTX's RTMP server does.
public final class RTMPServerDestination: LiveDestination {
    private struct State {
        var publication: RTMPLocalPublication?
        var isStopped = false
        var omittedAudio: CodecType?
    }

    /// The server (its statistics, its events).
    public let server: RTMPServer
    /// `app/key`, what players ask for.
    public let path: String
    /// `rtmp://HOST:PORT/APP/KEY` with the address the server listens on.
    public var url: String { "rtmp://\(server.localAddress)/\(path)" }
    /// The URL.
    public var name: String { url }
    /// The server keeps a queue per player: it does not slow the encoder down.
    public var isLive: Bool { false }

    private let loop: EventLoop
    private let state = Mutex(State())

    /// The audio codec the stream has and classic FLV does not carry (Opus), which the players do not get; `nil` when
    /// the audio is AAC, or there is none.
    public var omittedAudioCodec: CodecType? { state.withLock { $0.omittedAudio } }

    /// Creates the server and starts listening.
    /// - Parameters:
    ///   - address: where to listen (port 0: any free port; ``url`` says which).
    ///   - path: `app/key` (default `live/stream`).
    /// - Throws: `TransportError` when the address cannot be bound.
    public init(address: SocketAddress, path: String = "live/stream") throws(TransportError) {
        let loop = try EventLoop()
        let configuration = RTMPServerConfiguration(address: address) { $0.role == .play && $0.path == path }
        do {
            server = try RTMPServer(configuration: configuration, on: loop)
        } catch {
            loop.shutdown()
            throw error
        }
        self.loop = loop
        self.path = path
        server.start()
    }

    /// Publishes the stream at ``path``: `onMetaData` and the sequence headers, kept for late players.
    /// - Parameter stream: the formats.
    /// - Throws: ``LiveDestinationError`` when the path is taken; `FLVError` when a format does not fit FLV.
    public func open(_ stream: LiveStreamDescription) async throws {
        guard let publication = server.publishLocally(at: path) else {
            throw LiveDestinationError.refused(destination: url, reason: "the path \(path) is taken")
        }
        let audio = stream.audio?.codec == .aac ? stream.audio : nil
        state.withLock { state in
            state.publication = publication
            state.omittedAudio = audio == nil ? stream.audio?.codec : nil
        }
        var metadata: AMF0Object = ["duration": 0]
        if let video = stream.video {
            metadata.properties.append(AMF0Property(key: "width", value: .number(Double(video.width))))
            metadata.properties.append(AMF0Property(key: "height", value: .number(Double(video.height))))
            if stream.frameRate > 0 { metadata.properties.append(AMF0Property(key: "framerate", value: .number(stream.frameRate))) }
        }
        let script = try FLVScriptData(name: "onMetaData", values: [.ecmaArray(metadata)]).bytes()
        publication.send(RTMPMessage(type: .dataAMF0, streamID: 1, timestamp: 0, payload: ByteView(script)))
        if let video = stream.video {
            let body = try FLVVideoTagBody(sequenceStartFor: video).bytes()
            publication.send(RTMPMessage(type: .video, streamID: 1, timestamp: 0, payload: ByteView(body)))
        }
        if let audio {
            let body = try FLVAudioTagBody(sequenceHeaderFor: audio).bytes()
            publication.send(RTMPMessage(type: .audio, streamID: 1, timestamp: 0, payload: ByteView(body)))
        }
    }

    /// Hands a frame to every player (never waits).
    /// - Parameter media: the frame.
    /// - Throws: ``LiveDestinationError/notOpen(destination:)`` before ``open(_:)``; `FLVError` when a frame does
    ///   not fit an FLV tag body.
    public func send(_ media: OutgoingMedia) async throws {
        let (publication, omittedAudio) = state.withLock { ($0.publication, $0.omittedAudio) }
        guard let publication else { throw LiveDestinationError.notOpen(destination: url) }
        switch media {
        case let .video(frame, _):
            let body = try FLVVideoTagBody(codedFrame: frame).bytes()
            publication.send(RTMPMessage(type: .video, streamID: 1, timestamp: Self.milliseconds(frame.dts), payload: ByteView(body)))
        case let .audio(frame, _):
            guard omittedAudio == nil else { return }
            let body = try FLVAudioTagBody(frame: frame).bytes()
            publication.send(RTMPMessage(type: .audio, streamID: 1, timestamp: Self.milliseconds(frame.pts), payload: ByteView(body)))
        }
    }

    /// How long ``finish()`` waits for players to read the end of the stream and leave before it closes their
    /// connections.
    public static let playerGrace: Duration = .seconds(2)

    /// Ends the stream for every player — each is told (`onStatus` `NetStream.Play.UnpublishNotify` and Stream EOF,
    /// Adobe RTMP 1.0 §7.1.7) and has up to ``playerGrace`` to read it and leave, as ffmpeg does, so that it ends
    /// cleanly instead of on a closed connection — then stops the server.
    public func finish() async throws {
        let publication = state.withLock { $0.isStopped ? nil : $0.publication }
        if let publication {
            publication.finish()
            await server.waitUntilNoConnections(atMost: Self.playerGrace)
        }
        stop()
    }

    /// Stops the server now (also when the stream never started).
    public func stop() {
        let publication = state.withLock { state -> RTMPLocalPublication?? in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            return .some(state.publication)
        }
        guard let publication else { return }
        publication?.finish()
        server.stop()
        loop.shutdown()
    }

    /// RTMP's 32-bit millisecond timestamp of a media time.
    private static func milliseconds(_ time: MediaTime) -> UInt32 {
        guard time.timescale > 0 else { return 0 }
        return UInt32(truncatingIfNeeded: max(0, time.value) * 1000 / Int64(time.timescale))
    }
}
