import Foundation
import Live
import Transport

/// `streamkit receive http://HOST:PORT/PATH --listen -o OUT`: a WHIP ingest (RFC 9725) — one publisher (FFmpeg's
/// `-f whip`, OBS, a browser) POSTs its offer there and sends H.264 + Opus — a shell over the library's
/// ``WHIPSource`` and ``LivePipeline``, into `.mp4` (H.264 + Opus), Annex B or decoded `.y4m`.
struct WHIPReceive {
    /// The URL to listen at.
    let url: String
    /// The bearer token the publisher must present, if any.
    let token: String?
    let output: String
    let frameLimit: Int?
    let seconds: Double?
    let idleSeconds: Double

    /// Receives until the publisher leaves, the limit, silence, or Ctrl-C.
    /// - Returns: the exit status: 0 when something was recorded.
    /// - Throws: WHIP, file and pipeline errors.
    func run() async throws -> Int32 {
        let source = try WHIPSource(listeningAt: url, token: token)
        let pipeline = LivePipeline(source: source, frameLimit: frameLimit)
        var pictures: Y4MFileDestination?
        if (output as NSString).pathExtension.lowercased() == "y4m" {
            let decoded = Y4MFileDestination(path: output, registry: EngineSetup.registry())
            pictures = decoded
            pipeline.add(decoded, options: .recording())
        } else {
            pipeline.add(try LiveDestinations.destination(for: output), options: .recording())
        }
        printError("listening for a WHIP publisher at \(source.url)")
        // Silence counts only once the publisher's media flows.
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds) { pipeline.stop() }
        let listener = Task {
            var packets = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                let now = source.receiverStatistics?.tracks.values.reduce(0) { $0 + $1.packets.received } ?? 0
                if now != packets { watchdog.noteArrival() }
                packets = now
            }
        }
        defer {
            watchdog.cancel()
            listener.cancel()
        }
        let report = try await pipeline.run()
        if let statistics = source.receiverStatistics {
            for (kind, track) in statistics.tracks.sorted(by: { $0.key > $1.key }) {
                let packets = track.packets
                printError("\(kind): \(track.framesGood) frames good (\(track.keyFrames) key), \(track.framesLost) lost, \(track.framesWithheld) withheld; "
                           + "packets \(packets.received) received, \(packets.requested) asked for in \(track.nackPackets) NACKs, \(packets.recovered) recovered, "
                           + "\(packets.lost) lost, \(packets.reordered) reordered, \(packets.duplicates) duplicated; \(track.retransmissions) rtx; "
                           + "\(track.keyFrameRequests) PLIs")
            }
        }
        if let pictures { printError("decoded \(pictures.picturesWritten) pictures") }
        for destination in report.destinations {
            if let failure = destination.failure { throw CommandLineError.conflict("\(destination.name): \(failure)") }
            printError(destination.description)
        }
        let written = report.destinations.reduce(0) { $0 + $1.videoFramesSent + $1.audioFramesSent }
        return written > 0 ? 0 : 1
    }
}
