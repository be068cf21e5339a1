import Foundation
import Live
import Transport

/// `streamkit receive (SDP_FILE | rtsp://URL) -o OUT`: a shell over the library's ``RTPSource`` / ``RTSPSource`` and
/// ``LivePipeline`` — after a loss, frames are withheld until the next key frame, so nothing damaged is written — into
/// Annex B, ADTS, MP4 or decoded Y4M. It prints what became of every frame and packet. From `rtmp[s]://`
/// it plays a stream, and with `--listen` it is an RTMP ingest (see ``RTMPReceive``); `http://… --listen` is a WHIP
/// ingest (see ``WHIPReceive``).
struct ReceiveCommand {
    /// `SOURCE`.
    static let source = PositionalSpec("SOURCE", help: "an .sdp file, rtsp://[USER:PASSWORD@]HOST[:PORT]/PATH, rtmp[s]://HOST[:PORT]/APP/KEY, srt://HOST:PORT[?OPTIONS] or (with --listen) http://HOST:PORT/PATH")
    /// `--listen`.
    static let listen = OptionSpec(flag: "--listen", help: "rtmp://ADDRESS:PORT/APP/KEY: accept one publisher with that stream key; srt://ADDRESS:PORT: wait for one caller; http://ADDRESS:PORT/PATH: a WHIP endpoint for one publisher")
    /// `--bearer-token TOKEN`.
    static let token = OptionSpec("--bearer-token", value: "TOKEN", help: "WHIP: the bearer token the publisher must present (else 401)",
                                  parse: OptionValueParsers.text)
    /// `--audio-output FILE`.
    static let audioOutput = OptionSpec("--audio-output", value: "FILE", help: "RTMP: also write the AAC audio to this .aac file",
                                        parse: OptionValueParsers.text)
    /// `--ca-file FILE`.
    static let caFile = OptionSpec("--ca-file", value: "FILE", help: "rtmps:// and https:// (WHIP): trust the certificates in this PEM file (else the system's)",
                                   parse: OptionValueParsers.text)
    /// `--frames N`.
    static let frames = OptionSpec("--frames", value: "N", help: "stop after this many good frames",
                                   parse: OptionValueParsers.wholeNumber(in: 1...Int.max))
    /// `--idle SECONDS`.
    static let idle = OptionSpec("--idle", value: "SECONDS", help: "stop when nothing arrives for this long (after the first packet)",
                                 default: 3.0, shown: "3", parse: OptionValueParsers.seconds)

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "receive", summary: "RTP (.sdp, rtsp://), RTMP (rtmp[s]://) or SRT (srt://), --listen as an ingest → .h264/.h265/.aac/.mp4/.y4m/.flv/.ts",
        positionals: [source],
        options: [
            CommonOptions.output.required(), NetworkOptions.transport, frames, NetworkOptions.duration, idle,
            listen, audioOutput, caFile, token,
        ],
        notes: ["OUTPUT: .h264/.264, .h265/.hevc (the video as received), .aac (ADTS), .mp4 (video + audio, as received) or .y4m (decoded); .flv for RTMP; .ts and .flv for SRT.",
                "SRT: MPEG-TS over srt:// with FFmpeg's options (mode, latency in µs, passphrase, pbkeylen, streamid, tsbpd); built with --traits SRT.",
                "RTMP: a wrong stream key is refused; --listen records until the publisher leaves.",
                "WHIP (RFC 9725): http://HOST:PORT/PATH --listen takes one publisher's H.264 + Opus (FFmpeg -f whip, OBS, browsers) into .mp4, .h264 or .y4m; NACK and PLI repair losses; built with --traits OpenSSL.",
                "Prints frames good / lost / withheld, packets lost / reordered / duplicated, jitter, and the A/V offset."])

    let sourceWord: String
    let output: String
    let transport: RTSPLowerTransport
    let frameLimit: Int?
    let seconds: Double?
    let idleSeconds: Double
    let rtmp: RTMPReceive?
    let srt: SRTReceive?
    let whip: WHIPReceive?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `receive`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        sourceWord = try parsed.argument(Self.source)
        output = try parsed.required(CommonOptions.output)
        let lowered = sourceWord.lowercased()
        let isRTMP = lowered.hasPrefix("rtmp://") || lowered.hasPrefix("rtmps://")
        let isSRT = lowered.hasPrefix("srt://")
        let isWHIP = lowered.hasPrefix("http://")
        switch (output as NSString).pathExtension.lowercased() {
        case "h264", "264", "h265", "265", "hevc", "aac", "y4m": break
        case "mp4": break
        case "flv" where isRTMP || isSRT: break
        case "ts" where isSRT: break
        default: throw .invalidValue(option: "--output", value: output, reason: "does not end in .h264, .h265, .aac or .y4m"
                                        + (isRTMP ? ", .mp4 or .flv" : isSRT ? ", .mp4, .flv or .ts" : " or .mp4"))
        }
        whip = try Self.whipReceive(parsed, source: sourceWord, output: output, isWHIP: isWHIP)
        srt = try Self.srtReceive(parsed, source: sourceWord, output: output, isSRT: isSRT)
        rtmp = isSRT || isWHIP ? nil : try Self.rtmpReceive(parsed, source: sourceWord, output: output, isRTMP: isRTMP)
        let isRTSP = sourceWord.lowercased().hasPrefix("rtsp://")
        if !isRTSP, parsed.isGiven(NetworkOptions.transport) { throw .conflict("--transport is for rtsp:// sources; an SDP file names UDP ports") }
        transport = parsed.value(NetworkOptions.transport) ?? .udp
        frameLimit = parsed.given(Self.frames)
        seconds = parsed.given(NetworkOptions.duration)
        idleSeconds = parsed.value(Self.idle) ?? 3
    }

    /// The WHIP ingest, for an `http://` URL with `--listen`; refuses `--bearer-token` for the others.
    private static func whipReceive(_ parsed: ParsedOptions, source: String, output: String, isWHIP: Bool) throws(CommandLineError) -> WHIPReceive? {
        guard isWHIP else {
            if parsed.isGiven(token) { throw .conflict("--bearer-token is for a WHIP ingest (http://… --listen)") }
            return nil
        }
        guard parsed.value(listen) ?? false else { throw .conflict("http:// is a WHIP ingest: give --listen") }
        for (option, given) in [("--audio-output", parsed.isGiven(audioOutput)), ("--ca-file", parsed.isGiven(caFile)),
                                ("--transport", parsed.isGiven(NetworkOptions.transport))] where given {
            throw .conflict("\(option) is not for a WHIP ingest")
        }
        switch (output as NSString).pathExtension.lowercased() {
        case "mp4", "h264", "264", "y4m": break
        default: throw .invalidValue(option: "--output", value: output, reason: "a WHIP ingest writes .mp4, .h264 or .y4m")
        }
        do { _ = try HTTPURL(parsing: source) } catch { throw .invalidValue(option: "SOURCE", value: source, reason: "\(error)") }
        return WHIPReceive(url: source, token: parsed.given(token), output: output, frameLimit: parsed.given(frames),
                           seconds: parsed.given(NetworkOptions.duration), idleSeconds: parsed.value(idle) ?? 3)
    }

    /// The SRT source, for an `srt://` URL (`--listen` makes it a listener, as `mode=listener` does).
    private static func srtReceive(_ parsed: ParsedOptions, source: String, output: String, isSRT: Bool) throws(CommandLineError) -> SRTReceive? {
        guard isSRT else { return nil }
        for (option, given) in [("--audio-output", parsed.isGiven(audioOutput)), ("--ca-file", parsed.isGiven(caFile)),
                                ("--transport", parsed.isGiven(NetworkOptions.transport))] where given {
            throw .conflict("\(option) is not for srt:// sources")
        }
        var url = source
        if parsed.value(listen) ?? false { url += (url.contains("?") ? "&" : "?") + "mode=listener" }
        // Into a file, packets are handed on as they complete (tsbpd=0), so the stream's last ones are kept when the
        // sender closes within the latency, as FFmpeg's senders do; a URL that says otherwise wins.
        if !url.lowercased().contains("tsbpd=") { url += (url.contains("?") ? "&" : "?") + "tsbpd=0" }
        do { _ = try SRTURL(url) } catch { throw .invalidValue(option: "SOURCE", value: source, reason: error.description) }
        return SRTReceive(url: url, output: output, frameLimit: parsed.given(frames), seconds: parsed.given(NetworkOptions.duration),
                          idleSeconds: parsed.value(idle) ?? 3)
    }

    /// The RTMP options, for an `rtmp[s]://` source; refuses them for the others.
    private static func rtmpReceive(_ parsed: ParsedOptions, source: String, output: String,
                                    isRTMP: Bool) throws(CommandLineError) -> RTMPReceive? {
        guard isRTMP else {
            for (option, given) in [("--listen", parsed.isGiven(listen)), ("--audio-output", parsed.isGiven(audioOutput)),
                                    ("--ca-file", parsed.isGiven(caFile))] where given {
                throw .conflict("\(option) is for rtmp:// sources")
            }
            return nil
        }
        if parsed.isGiven(NetworkOptions.transport) { throw .conflict("--transport is for rtsp:// sources") }
        let url: RTMPURL
        do { url = try RTMPURL(parsing: source) } catch { throw .invalidValue(option: "SOURCE", value: source, reason: "\(error)") }
        guard !url.streamName.isEmpty else { throw .invalidValue(option: "SOURCE", value: source, reason: "names no stream key (rtmp://HOST/APP/KEY)") }
        let isListening = parsed.value(listen) ?? false
        if isListening, url.isSecure { throw .conflict("--listen takes rtmp:// (put a TLS terminator in front for rtmps://)") }
        let audio = parsed.given(audioOutput)
        if let audio, (audio as NSString).pathExtension.lowercased() != "aac" {
            throw .invalidValue(option: "--audio-output", value: audio, reason: "does not end in .aac")
        }
        return RTMPReceive(url: url, isListening: isListening, output: output, audioOutput: audio,
                           trust: parsed.given(caFile).map { .certificateFile($0) } ?? .systemRoots,
                           frameLimit: parsed.given(frames), seconds: parsed.given(NetworkOptions.duration),
                           idleSeconds: parsed.value(idle) ?? 3)
    }

    /// Receives until the limit, the end of the stream, silence, or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        Interruption.install()
        do {
            if let rtmp { return try await rtmp.run() }
            if let srt { return try await srt.run() }
            if let whip { return try await whip.run() }
            return try await receive()
        } catch {
            printError("streamkit receive: \(error)")
            return 1
        }
    }

    /// Receives RTP (an SDP file's ports or an RTSP server) through the library: a ``RTSPSource`` / ``RTPSource`` into
    /// one file destination of ``LivePipeline``, then the statistics as sentences.
    private func receive() async throws -> Int32 {
        let kind = (output as NSString).pathExtension.lowercased()
        let tracks: ReceivedTracks = kind == "aac" ? .audio : .all
        let source: any EncodedMediaSource
        let statistics: @Sendable () -> ReceivedStreamStatistics
        if sourceWord.lowercased().hasPrefix("rtsp://") {
            let rtsp = RTSPSource(url: sourceWord, transport: transport, tracks: tracks)
            (source, statistics) = (rtsp, { rtsp.statistics })
        } else {
            let rtp = RTPSource(sdpFile: sourceWord, tracks: tracks)
            (source, statistics) = (rtp, { rtp.statistics })
        }
        let destination: any LiveDestination
        var pictures: Y4MFileDestination?
        switch kind {
        case "aac": destination = ADTSFileDestination(path: output)
        case "y4m":
            let decoded = Y4MFileDestination(path: output, registry: EngineSetup.registry())
            (destination, pictures) = (decoded, decoded)
        case "mp4": destination = MP4FileDestination(path: output)
        default: destination = AnnexBFileDestination(path: output)
        }
        let pipeline = LivePipeline(source: source, frameLimit: frameLimit)
        pipeline.add(destination, options: .recording())
        printError("receiving \(sourceWord) into \(output)")
        // A watchdog ends the stream on the time limit, silence or Ctrl-C; it hears arrivals in the statistics.
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds, arrivals: { statistics().rtp?.datagramsParsed ?? 0 },
                                       stop: { pipeline.stop() })
        defer { watchdog.cancel() }
        let report = try await pipeline.run()
        let seen = statistics()
        for loss in seen.losses { printError(loss.description) }
        for line in seen.summaryLines {
            if line.hasPrefix("video frames:"), let pictures {
                printError(line + " (\(pictures.picturesWritten) pictures decoded)")
            } else {
                printError(line)
            }
        }
        if let failure = report.destinations.first?.failure { throw CommandLineError.conflict("\(output): \(failure)") }
        let good = kind == "aac" ? seen.audioFramesGood : seen.videoFramesGood
        return good > 0 ? 0 : 1
    }
}
