import Codecs
import Containers
import Foundation
import Live
import MediaCore
import POSIX
import RTP
import Transport

/// `streamkit stream INPUT DESTINATION`: encodes a file, a generator or the camera with the microphone in
/// real time and sends it as RTP — to `rtp://HOST:PORT` (video on PORT, audio on PORT+2, RTCP on the next
/// ports; the SDP a receiver needs goes to `--sdp`), or to an RTSP server with ANNOUNCE/SETUP/RECORD. An `.flv`
/// input is not encoded again: its pictures and audio frames go out as they are, at their own pace.
struct StreamCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "camera, a .y4m/.yuv/.wav file, testsrc, sine, or an .flv file (sent as it is)")
    /// `DESTINATION`.
    static let destination = PositionalSpec("DESTINATION", help: "rtp://HOST:PORT or rtsp://HOST:PORT/PATH")
    /// `--sdp FILE`.
    static let sdp = OptionSpec("--sdp", value: "FILE", help: "rtp://: where the SDP for receivers is written",
                                shown: "stream.sdp", parse: OptionValueParsers.text)
    /// `--save FILE`.
    static let save = OptionSpec("--save", value: "FILE", help: "also write the video sent to this Annex B file (.h264/.h265)",
                                 parse: OptionValueParsers.text)

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "stream", summary: "camera, a file or a generator → RTP (rtp:// with an SDP file) or an RTSP server (ANNOUNCE/RECORD)",
        positionals: [input, destination],
        options: [
            sdp, save, NetworkOptions.mtu, NetworkOptions.transport.documentingDefault("udp (rtsp:// only)"),
            CommonOptions.frames.documentingDefault("all; endless for camera, testsrc and sine"), NetworkOptions.duration,
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate,
        ],
        notes: ["rtp://: video on PORT (RTCP PORT+1), audio on PORT+2 (RTCP PORT+3). Ctrl-C stops and sends RTCP BYE."])

    /// What is sent: encoded here, or an FLV file's frames as they are.
    enum Source {
        /// Encoded here, in real time.
        case live(MediaFeed)
        /// An FLV file, sent as it is.
        case flv(String)
    }

    let source: Source
    let target: StreamDestination
    let sdpPath: String
    let maximumPacketSize: Int
    let transport: RTSPLowerTransport
    let savePath: String?
    /// The most pictures of an `.flv` input (`--frames`).
    let frameLimit: Int?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `stream`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let word = try parsed.argument(Self.input)
        target = try StreamDestination(parsing: try parsed.argument(Self.destination))
        if case .rtsp = target, parsed.isGiven(Self.sdp) { throw .conflict("--sdp is for rtp:// destinations; an RTSP server gets the SDP in ANNOUNCE") }
        if case .rtp = target, parsed.isGiven(NetworkOptions.transport) { throw .conflict("--transport is for rtsp:// destinations") }
        sdpPath = parsed.given(Self.sdp) ?? "stream.sdp"
        maximumPacketSize = (parsed.value(NetworkOptions.mtu) ?? 1500) - 28
        transport = parsed.value(NetworkOptions.transport) ?? .udp
        savePath = parsed.given(Self.save)
        frameLimit = parsed.given(CommonOptions.frames)
        if (word as NSString).pathExtension.lowercased() == "flv" {
            let encodingOnly: [any OptionDeclaring] = [EncodingOptions.codec, EncodingOptions.size, EncodingOptions.bitRate,
                                                       EncodingOptions.quantizer, EncodingOptions.gop, EncodingOptions.bFrames]
            if let name = parsed.firstGiven(among: encodingOnly) { throw .conflict("\(name) is for inputs encoded here; \(word) is sent as it is") }
            source = .flv(word)
            return
        }
        let input = try LiveInput(parsing: word)
        if case .y4m = input, parsed.isGiven(EncodingOptions.size) { throw .conflict("--size applies to raw .yuv input, testsrc and camera") }
        var feed = MediaFeed(input: input, options: try EncodingOptions(parsed))
        feed.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        feed.frameLimit = parsed.given(CommonOptions.frames)
        feed.seconds = parsed.given(NetworkOptions.duration)
        source = .live(feed)
        if savePath != nil, !input.hasVideo { throw .conflict("--save writes the video, and \(input) has none") }
    }

    /// Streams until the input ends, the limit, or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        Interruption.install()
        do {
            switch source {
            case let .live(feed): return try await stream(feed)
            case let .flv(path): return try await streamFLV(path)
            }
        } catch {
            printError("streamkit stream: \(error)")
            return 1
        }
    }

    private func stream(_ feed: MediaFeed) async throws -> Int32 {
        let audioSession = try feed.audioSession()
        let (items, continuation) = AsyncStream.makeStream(of: FeedItem.self, bufferingPolicy: .bufferingOldest(512))
        let wallClockStart = Date()
        let producer = Task { () -> Result<MediaFeed.Totals, any Error> in
            defer { continuation.finish() }
            do { return .success(try await feed.run(audio: audioSession) { continuation.yield($0) }) } catch { return .failure(error) }
        }
        // The SDP needs the video's parameter sets: hold the first audio frames until the first picture.
        var held: [FeedItem] = []
        var iterator = items.makeAsyncIterator()
        var videoFormat: FormatDescription?
        if feed.input.hasVideo {
            while let item = await iterator.next() {
                if case let .video(frame) = item {
                    videoFormat = frame.format
                    held.append(item)
                    break
                }
                if held.count < 256 { held.append(item) }
            }
            guard videoFormat != nil else {
                let outcome = await producer.value
                if case let .failure(error) = outcome { throw error }
                throw CommandLineError.conflict("the input produced no picture")
            }
        }
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let sender = try RTPMediaSender(videoFormat: videoFormat, audioFormat: audioSession?.format, maximumPacketSize: maximumPacketSize,
                                        wallClockStart: wallClockStart)
        let (output, finish) = try await openDestination(videoFormat: videoFormat, audioFormat: audioSession?.format,
                                                         fps: Double(feed.options.fps), loop: loop)
        var sending = sender
        var sent = (video: 0, audio: 0)
        var failure: (any Error)?
        var saved = try savePath.map { try AnnexBWriter(path: $0) }
        do {
            for item in held {
                try await sending.send(item, to: output)
                if case let .video(frame) = item { sent.video += 1; try saved?.write(frame) } else { sent.audio += 1 }
            }
            while let item = await iterator.next() {
                try await sending.send(item, to: output)
                if case let .video(frame) = item { sent.video += 1; try saved?.write(frame) } else { sent.audio += 1 }
            }
        } catch {
            failure = error
            producer.cancel()
        }
        do { try saved?.finish() } catch { failure = failure ?? error }
        for (track, bytes) in (try? sending.goodbye()) ?? [] { try? await output(bytes, track, true) }
        await finish()
        let outcome = await producer.value
        if case let .failure(error) = outcome, failure == nil { failure = error }
        if let failure { throw failure }
        printError("sent \(sent.video) video frames and \(sent.audio) audio frames")
        return 0
    }

    /// Opens the destination: the UDP socket and the SDP file, or the RTSP session.
    /// - Parameters:
    ///   - videoFormat: the video's format, if video is sent.
    ///   - audioFormat: the audio's format, if audio is sent.
    ///   - fps: the video's frame rate, for the SDP.
    ///   - loop: the event loop of the sockets.
    /// - Returns: where packets go, and what closes the destination.
    func openDestination(videoFormat: FormatDescription?, audioFormat: AudioFormatDescription?, fps: Double,
                         loop: EventLoop) async throws -> (RTPMediaSender.Output, @Sendable () async -> Void) {
        switch target {
        case let .rtp(host, port):
            let address = try SocketAddress(host: host == "localhost" ? "127.0.0.1" : host, port: port)
            let socket = try UDPSocket(bindingTo: .any(address.family, port: 0), on: loop)
            let audioPort = videoFormat == nil ? port : port + 2
            let description = try SessionDescription.live(video: videoFormat, audio: audioFormat, frameRate: fps,
                                                          host: address.host, family: address.family, videoPort: Int(port),
                                                          audioPort: Int(audioPort), controls: false)
            try description.text.write(toFile: sdpPath, atomically: true, encoding: .utf8)
            printError("SDP written to \(sdpPath); sending RTP to \(address.host):\(port)")
            let ports: [UInt16] = videoFormat == nil ? [port] : [port, audioPort]
            let output: RTPMediaSender.Output = { bytes, track, isControl in
                var destination = address
                destination.port = ports[track] + (isControl ? 1 : 0)
                try await socket.send(bytes, to: destination)
            }
            return (output, { socket.close() })
        case let .rtsp(url):
            let publisher = try await RTSPPublisher(url: url, on: loop)
            let description = try SessionDescription.live(video: videoFormat, audio: audioFormat, frameRate: fps,
                                                          host: "127.0.0.1", family: .ipv4, videoPort: 0, audioPort: 0, controls: true)
            try await publisher.announce(sdp: description.text)
            for (index, media) in description.media.enumerated() {
                _ = try await publisher.setup(control: media.attribute("control") ?? "trackID=\(index)", transport: transport)
            }
            try await publisher.record()
            printError("publishing to \(publisher.url) over \(transport)")
            let output: RTPMediaSender.Output = { bytes, track, isControl in
                try await publisher.send(bytes, track: track, isControl: isControl)
            }
            return (output, { await publisher.teardown() })
        }
    }
}
