import Foundation
import Live
import Transport

/// `streamkit publish INPUT DEST [DEST…]`: one encode (or an encoded file as it is) to several destinations at
/// once — RTMP servers, and files — adapting the encoder's bit rate to the slowest live link. A destination that
/// fails is named in the log and the others go on to the end.
struct PublishCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "camera, a .y4m/.yuv/.wav file, testsrc, sine, or an .flv/.mp4/.ts/Annex B file (sent as it is)")
    /// `DEST…`.
    static let destination = PositionalSpec("DEST", help: "rtmp[s]://HOST[:PORT]/APP/KEY, rtsp://HOST[:PORT]/PATH, rtp://HOST:PORT, srt://HOST:PORT[?OPTIONS], http(s)://HOST[:PORT]/PATH (a WHIP endpoint), or a file: .mp4 .m3u8 .flv .ts .h264 .h265 .aac", repeats: true)
    /// `--re`.
    static let realTime = OptionSpec(flag: "--re", help: "an .flv, .mp4, .ts or Annex B file: send it at its own pace (else as fast as the destinations take it)")
    /// `--save FILE`.
    static let save = OptionSpec("--save", value: "FILE", help: "also write the video to this Annex B file (.h264/.h265)",
                                 parse: OptionValueParsers.text)
    /// `--min-bitrate RATE`.
    static let minimumBitRate = OptionSpec("--min-bitrate", value: "RATE", help: "the lowest bit rate a slow link steps the encoder down to",
                                           shown: "an eighth of --bitrate", parse: OptionValueParsers.bitRate)
    /// `--max-delay SECONDS`.
    static let maximumDelay = OptionSpec("--max-delay", value: "SECONDS",
                                         help: "the most media queued for a slow link before frames are dropped", default: 2.0, shown: "2",
                                         parse: OptionValueParsers.seconds)

    /// `--bearer-token TOKEN`.
    static let bearerToken = OptionSpec("--bearer-token", value: "TOKEN", help: "the WHIP endpoint's bearer token (Authorization: Bearer, RFC 9725 §4.5)",
                                        parse: OptionValueParsers.text)

    /// The options that only mean something for an input encoded here.
    static let encodingOnly: [any OptionDeclaring] = [EncodingOptions.codec, EncodingOptions.size, EncodingOptions.bitRate, EncodingOptions.gop,
                                                      EncodingOptions.bFrames, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads, minimumBitRate]

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "publish", summary: "camera, a file or a generator → RTMP/RTSP/SRT servers, RTP and files at once (H.264, H.265, AAC), adapting to the link",
        positionals: [input, destination],
        options: [
            realTime, save, minimumBitRate, maximumDelay, ReceiveCommand.caFile,
            CommonOptions.frames.documentingDefault("all; endless for camera, testsrc and sine"), NetworkOptions.duration,
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate, EncodingOptions.audioCodec, bearerToken,
        ],
        notes: ["One encoder feeds every destination; each has its own queue, so a slow or dead one never stalls the others.",
                "A slow link steps the bit rate down (and back up), drops whole frames nothing depends on, and reports each;",
                "a lost connection is retried with backoff. Ctrl-C sends what is queued, then closes every destination.",
                "An .flv, .mp4 or .ts input keeps its H.264/H.265 and AAC and their timestamps (B-frame composition times too).",
                "An Annex B input carries no time: frames go out at the SPS's frame rate (else 25 fps).",
                "A WHIP endpoint (http:// or https://, --ca-file for a private CA) takes H.264 and Opus over WebRTC: give --audio-codec opus (FFmpeg engine), or a video-only input."])

    let launch: LiveLaunch
    let destinations: [String]
    let savePath: String?
    let maximumDelay: Double
    /// The certificates an `rtmps://` server or an `https://` WHIP endpoint may present (`--ca-file`, else the system's).
    let tlsTrust: TLSTrust
    /// The WHIP endpoint's bearer token (`--bearer-token`).
    let bearerToken: String?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `publish`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let word = try parsed.argument(Self.input)
        destinations = try parsed.arguments(Self.destination)
        try LiveLaunch.check(destinations, option: "DEST")
        savePath = parsed.given(Self.save)
        maximumDelay = parsed.value(Self.maximumDelay) ?? 2
        tlsTrust = parsed.given(ReceiveCommand.caFile).map { .certificateFile($0) } ?? .systemRoots
        bearerToken = parsed.given(Self.bearerToken)
        let input = try LiveInput(parsing: word)
        if input.isEncoded {
            if let name = parsed.firstGiven(among: Self.encodingOnly + [Self.save]) {
                throw .conflict("\(name) is for inputs encoded here; \(word) is sent as it is")
            }
        } else if parsed.isGiven(Self.realTime) {
            throw .conflict("--re is for .flv, .mp4, .ts and Annex B files; \(word) is encoded in real time anyway")
        }
        if case .y4m = input, parsed.isGiven(EncodingOptions.size) { throw .conflict("--size applies to raw .yuv input, testsrc and camera") }
        if savePath != nil, !input.hasVideo { throw .conflict("--save writes the video, and \(word) has none") }
        var launch = LiveLaunch(input: input, options: try EncodingOptions(parsed))
        launch.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        launch.frameLimit = parsed.given(CommonOptions.frames)
        launch.seconds = parsed.given(NetworkOptions.duration)
        if input.isEncoded { launch.requestedPacing = parsed.isGiven(Self.realTime) ? .realTime : .asFastAsPossible }
        launch.minimumBitRate = parsed.given(Self.minimumBitRate)
        self.launch = launch
    }

    /// Publishes until the input ends, the limit, or Ctrl-C.
    /// - Returns: the exit status: 0 when at least one destination got the stream to the end.
    func run() async -> Int32 {
        var options = LiveDestinations.Options()
        options.rtmp = RTMPDestination.Options(maximumDelay: maximumDelay, minimumBitRate: launch.minimumBitRate, tlsTrust: tlsTrust)
        options.whip.bearerToken = bearerToken
        options.whip.tlsTrust = tlsTrust
        return await launch.send(to: destinations, options: options, savePath: savePath, label: "publish")
    }
}
