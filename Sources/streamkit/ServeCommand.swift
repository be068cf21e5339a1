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
///
/// INPUT `whip` serves what a WHIP publisher (RFC 9725: FFmpeg's `-f whip`, OBS, a browser) sends instead of
/// something encoded here: it POSTs to `http://HOST:N/PATH/whip` on `--http-port`, next to `/PATH/whep` and
/// `/PATH/index.m3u8` — MediaMTX's URLs for one path — and its H.264 and Opus go out to every player as they came, no
/// encoder in between. The word names how the stream arrives, as `camera` and `testsrc` do, rather than a URL: the
/// host, port and path are serve's own (`--address`, `--http-port`, `--path`), so a URL would only repeat them or
/// contradict them. `--bearer-token` makes the publisher present a token, as `receive --listen http://…` does. One
/// publisher at a time (a second gets `503`); when it leaves the server goes on and the next publisher takes the path.
struct ServeCommand {
    /// `[INPUT]`.
    static let input = PositionalSpec("INPUT", help: "camera (the default), a .y4m/.yuv/.wav file (looped), testsrc, sine, or whip: a WHIP publisher at http://HOST:N/PATH/whip (--http-port)",
                                      optional: true)
    /// `--bearer-token TOKEN`.
    static let bearerToken = OptionSpec("--bearer-token", value: "TOKEN", help: "with whip: the bearer token the publisher must present (else 401)",
                                        parse: OptionValueParsers.text)
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
            port, path, address, rtmpPort, srtPort, httpPort, segmentFormat, segmentDuration, playlistSize, record, publish, user, password, bearerToken,
            CommonOptions.frames.documentingDefault("endless"), NetworkOptions.duration, NetworkOptions.mtu,
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate,
        ],
        notes: ["Ctrl-C stops the server. A .y4m, .yuv or .wav input starts again at its end.",
                "--rtmp-port: RTMP players get the same stream at rtmp://HOST:N/live/PATH (PATH as given when it has a '/').",
                "--srt-port: SRT callers get it as MPEG-TS (ffplay srt://HOST:N), each from the next key frame.",
                "--http-port: HLS players (ffplay, Safari, hls.js pages of any origin) read http://HOST:N/PATH/index.m3u8, a live window held in memory.",
                "whip: publishers POST to http://HOST:N/PATH/whip (needs --http-port), one at a time; the video goes out as it came, the Opus audio to RTSP, HLS, WHEP, SRT and .mp4 (RTMP gets the video alone).",
                "--record: the file gets every picture served, from the first key frame; --publish: an RTMP server gets it too."])

    /// The input encoded here; `nil` for `whip`.
    let launch: LiveLaunch?
    /// With `whip`: the bearer token the publisher must present, if any.
    let bearerTokenValue: String?
    /// The most pictures (`--frames`).
    let frameLimit: Int?
    /// The longest run in seconds (`--duration`).
    let seconds: Double?
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
        let word = parsed.optionalArgument(Self.input) ?? "camera"
        frameLimit = parsed.given(CommonOptions.frames)
        seconds = parsed.given(NetworkOptions.duration)
        bearerTokenValue = parsed.given(Self.bearerToken)
        if word.lowercased() == "whip" {
            guard parsed.given(Self.httpPort) != nil else { throw .conflict("whip takes its publisher on the HTTP port: give --http-port") }
            let encoding: [any OptionDeclaring] = [EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate,
                                                   EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads, EncodingOptions.gop,
                                                   EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
                                                   EncodingOptions.audioBitRate]
            if let name = parsed.firstGiven(among: encoding) {
                throw .conflict("\(name) sets the encoder, and whip has none: the publisher's stream is served as it came")
            }
            launch = nil
        } else {
            if bearerTokenValue != nil { throw .conflict("--bearer-token applies to a whip input") }
            let input = try LiveInput(parsing: word)
            var launch = LiveLaunch(input: input, options: try EncodingOptions(parsed))
            launch.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
            launch.frameLimit = frameLimit
            launch.seconds = seconds
            launch.loops = input.isFile
            self.launch = launch
        }
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
        var ingest: WHIPSource?
        defer {
            for server in servers { server.stop() }
            httpService?.stop()
        }
        do {
            if let httpPortNumber {
                httpService = try LiveHTTPService(address: SocketAddress(host: listenAddress.host, port: UInt16(httpPortNumber)))
            }
            let pipeline: LivePipeline
            if let launch {
                pipeline = try launch.makePipeline()
            } else {
                guard let service = httpService else { return 1 }
                let source = try makeIngest(on: service.server)
                ingest = source
                pipeline = LivePipeline(source: source, frameLimit: frameLimit)
            }
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
                printError("serving \(rtmp.url)" + (ingest == nil ? "" : " (the video alone: classic RTMP carries no Opus)"))
            }
            if let srtPortNumber {
                let host = listenAddress.host.contains(":") ? "[\(listenAddress.host)]" : listenAddress.host
                let srt = try SRTDestination(url: "srt://\(host):\(srtPortNumber)?mode=listener")
                pipeline.add(srt)
                printError("serving srt://\(host):\(srtPortNumber)")
            }
            if let service = httpService {
                let hls = try HLSHTTPDestination(server: service.server, path: streamPath, options: hlsOptions)
                pipeline.add(hls)
                printError("serving \(hls.url)")
                if let whep = try makeWHEP(on: service.server) {
                    pipeline.add(whep)
                    whepDestination = whep
                    printError("serving WebRTC players: POST an offer to \(whep.name.dropFirst("whep ".count)) (WHEP)")
                } else {
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
            if let ingest { printError("taking a WHIP publisher at \(ingest.url)" + (bearerTokenValue == nil ? "" : " (bearer token)")) }
            let watcher = ingest.map { source in Task { await Self.announcePublishers(of: source) } }
            let report = try await LiveLaunch.run(pipeline, label: "serve", seconds: seconds)
            watcher?.cancel()
            if let statistics = ingest?.receiverStatistics {
                for (kind, track) in statistics.tracks.sorted(by: { $0.key > $1.key }) {
                    printError("whip \(kind) (last publisher): \(track.framesGood) frames good, \(track.framesLost) lost, \(track.framesWithheld) withheld; "
                        + "\(track.packets.recovered) packets recovered of \(track.packets.requested) asked for")
                }
            }
            for server in servers {
                if let codec = server.omittedAudioCodec { printError("\(server.url) players got the video alone: RTMP carries AAC, not \(codec)") }
            }
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

    /// The WHEP endpoint at `/PATH/whep` on the HTTP service (a function of its own: Swift 6.3's SIL ownership check
    /// crashes on a typed `catch` pattern inside ``run()``).
    /// - Parameter server: the HTTP service's server.
    /// - Returns: the destination, or `nil` in a build without DTLS.
    /// - Throws: why the certificate or the endpoint could not be made.
    private func makeWHEP(on server: HTTPServer) throws -> WHEPDestination? {
        do {
            return try WHEPDestination(server: server, path: streamPath)
        } catch .unavailable {
            return nil
        }
    }

    /// The ingest of `serve whip`: a WHIP endpoint at `/PATH/whip` on the HTTP service, taking one publisher after another.
    /// - Parameter server: the HTTP service's server.
    /// - Returns: the source.
    /// - Throws: ``CommandLineError`` when DTLS is missing from the build or the certificate cannot be made.
    private func makeIngest(on server: HTTPServer) throws(CommandLineError) -> WHIPSource {
        do {
            return try WHIPSource(server: server, path: "/\(streamPath)/whip", token: bearerTokenValue, lifetime: .untilStopped)
        } catch {
            switch error {
            case .unavailable: throw .conflict("whip needs DTLS, from a build with --traits OpenSSL")
            default: throw .conflict("whip: \(error)")
            }
        }
    }

    /// Prints each WHIP publisher as it arrives, and its leaving, until cancelled.
    /// - Parameter source: the ingest.
    private static func announcePublishers(of source: WHIPSource) async {
        for await event in source.publisherEvents {
            switch event {
            case let .arrived(number):
                printError("serve: WHIP publisher \(number) arrived")
            case let .left(number, reason):
                printError("serve: WHIP publisher \(number) left (\(reason)); waiting for the next at \(source.url)")
            }
        }
    }
}
