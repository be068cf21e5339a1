import Bitstream
import Foundation
import MediaCore
import RTP
import Transport

/// `streamkit receive (SDP_FILE | rtsp://URL) -o OUT`: receives RTP (from the ports an SDP file names, or from
/// an RTSP server over UDP or TCP), rebuilds the access units through the jitter buffer and depacketizer —
/// after a loss, frames are withheld until the next key frame, so nothing damaged is written — and writes
/// them as Annex B, ADTS, or decoded Y4M. It prints what became of every frame and packet. From `rtmp[s]://`
/// it plays a stream, and with `--listen` it is an RTMP ingest (see ``RTMPReceive``).
struct ReceiveCommand {
    /// `SOURCE`.
    static let source = PositionalSpec("SOURCE", help: "an .sdp file, rtsp://[USER:PASSWORD@]HOST[:PORT]/PATH or rtmp[s]://HOST[:PORT]/APP/KEY")
    /// `--listen`.
    static let listen = OptionSpec(flag: "--listen", help: "rtmp://ADDRESS:PORT/APP/KEY: accept one publisher with that stream key")
    /// `--audio-output FILE`.
    static let audioOutput = OptionSpec("--audio-output", value: "FILE", help: "RTMP: also write the AAC audio to this .aac file",
                                        parse: OptionValueParsers.text)
    /// `--ca-file FILE`.
    static let caFile = OptionSpec("--ca-file", value: "FILE", help: "rtmps://: trust the certificates in this PEM file (else the system's)",
                                   parse: OptionValueParsers.text)
    /// `--frames N`.
    static let frames = OptionSpec("--frames", value: "N", help: "stop after this many good frames",
                                   parse: OptionValueParsers.wholeNumber(in: 1...Int.max))
    /// `--idle SECONDS`.
    static let idle = OptionSpec("--idle", value: "SECONDS", help: "stop when nothing arrives for this long (after the first packet)",
                                 default: 3.0, shown: "3", parse: OptionValueParsers.seconds)

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "receive", summary: "RTP (.sdp, rtsp://) or RTMP (rtmp[s]://, --listen as an ingest) → .h264/.h265/.aac/.y4m/.flv",
        positionals: [source],
        options: [
            CommonOptions.output.required(), NetworkOptions.transport, frames, NetworkOptions.duration, idle,
            listen, audioOutput, caFile,
        ],
        notes: ["OUTPUT: .h264/.264, .h265/.hevc (the video as received), .aac (ADTS) or .y4m (decoded); .flv for RTMP.",
                "RTMP: a wrong stream key is refused; --listen records until the publisher leaves.",
                "Prints frames good / lost / withheld, packets lost / reordered / duplicated, jitter, and the A/V offset."])

    let sourceWord: String
    let output: String
    let transport: RTSPLowerTransport
    let frameLimit: Int?
    let seconds: Double?
    let idleSeconds: Double
    let rtmp: RTMPReceive?

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `receive`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        sourceWord = try parsed.argument(Self.source)
        output = try parsed.required(CommonOptions.output)
        let lowered = sourceWord.lowercased()
        let isRTMP = lowered.hasPrefix("rtmp://") || lowered.hasPrefix("rtmps://")
        switch (output as NSString).pathExtension.lowercased() {
        case "h264", "264", "h265", "265", "hevc", "aac", "y4m": break
        case "flv" where isRTMP: break
        default: throw .invalidValue(option: "--output", value: output, reason: "does not end in .h264, .h265, .aac or .y4m"
                                        + (isRTMP ? " or .flv" : ""))
        }
        rtmp = try Self.rtmpReceive(parsed, source: sourceWord, output: output, isRTMP: isRTMP)
        let isRTSP = sourceWord.lowercased().hasPrefix("rtsp://")
        if !isRTSP, parsed.isGiven(NetworkOptions.transport) { throw .conflict("--transport is for rtsp:// sources; an SDP file names UDP ports") }
        transport = parsed.value(NetworkOptions.transport) ?? .udp
        frameLimit = parsed.given(Self.frames)
        seconds = parsed.given(NetworkOptions.duration)
        idleSeconds = parsed.value(Self.idle) ?? 3
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
            return try await receive()
        } catch {
            printError("streamkit receive: \(error)")
            return 1
        }
    }

    private func receive() async throws -> Int32 {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let source = sourceWord.lowercased().hasPrefix("rtsp://")
            ? try await ReceivedPacketSource(rtspURL: sourceWord, transport: transport, on: loop)
            : try ReceivedPacketSource(sdpFile: sourceWord, on: loop)
        var session = try ReceivingSession(description: source.description, wantsAudio: output.lowercased().hasSuffix(".aac"))
        printError("receiving \(session.summary)")
        let writer = try ReceivedMediaWriter(path: output, videoCodec: session.videoCodec, audioFormat: session.audioFormat,
                                             frameRate: session.frameRate)
        let wanted = output.lowercased()
        if let codec = session.videoCodec, !wanted.hasSuffix(".y4m"), !wanted.hasSuffix(".aac") {
            let isHEVC = wanted.hasSuffix(".h265") || wanted.hasSuffix(".265") || wanted.hasSuffix(".hevc")
            if isHEVC != (codec == .hevc) { throw CommandLineError.conflict("the stream's video is \(codec.rawValue), not what \(output) holds") }
        }
        // A watchdog ends the packet stream on the time limit, silence or Ctrl-C.
        // A watchdog ends the packet stream on the time limit, silence or Ctrl-C.
        let started = ContinuousClock.now
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds) { await source.stop() }
        var failure: (any Error)?
        let ownSSRC = UInt32.random(in: 1...UInt32.max)
        var lastReport = Duration.zero
        for await packet in source.packets {
            watchdog.noteArrival()
            let arrival = ContinuousClock.now - started
            do {
                let done = try await session.take(packet, arrival: arrival, writer: writer, frameLimit: frameLimit)
                if done { break }
            } catch {
                failure = error
                break
            }
            // RFC 3550 §6.2: receiver reports about once a second, where the sender's RTCP address is known.
            if let sendRTCP = source.sendRTCP, arrival - lastReport >= .seconds(1) {
                lastReport = arrival
                for report in session.receiverReports(at: arrival, ssrc: ownSSRC) { await sendRTCP(report.bytes, report.track) }
            }
        }
        watchdog.cancel()
        await source.stop()
        try await session.finish(writer: writer)
        let pictures = try await writer.finish()
        for line in session.report(pictures: pictures) { printError(line) }
        if let failure { throw failure }
        return session.goodFrames > 0 ? 0 : 1
    }
}
