import Foundation
import Live
import MediaCore
import POSIX
import RTP
import Transport

/// `streamkit serve [INPUT]`: an RTSP server (as an IP camera is) fed by one shared encoder — every client
/// that plays `rtsp://HOST:PORT/PATH` gets the same packets, over UDP or interleaved TCP. INPUT defaults to the
/// camera with the microphone; a file input loops. `--user`/`--password` demand Digest authentication.
struct ServeCommand {
    /// `[INPUT]`.
    static let input = PositionalSpec("INPUT", help: "camera (the default), a .y4m/.yuv/.wav file (looped), testsrc or sine", optional: true)
    /// `--port N`.
    static let port = OptionSpec("--port", value: "N", help: "the RTSP port", default: 8554,
                                 parse: OptionValueParsers.wholeNumber(in: 1...65_535))
    /// `--path PATH`.
    static let path = OptionSpec("--path", value: "PATH", help: "the stream's path: rtsp://HOST:PORT/PATH", default: "live",
                                 parse: OptionValueParsers.text)
    /// `--address HOST`.
    static let address = OptionSpec("--address", value: "HOST", help: "the address to listen on", default: "0.0.0.0",
                                    parse: OptionValueParsers.text)
    /// `--rtmp-port N`.
    static let rtmpPort = OptionSpec("--rtmp-port", value: "N", help: "also serve RTMP players on this port: rtmp://HOST:N/live/PATH",
                                     parse: OptionValueParsers.wholeNumber(in: 1...65_535))
    /// `--user U`.
    static let user = OptionSpec("--user", value: "U", help: "require Digest authentication with this user (with --password)",
                                 parse: OptionValueParsers.text)
    /// `--password P`.
    static let password = OptionSpec("--password", value: "P", help: "the password for --user", parse: OptionValueParsers.text)

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "serve", summary: "an RTSP server (UDP and TCP clients, Digest auth) fed by one shared encoder",
        positionals: [input],
        options: [
            port, path, address, rtmpPort, user, password,
            CommonOptions.frames.documentingDefault("endless"), NetworkOptions.duration, NetworkOptions.mtu,
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate,
        ],
        notes: ["Ctrl-C stops the server. A file input starts again at its end.",
                "--rtmp-port: RTMP players get the same stream at rtmp://HOST:N/live/PATH (PATH as given when it has a '/')."])

    let feed: MediaFeed
    let listenAddress: SocketAddress
    let streamPath: String
    let credentials: (user: String, password: String)?
    let maximumPacketSize: Int
    let rtmpPortNumber: Int?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `serve`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let input = try LiveInput(parsing: parsed.optionalArgument(Self.input) ?? "camera")
        var feed = MediaFeed(input: input, options: try EncodingOptions(parsed))
        feed.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        feed.frameLimit = parsed.given(CommonOptions.frames)
        feed.seconds = parsed.given(NetworkOptions.duration)
        feed.loops = input.isFile
        self.feed = feed
        let host = parsed.value(Self.address) ?? "0.0.0.0"
        let port = parsed.value(Self.port) ?? 8554
        do { listenAddress = try SocketAddress(host: host, port: UInt16(port)) } catch {
            throw .invalidValue(option: "--address", value: host, reason: "is not a numeric address")
        }
        streamPath = parsed.value(Self.path) ?? "live"
        switch (parsed.given(Self.user), parsed.given(Self.password)) {
        case let (user?, password?): credentials = (user, password)
        case (nil, nil): credentials = nil
        case (_?, nil): throw .conflict("--user needs --password")
        case (nil, _?): throw .conflict("--password needs --user")
        }
        maximumPacketSize = (parsed.value(NetworkOptions.mtu) ?? 1500) - 28
        rtmpPortNumber = parsed.given(Self.rtmpPort)
    }

    /// Serves until the limit or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        Interruption.install()
        do {
            return try await serve()
        } catch {
            printError("streamkit serve: \(error)")
            return 1
        }
    }

    private func serve() async throws -> Int32 {
        let audioSession = try feed.audioSession()
        let (items, continuation) = AsyncStream.makeStream(of: FeedItem.self, bufferingPolicy: .bufferingNewest(512))
        let feed = self.feed
        let wallClockStart = Date()
        let producer = Task { () -> Result<MediaFeed.Totals, any Error> in
            defer { continuation.finish() }
            do { return .success(try await feed.run(audio: audioSession) { continuation.yield($0) }) } catch { return .failure(error) }
        }
        var iterator = items.makeAsyncIterator()
        var held: [FeedItem] = []
        var videoFormat: FormatDescription?
        if feed.input.hasVideo {
            while let item = await iterator.next() {
                held.append(item)
                if case let .video(frame) = item {
                    videoFormat = frame.format
                    break
                }
                if held.count > 256 { held.removeFirst() }
            }
            guard videoFormat != nil else {
                if case let .failure(error) = await producer.value { throw error }
                throw CommandLineError.conflict("the input produced no picture")
            }
        }
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var configuration = RTSPServerConfiguration(address: listenAddress)
        if let credentials {
            configuration.authenticator = RTSPServerAuthenticator(user: credentials.user, password: credentials.password)
        }
        let server = try RTSPServer(configuration: configuration, on: loop)
        let description = try SessionDescription.live(video: videoFormat, audio: audioSession?.format, frameRate: Double(feed.options.fps),
                                                               host: "0.0.0.0", family: listenAddress.family, videoPort: 0, audioPort: 0,
                                                               controls: true)
        let stream = server.addStream(path: streamPath, sdp: description.text)
        server.start()
        printError("serving rtsp://\(listenAddress.host):\(listenAddress.port)/\(streamPath)"
            + (credentials == nil ? "" : " (Digest authentication)"))
        var rtmp: RTMPServeOutput?
        if let rtmpPortNumber {
            let output = try RTMPServeOutput(address: SocketAddress(host: listenAddress.host, port: UInt16(rtmpPortNumber)),
                                             path: streamPath.contains("/") ? streamPath : "live/\(streamPath)",
                                             videoFormat: videoFormat, audioFormat: audioSession?.format, on: loop)
            printError("serving \(output.url)")
            rtmp = output
        }
        defer { rtmp?.stop() }
        var sender = try RTPMediaSender(videoFormat: videoFormat, audioFormat: audioSession?.format, maximumPacketSize: maximumPacketSize,
                                        wallClockStart: wallClockStart)
        let output: RTPMediaSender.Output = { bytes, track, isControl in
            if isControl {
                stream.publishRTCP(bytes, track: track)
            } else {
                let timestamp = bytes.count >= 8 ? UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7]) : 0
                stream.publishRTP(bytes, track: track, timestamp: timestamp)
            }
        }
        var failure: (any Error)?
        do {
            for item in held {
                try rtmp?.send(item)
                try await sender.send(item, to: output)
            }
            while let item = await iterator.next() {
                try rtmp?.send(item)
                try await sender.send(item, to: output)
            }
        } catch {
            failure = error
            producer.cancel()
        }
        for (track, bytes) in (try? sender.goodbye()) ?? [] { try? await output(bytes, track, true) }
        server.stop()
        if case let .failure(error) = await producer.value, failure == nil { failure = error }
        if let failure { throw failure }
        printError("served rtsp://\(listenAddress.host):\(listenAddress.port)/\(streamPath): \(server.statistics)")
        return 0
    }
}
