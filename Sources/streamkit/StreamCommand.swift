import Foundation
import Live
import Transport

/// `streamkit stream INPUT DESTINATION`: encodes a file, a generator or the camera with the microphone in
/// real time and sends it as RTP — to `rtp://HOST:PORT` (video on PORT, audio on PORT+2, RTCP on the next
/// ports; the SDP a receiver needs goes to `--sdp`), or to an RTSP server with ANNOUNCE/SETUP/RECORD. An `.flv`,
/// `.mp4` or Annex B input is not encoded again: its pictures and audio frames go out as they are, at their own pace.
/// The same as `publish` to one `rtp://` or `rtsp://` destination, with the options RTP needs.
struct StreamCommand {
    /// `INPUT`.
    static let input = PositionalSpec("INPUT", help: "camera, a .y4m/.yuv/.wav file, testsrc, sine, or an .flv/.mp4/Annex B file (sent as it is)")
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
            EncodingOptions.codec, EncodingOptions.size, EncodingOptions.fps, EncodingOptions.bitRate, EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads,
            EncodingOptions.gop, EncodingOptions.profile, EncodingOptions.bFrames, CommonOptions.engine, CommonOptions.pixelFormat,
            EncodingOptions.audioBitRate,
        ],
        notes: ["rtp://: video on PORT (RTCP PORT+1), audio on PORT+2 (RTCP PORT+3). Ctrl-C stops and sends RTCP BYE."])

    let launch: LiveLaunch
    let target: String
    let options: LiveDestinations.Options
    let savePath: String?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `stream`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        let word = try parsed.argument(Self.input)
        target = try parsed.argument(Self.destination)
        let lowered = target.lowercased()
        let isRTSP = lowered.hasPrefix("rtsp://")
        guard isRTSP || lowered.hasPrefix("rtp://") else {
            throw .invalidValue(option: "DESTINATION", value: target, reason: "is not rtp://HOST:PORT or rtsp://HOST:PORT/PATH")
        }
        try LiveLaunch.check([target], option: "DESTINATION")
        if isRTSP, parsed.isGiven(Self.sdp) { throw .conflict("--sdp is for rtp:// destinations; an RTSP server gets the SDP in ANNOUNCE") }
        if !isRTSP, parsed.isGiven(NetworkOptions.transport) { throw .conflict("--transport is for rtsp:// destinations") }
        let maximumPacketSize = (parsed.value(NetworkOptions.mtu) ?? 1500) - 28
        var options = LiveDestinations.Options(sdpPath: parsed.given(Self.sdp) ?? "stream.sdp", maximumPacketSize: maximumPacketSize)
        options.rtspPublish = RTSPPublishDestination.Options(transport: parsed.value(NetworkOptions.transport) ?? .udp,
                                                             maximumPacketSize: maximumPacketSize)
        self.options = options
        savePath = parsed.given(Self.save)
        let input = try LiveInput(parsing: word)
        if input.isEncoded {
            let encodingOnly: [any OptionDeclaring] = [EncodingOptions.codec, EncodingOptions.size, EncodingOptions.bitRate,
                                                       EncodingOptions.quantizer, EncodingOptions.preset, EncodingOptions.threads, EncodingOptions.gop, EncodingOptions.bFrames, Self.save]
            if let name = parsed.firstGiven(among: encodingOnly) { throw .conflict("\(name) is for inputs encoded here; \(word) is sent as it is") }
        }
        if case .y4m = input, parsed.isGiven(EncodingOptions.size) { throw .conflict("--size applies to raw .yuv input, testsrc and camera") }
        if savePath != nil, !input.hasVideo { throw .conflict("--save writes the video, and \(word) has none") }
        var launch = LiveLaunch(input: input, options: try EncodingOptions(parsed))
        launch.pixelFormat = parsed.value(CommonOptions.pixelFormat) ?? .i420
        launch.frameLimit = parsed.given(CommonOptions.frames)
        launch.seconds = parsed.given(NetworkOptions.duration)
        if input.isEncoded { launch.requestedPacing = .realTime }
        self.launch = launch
    }

    /// Streams until the input ends, the limit, or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        await launch.send(to: [target], options: options, savePath: savePath, label: "stream")
    }
}
