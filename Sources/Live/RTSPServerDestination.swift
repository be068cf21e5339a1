import Foundation
import MediaCore
import POSIX
import RTP
import Synchronization
import Transport

/// An RTSP server as a destination of a ``LivePipeline``, as an IP camera is one: players (ffmpeg, VLC,
/// GStreamer) connect to `rtsp://HOST:PORT/PATH` and each gets the stream over UDP or interleaved in its RTSP
/// connection. A client that stops reading is dropped alone; the encoder and the other clients never wait for it.
///
/// The server listens from the moment the destination is made (so ``url`` is known, port 0 included); the stream
/// appears at its path when the pipeline's first key frame is encoded. A key frame whose parameter sets differ from
/// the stream's (a source whose parameters change midway: the next publisher of a `serve whip`, another size or
/// profile) changes the SDP that DESCRIBE answers from then on, and the new SPS/PPS go in-band before that picture,
/// so players already playing go on decoding (RFC 6184 §8.4).
public final class RTSPServerDestination: LiveDestination {
    private struct State {
        var stream: RTSPLiveStream?
        var sender: RTPStreamSender?
        /// The formats the DESCRIBE's SDP describes now.
        var described: LiveStreamDescription?
    }

    /// The server (its statistics, its events).
    public let server: RTSPServer
    /// The stream's path, for example `live`.
    public let path: String
    /// The largest RTP packet.
    public let maximumPacketSize: Int
    /// `rtsp://HOST:PORT/PATH` with the address the server listens on.
    public var url: String {
        let address = server.localAddress
        let host = address.family == .ipv6 ? "[\(address.host)]" : address.host
        return "rtsp://\(host):\(address.port)/\(path)"
    }
    /// The URL.
    public var name: String { url }
    /// The server keeps its own per-client queues: it does not slow the encoder down.
    public var isLive: Bool { false }

    private let loop: EventLoop
    private let state = Mutex(State())

    /// Creates the server and starts listening.
    /// - Parameters:
    ///   - configuration: the address, ports, authentication and limits.
    ///   - path: the stream's path (default `live`).
    ///   - maximumPacketSize: the largest RTP packet (default 1472: a 1500-byte MTU less IP and UDP).
    /// - Throws: `TransportError` when the address cannot be bound.
    public init(configuration: RTSPServerConfiguration, path: String = "live", maximumPacketSize: Int = 1472) throws(TransportError) {
        let loop = try EventLoop()
        do {
            server = try RTSPServer(configuration: configuration, on: loop)
        } catch {
            loop.shutdown()
            throw error
        }
        self.loop = loop
        self.path = path
        self.maximumPacketSize = maximumPacketSize
        server.start()
    }

    /// Publishes the stream at its path with the SDP of its formats.
    /// - Parameter stream: the formats.
    /// - Throws: ``SDPError`` or ``RTPPacketizerError`` for a format RTP cannot carry.
    public func open(_ stream: LiveStreamDescription) async throws {
        let description = try sessionDescription(of: stream)
        let sender = try RTPStreamSender(video: stream.video, audio: stream.audio, maximumPacketSize: maximumPacketSize,
                                         wallClockStart: Date())
        let live = server.addStream(path: path, sdp: description.text)
        state.withLock { state in
            state.stream = live
            state.sender = sender
            state.described = stream
        }
    }

    /// The SDP of the stream's formats (RFC 6184 §8.2.1: `sprop-parameter-sets` and `profile-level-id` from them).
    private func sessionDescription(of stream: LiveStreamDescription) throws(SDPError) -> SessionDescription {
        let address = server.localAddress
        return try SessionDescription.live(video: stream.video, audio: stream.audio, frameRate: stream.frameRate,
                                           host: address.family == .ipv6 ? "::" : "0.0.0.0", family: address.family,
                                           videoPort: 0, audioPort: 0, controls: true)
    }

    /// The stream's formats with a key frame's, when its parameter sets differ from those described; else `nil`.
    private func changedFormats(by media: OutgoingMedia) -> LiveStreamDescription? {
        guard case let .video(frame, _) = media, frame.isKeyFrame, !frame.format.parameterSets.isEmpty else { return nil }
        return state.withLock { state -> LiveStreamDescription? in
            guard var described = state.described, let video = described.video, video.parameterSets != frame.format.parameterSets else { return nil }
            described.video = frame.format
            state.described = described
            return described
        }
    }

    /// Packetizes a frame and hands its packets to every playing client.
    /// - Parameter media: the frame.
    /// - Throws: an ``RTPPacketizerError`` or ``RTCPError``.
    public func send(_ media: OutgoingMedia) async throws {
        if let changed = changedFormats(by: media), let stream = state.withLock({ $0.stream }) {
            stream.updateSessionDescription(try sessionDescription(of: changed).text)
        }
        try state.withLock { state throws in
            guard let stream = state.stream else { return }
            try state.sender?.send(media, timedOutput: { packet, track, timestamp in
                if let timestamp {
                    stream.publishRTP(packet, track: track, timestamp: timestamp)
                } else {
                    stream.publishRTCP(packet, track: track)
                }
            })
        }
    }

    /// Says goodbye to the clients (RTCP BYE), removes the stream and stops the server.
    /// - Throws: an ``RTCPError``.
    public func finish() async throws {
        let (stream, sender) = state.withLock { state in
            defer { state = State() }
            return (state.stream, state.sender)
        }
        defer {
            server.stop()
            loop.shutdown()
        }
        guard let stream, let sender else { return }
        for (track, bytes) in try sender.goodbye() { stream.publishRTCP(bytes, track: track) }
        server.removeStream(path: path)
    }
}
