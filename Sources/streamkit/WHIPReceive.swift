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
        let recording = try ReceiveRecording(output, into: pipeline)
        // Silence counts only once the publisher's media flows: the source's count of frames arrived.
        let watchdog = ReceiveWatchdog(seconds: seconds, idleSeconds: idleSeconds, arrivals: { source.framesArrived }, stop: { pipeline.stop() })
        defer { watchdog.cancel() }
        printError("listening for a WHIP publisher at \(source.url)")
        let announcer = Task {
            for await event in source.publisherEvents {
                switch event {
                case let .arrived(number): printError("WHIP publisher \(number) arrived")
                case let .left(number, reason): printError("WHIP publisher \(number) left: \(reason)")
                }
            }
        }
        defer { announcer.cancel() }
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
        return try recording.conclude(report)
    }
}
