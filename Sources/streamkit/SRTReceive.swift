import Foundation
import Live
import Transport

/// `streamkit receive srt://HOST:PORT -o OUT` (pull from an SRT listener) and `streamkit receive srt://:PORT --listen
/// -o OUT` (an ingest: one publisher — ffmpeg, OBS, srt-live-transmit — calls in): a shell over the library's
/// ``SRTSource`` and ``LivePipeline``, into `.ts`, `.mp4`, `.flv`, Annex B, `.aac` or decoded `.y4m`.
struct SRTReceive {
    /// The URL, `mode=listener` added for `--listen`.
    let url: String
    let output: String
    let frameLimit: Int?
    let seconds: Double?
    let idleSeconds: Double

    /// Receives until the peer closes, the limit, silence, or Ctrl-C.
    /// - Returns: the exit status: 0 when something was recorded.
    /// - Throws: SRT, TS and file errors.
    func run() async throws -> Int32 {
        let source = SRTSource(url: url)
        let pipeline = LivePipeline(source: source, frameLimit: frameLimit)
        let recording = try ReceiveRecording(output, into: pipeline)
        printError((try? SRTURL(url))?.options.mode == .listener ? "listening on \(source.name)" : "receiving \(source.name)")
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds, arrivals: { source.statistics?.packetsReceived ?? 0 },
                                       stop: { pipeline.stop() })
        defer { watchdog.cancel() }
        let statistics = source.statistics
        let report = try await pipeline.run()
        if let statistics = source.statistics ?? statistics { printError("SRT: \(statistics)") }
        for issue in await source.issues { printError("stream: \(issue)") }
        if source.droppedFrames > 0 { printError("\(source.droppedFrames) frames dropped: the pipeline fell behind") }
        return try recording.conclude(report)
    }
}
