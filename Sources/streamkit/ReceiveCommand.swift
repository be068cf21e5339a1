import Bitstream
import Foundation
import MediaCore
import RTP
import Synchronization
import Transport

/// `streamkit receive (SDP_FILE | rtsp://URL) -o OUT`: receives RTP (from the ports an SDP file names, or from
/// an RTSP server over UDP or TCP), rebuilds the access units through the jitter buffer and depacketizer —
/// after a loss, frames are withheld until the next key frame, so nothing damaged is written — and writes
/// them as Annex B, ADTS, or decoded Y4M. It prints what became of every frame and packet.
struct ReceiveCommand {
    /// `SOURCE`.
    static let source = PositionalSpec("SOURCE", help: "an .sdp file or rtsp://[USER:PASSWORD@]HOST[:PORT]/PATH")
    /// `--frames N`.
    static let frames = OptionSpec("--frames", value: "N", help: "stop after this many good frames",
                                   parse: OptionValueParsers.wholeNumber(in: 1...Int.max))
    /// `--idle SECONDS`.
    static let idle = OptionSpec("--idle", value: "SECONDS", help: "stop when nothing arrives for this long (after the first packet)",
                                 default: 3.0, shown: "3", parse: OptionValueParsers.seconds)

    /// The command's arguments and options.
    static let table = OptionTable(
        command: "receive", summary: "RTP from an .sdp file or an RTSP server → .h264/.h265/.aac/.y4m, with loss reports",
        positionals: [source],
        options: [
            CommonOptions.output.required(), NetworkOptions.transport, frames, NetworkOptions.duration, idle,
        ],
        notes: ["OUTPUT: .h264/.264, .h265/.hevc (the video as received), .aac (ADTS) or .y4m (decoded).",
                "Prints frames good / lost / withheld, packets lost / reordered / duplicated, jitter, and the A/V offset."])

    let sourceWord: String
    let output: String
    let transport: RTSPLowerTransport
    let frameLimit: Int?
    let seconds: Double?
    let idleSeconds: Double

    /// Reads the command's arguments.
    /// - Parameter parsed: the words after `receive`, parsed with ``table``.
    /// - Throws: ``CommandLineError``.
    init(_ parsed: ParsedOptions) throws(CommandLineError) {
        sourceWord = try parsed.argument(Self.source)
        output = try parsed.required(CommonOptions.output)
        switch (output as NSString).pathExtension.lowercased() {
        case "h264", "264", "h265", "265", "hevc", "aac", "y4m": break
        default: throw .invalidValue(option: "--output", value: output, reason: "does not end in .h264, .h265, .aac or .y4m")
        }
        let isRTSP = sourceWord.lowercased().hasPrefix("rtsp://")
        if !isRTSP, parsed.isGiven(NetworkOptions.transport) { throw .conflict("--transport is for rtsp:// sources; an SDP file names UDP ports") }
        transport = parsed.value(NetworkOptions.transport) ?? .udp
        frameLimit = parsed.given(Self.frames)
        seconds = parsed.given(NetworkOptions.duration)
        idleSeconds = parsed.value(Self.idle) ?? 3
    }

    /// Receives until the limit, the end of the stream, silence, or Ctrl-C.
    /// - Returns: the exit status.
    func run() async -> Int32 {
        Interruption.install()
        do {
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
        let lastArrival = LockedInstant()
        let started = ContinuousClock.now
        let seconds = self.seconds, idle = idleSeconds
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                let now = ContinuousClock.now
                if Interruption.isRequested { break }
                if let seconds, now - started >= .seconds(seconds) { break }
                if let last = lastArrival.value, now - last >= .seconds(idle) { break }
            }
            await source.stop()
        }
        var failure: (any Error)?
        let ownSSRC = UInt32.random(in: 1...UInt32.max)
        var lastReport = Duration.zero
        for await packet in source.packets {
            lastArrival.value = .now
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

/// The time of the last packet, shared with the watchdog.
final class LockedInstant: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    /// The instant, once set.
    var value: ContinuousClock.Instant? {
        get { instant.withLock { $0 } }
        set { instant.withLock { $0 = newValue } }
    }
}
