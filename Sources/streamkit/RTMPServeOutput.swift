import Bitstream
import Containers
import MediaCore
import POSIX
import Transport

/// `serve --rtmp-port N`: the same live encode as the RTSP clients get, served to RTMP players
/// (`ffmpeg -i rtmp://HOST:N/live/PATH`) from an ``RTMPServer`` of our own — FLV tag bodies from the encoder's
/// frames, `onMetaData` and the sequence headers first (late players get them from the server).
final class RTMPServeOutput {
    private let server: RTMPServer
    private let publication: RTMPLocalPublication
    /// The `app/key` players ask for.
    let path: String
    private var sentHeaders = false
    private let videoFormat: FormatDescription?
    private let audioFormat: AudioFormatDescription?

    /// Starts the server: only `play` of `path` is allowed (nobody may publish to it).
    /// - Parameters:
    ///   - address: where to listen.
    ///   - path: `app/key`.
    ///   - videoFormat: the encoder's video format.
    ///   - audioFormat: the AAC format.
    ///   - loop: the event loop.
    /// - Throws: ``TransportError`` when the port is taken.
    init(address: SocketAddress, path: String, videoFormat: FormatDescription?, audioFormat: AudioFormatDescription?,
         on loop: EventLoop) throws {
        self.path = path
        self.videoFormat = videoFormat
        self.audioFormat = audioFormat
        let configuration = RTMPServerConfiguration(address: address) { $0.role == .play && $0.path == path }
        server = try RTMPServer(configuration: configuration, on: loop)
        guard let publication = server.publishLocally(at: path) else {
            throw CommandLineError.conflict("rtmp path \(path) is taken")
        }
        self.publication = publication
        server.start()
    }

    /// Where players connect.
    var url: String { "rtmp://\(server.localAddress)/\(path)" }

    /// Hands one encoded frame to every player (never waits; a player that falls behind is dropped).
    /// - Parameter item: a picture or an AAC frame.
    /// - Throws: ``FLVError`` when a frame does not fit an FLV tag body.
    func send(_ item: FeedItem) throws {
        if !sentHeaders { try sendHeaders() }
        switch item {
        case let .video(frame):
            let body = try FLVVideoTagBody(codedFrame: frame).bytes()
            publication.send(RTMPMessage(type: .video, streamID: 1, timestamp: Self.milliseconds(frame.dts), payload: ByteView(body)))
        case let .audio(frame):
            let body = try FLVAudioTagBody(frame: frame).bytes()
            publication.send(RTMPMessage(type: .audio, streamID: 1, timestamp: Self.milliseconds(frame.pts), payload: ByteView(body)))
        }
    }

    private func sendHeaders() throws {
        sentHeaders = true
        var metadata: AMF0Object = ["duration": 0]
        if let videoFormat {
            metadata.properties.append(AMF0Property(key: "width", value: .number(Double(videoFormat.width))))
            metadata.properties.append(AMF0Property(key: "height", value: .number(Double(videoFormat.height))))
            let body = try FLVVideoTagBody(sequenceStartFor: videoFormat).bytes()
            let script = try FLVScriptData(name: "onMetaData", values: [.ecmaArray(metadata)]).bytes()
            publication.send(RTMPMessage(type: .dataAMF0, streamID: 1, timestamp: 0, payload: ByteView(script)))
            publication.send(RTMPMessage(type: .video, streamID: 1, timestamp: 0, payload: ByteView(body)))
        }
        if let audioFormat {
            let body = try FLVAudioTagBody(sequenceHeaderFor: audioFormat).bytes()
            publication.send(RTMPMessage(type: .audio, streamID: 1, timestamp: 0, payload: ByteView(body)))
        }
    }

    private static func milliseconds(_ time: MediaTime) -> UInt32 {
        guard time.timescale > 0 else { return 0 }
        return UInt32(truncatingIfNeeded: max(0, time.value) * 1000 / Int64(time.timescale))
    }

    /// Ends the stream and closes every player.
    func stop() {
        publication.finish()
        server.stop()
    }
}
