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
        var pictures: Y4MFileDestination?
        if (output as NSString).pathExtension.lowercased() == "y4m" {
            let decoded = Y4MFileDestination(path: output, registry: EngineSetup.registry())
            pictures = decoded
            pipeline.add(decoded, options: .recording())
        } else {
            pipeline.add(try LiveDestinations.destination(for: output), options: .recording())
        }
        printError((try? SRTURL(url))?.options.mode == .listener ? "listening on \(source.name)" : "receiving \(source.name)")
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds) { pipeline.stop() }
        let listener = Task {
            var packets = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                let now = source.statistics?.packetsReceived ?? 0
                if now != packets { watchdog.noteArrival() }
                packets = now
            }
        }
        defer {
            watchdog.cancel()
            listener.cancel()
        }
        let statistics = source.statistics
        let report = try await pipeline.run()
        if let statistics = source.statistics ?? statistics { printError("SRT: \(statistics)") }
        for issue in await source.issues { printError("stream: \(issue)") }
        if source.droppedFrames > 0 { printError("\(source.droppedFrames) frames dropped: the pipeline fell behind") }
        if let pictures { printError("decoded \(pictures.picturesWritten) pictures") }
        for destination in report.destinations {
            if let failure = destination.failure { throw CommandLineError.conflict("\(destination.name): \(failure)") }
            printError(destination.description)
        }
        let written = report.destinations.reduce(0) { $0 + $1.videoFramesSent + $1.audioFramesSent }
        return written > 0 ? 0 : 1
    }
}
