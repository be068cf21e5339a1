import Containers
import Foundation
import Live
import POSIX
import Transport

/// `streamkit serve [INPUT]`: an RTSP server (as an IP camera is) fed by one shared encoder — every client
/// that plays `rtsp://HOST:PORT/PATH` gets the same packets, over UDP or interleaved TCP; HLS players with `--http-port`
/// (`http://HOST:N/PATH/index.m3u8`, from memory) and WebRTC players (WHEP at `http://HOST:N/PATH/whep`) on the same
/// HTTP port; RTMP players too with
/// `--rtmp-port`, and a recording with `--record`. INPUT defaults to the camera with the microphone; a file input
/// loops. `--user`/`--password` demand Digest authentication.
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
    /// `--srt-port N`.
    static let srtPort = OptionSpec("--srt-port", value: "N", help: "also serve SRT pullers on this port: srt://HOST:N (MPEG-TS; --traits SRT)",
                                    parse: OptionValueParsers.wholeNumber(in: 1...65_535))
    /// `--http-port N`.
    static let httpPort = OptionSpec("--http-port", value: "N", help: "also serve HLS and WHEP over HTTP on this port: http://HOST:N/PATH/index.m3u8, /PATH/whep",
                                     parse: OptionValueParsers.wholeNumber(in: 1...65_535))
    /// `--segment-format fmp4|ts`.
    static let segmentFormat = OptionSpec("--segment-format", value: "fmp4|ts",
                                          help: "with --http-port: fragmented MP4 segments (init.mp4, .m4s) or MPEG-TS (.ts)",
                                          default: HLSSegmentFormat.fragmentedMP4, shown: "fmp4",
                                          parse: OptionValueParsers.choice(of: "segment format", [(["fmp4", "mp4", "cmaf"], HLSSegmentFormat.fragmentedMP4),
                                                                                                  (["ts", "mpegts"], HLSSegmentFormat.mpegTS)]))
    /// `--segment-duration SECONDS`.
    static let segmentDuration = OptionSpec("--segment-duration", value: "SECONDS",
                                            help: "with --http-port: the shortest HLS segment; each starts at a key frame",
                                            default: 2.0, shown: "2", parse: OptionValueParsers.seconds)
    /// `--playlist-size N`.
    static let playlistSize = OptionSpec("--playlist-size", value: "N", help: "with --http-port: the segments the live playlist lists",
                                         default: 6, parse: OptionValueParsers.wholeNumber(in: 1...10_000))
    /// `--user U`.
    static let user = OptionSpec("--user", value: "U", help: "require Digest authentication with this user (with --password)",
                                 parse: OptionValueParsers.text)
    /// `--record FILE`.
    static let record = OptionSpec("--record", value: "FILE", help: "also record what is served to this file (.mp4, .m3u8, .flv, .h264, .h265, .aac)",
                                   parse: OptionValueParsers.text)
    /// `--publish URL`.
    static let publish = OptionSpec("--publish", value: "URL", help: "also publish what is served to an RTMP server (rtmp[s]://HOST[:PORT]/APP/KEY)",
                                    parse: OptionValueParsers.text)
    /// `--password P`.
    static let password = OptionSpec("--password", value: "P", help: "the password for --user", parse: OptionValueParsers.text)

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "serve", summary: "an RTSP server (UDP and TCP clients, Digest auth) fed by one shared encoder, with RTMP, SRT, HLS and WebRTC (WHEP) players and a recording",
        positionals: [input],
        options: [
            port, path, address, rtmpPort, srtPort, httpPort, segmentFormat, segmentDuration, playlistSize, record, publish, user, password,
            CommonOptions.frames.documentingDefault("endless"), NetworkOptions.duration, NetworkOptions.mtu,
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate,
        ],
        notes: ["Ctrl-C stops the server. A .y4m, .yuv or .wav input starts again at its end.",
                "--rtmp-port: RTMP players get the same stream at rtmp://HOST:N/live/PATH (PATH as given when it has a '/').",
                "--srt-port: SRT callers get it as MPEG-TS (ffplay srt://HOST:N), each from the next key frame.",
                "--http-port: HLS players (ffplay, Safari, hls.js pages of any origin) read http://HOST:N/PATH/index.m3u8, a live window held in memory.",
                "--record: the file gets every picture served, from the first key frame; --publish: an RTMP server gets it too."])

    let launch: LiveLaunch
    let listenAddress: SocketAddress
    let streamPath: String
    let credentials: (user: String, password: String)?
    let maximumPacketSize: Int
    let rtmpPortNumber: Int?
    let srtPortNumber: Int?
    let httpPortNumber: Int?
    let hlsOptions: HLSHTTPDestination.Options
    let recordPath: String?
    let publishURL: String?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `serve`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let input = try LiveInput(parsing: parsed.optionalArgument(Self.input) ?? "camera")
        var launch = LiveLaunch(input: input, options: try EncodingOptions(parsed))
        launch.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        launch.frameLimit = parsed.given(CommonOptions.frames)
        launch.seconds = parsed.given(NetworkOptions.duration)
        launch.loops = input.isFile
        self.launch = launch
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
        srtPortNumber = parsed.given(Self.srtPort)
        httpPortNumber = parsed.given(Self.httpPort)
        if httpPortNumber == nil, let name = parsed.firstGiven(among: [Self.segmentFormat, Self.segmentDuration, Self.playlistSize]) {
            throw .conflict("\(name) applies to the HLS of --http-port")
        }
        hlsOptions = HLSHTTPDestination.Options(segmentFormat: parsed.value(Self.segmentFormat) ?? .fragmentedMP4,
                                                targetSegmentDuration: parsed.value(Self.segmentDuration) ?? 2,
                                                windowSize: parsed.value(Self.playlistSize) ?? 6)
        recordPath = parsed.given(Self.record)
        if let recordPath { try LiveLaunch.check([recordPath], option: "--record") }
        publishURL = parsed.given(Self.publish)
        if let publishURL {
            guard publishURL.lowercased().hasPrefix("rtmp://") || publishURL.lowercased().hasPrefix("rtmps://") else {
                throw .invalidValue(option: "--publish", value: publishURL, reason: "is not rtmp[s]://HOST[:PORT]/APP/KEY")
            }
            try LiveLaunch.check([publishURL], option: "--publish")
        }
    }

    /// Serves until the limit or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        var servers: [RTMPServerDestination] = []
        var httpService: LiveHTTPService?
        var whepDestination: WHEPDestination?
        defer {
            for server in servers { server.stop() }
            httpService?.stop()
        }
        do {
            let pipeline = try launch.makePipeline()
            var configuration = RTSPServerConfiguration(address: listenAddress)
            if let credentials {
                configuration.authenticator = RTSPServerAuthenticator(user: credentials.user, password: credentials.password)
            }
            let rtsp = try RTSPServerDestination(configuration: configuration, path: streamPath, maximumPacketSize: maximumPacketSize)
            pipeline.add(rtsp)
            printError("serving rtsp://\(listenAddress.host):\(rtsp.server.localAddress.port)/\(streamPath)"
                + (credentials == nil ? "" : " (Digest authentication)"))
            if let rtmpPortNumber {
                let rtmp = try RTMPServerDestination(address: SocketAddress(host: listenAddress.host, port: UInt16(rtmpPortNumber)),
                                                     path: streamPath.contains("/") ? streamPath : "live/\(streamPath)")
                servers.append(rtmp)
                pipeline.add(rtmp)
                printError("serving \(rtmp.url)")
            }
            if let srtPortNumber {
                let host = listenAddress.host.contains(":") ? "[\(listenAddress.host)]" : listenAddress.host
                let srt = try SRTDestination(url: "srt://\(host):\(srtPortNumber)?mode=listener")
                pipeline.add(srt)
                printError("serving srt://\(host):\(srtPortNumber)")
            }
            if let httpPortNumber {
                let service = try LiveHTTPService(address: SocketAddress(host: listenAddress.host, port: UInt16(httpPortNumber)))
                httpService = service
                let hls = try HLSHTTPDestination(server: service.server, path: streamPath, options: hlsOptions)
                pipeline.add(hls)
                printError("serving \(hls.url)")
                do {
                    let whep = try WHEPDestination(server: service.server, path: streamPath)
                    pipeline.add(whep)
                    whepDestination = whep
                    printError("serving WebRTC players: POST an offer to \(whep.name.dropFirst("whep ".count)) (WHEP)")
                } catch .unavailable {
                    printError("no WHEP: WebRTC needs DTLS, from a build with --traits OpenSSL")
                }
            }
            if let publishURL {
                pipeline.add(try LiveDestinations.destination(for: publishURL))
                printError("publishing to \(publishURL)")
            }
            if let recordPath {
                pipeline.add(try LiveDestinations.destination(for: recordPath), options: .recording())
                printError("recording to \(recordPath)")
            }
            let report = try await launch.run(pipeline, label: "serve")
            if let codec = whepDestination?.omittedAudioCodec {
                printError("WHEP viewers got the video alone: WebRTC carries Opus audio, not \(codec)")
            }
            printError("served \(rtsp.url): \(rtsp.server.statistics)")
            for destination in report.destinations {
                if let failure = destination.failure { printError("\(destination.name) failed: \(failure)") }
            }
            for destination in report.destinations.dropFirst() where destination.failure == nil {
                printError("\(destination.name): \(destination.videoFramesSent) pictures and \(destination.audioFramesSent) audio frames, "
                    + "\(destination.framesDropped) dropped")
            }
            return report.destinations.first?.failure == nil ? 0 : 1
        } catch {
            printError("streamkit serve: \(error)")
            return 1
        }
    }
}
