#if FFmpeg
import Foundation
import Testing
import TestSupport

/// `streamkit publish camera` through a throttled TCP relay into nginx-rtmp, which records the stream: the
/// bitrate steps down while the link is capped below the stream's rate, drops are reported, the cap lifted
/// brings the bitrate back, a killed and restarted relay is reconnected through, and what nginx recorded still
/// decodes with `-err_detect explode`. Its ports are its own (``TestPorts``).
/// The rates it compares are measured over seconds of a live camera encoded in real time: it runs alone
/// (``RealTimeSuites``).
@Suite("publish through a throttled relay → nginx-rtmp", .serialized, .runsAlone, .enabled(if: ExternalTool.isRunnable("nginx", "ffmpeg", "ffprobe", "python3")))
struct AdaptationProofTests {
    @Test("Bitrate down on a slow link, up when it recovers; reconnects after the relay dies; the recording decodes")
    func adaptsAndReconnects() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let server = try await NginxRTMP(port: port, in: directory, records: true)
        defer { Task { await server.stop() } }
        var relay = try await ThrottledRelay(port: port + 1, to: port, bytesPerSecond: 15_000, in: directory)
        let capped = relay
        defer { Task { await capped.kill() } }
        let publisher = try Streamkit.start(["publish", "camera", "rtmp://127.0.0.1:\(port + 1)/live/adapt", "--size", "640x360",
                                             "--bitrate", "1000k", "--min-bitrate", "60k", "--max-delay", "0.6", "--gop", "30"],
                                            logsIn: directory)
        defer { Task { await publisher.stop() } }
        try await Task.sleep(for: .seconds(9))
        let whileCapped = publisher.standardError
        try relay.cap(0)
        try await Task.sleep(for: .seconds(8))
        let afterLift = publisher.standardError
        await relay.kill()
        try await Task.sleep(for: .seconds(2))
        relay = try await ThrottledRelay(port: port + 1, to: port, bytesPerSecond: 0, in: directory)
        let restarted = relay
        defer { Task { await restarted.kill() } }
        try await Task.sleep(for: .seconds(8))
        await publisher.stop(grace: 15)
        await relay.kill()
        await capped.kill()
        let log = publisher.standardError
        let context = "\(publisher.logs)\n\(relay.logs)\n\(server.logs)"

        let changes = Self.bitRateChanges(in: whileCapped)
        #expect(changes.contains { $0.to < $0.from }, "the bitrate stepped down on the capped link: \(changes)\n\(context)")
        #expect(whileCapped.contains(": dropped video frame"), "drops were reported\n\(context)")
        #expect(!log.contains("audio was dropped"), "audio is never dropped for a slow link")
        let lowest = changes.map(\.to).min() ?? 1000
        let later = Self.bitRateChanges(in: String(afterLift.dropFirst(whileCapped.count)))
        #expect(later.contains { $0.to > $0.from }, "the bitrate recovered once the cap was lifted: \(later)")
        #expect((later.map(\.to).max() ?? 0) > lowest)
        #expect(log.contains(": connection lost"), "the dead relay was noticed\n\(context)")
        #expect(log.contains(": reconnected"), "and the publisher reconnected\n\(context)")
        #expect(publisher.status == 0 && log.contains("sent "), "Ctrl-C closed the publish cleanly\n\(context)")

        // One recording per publish: before the relay died, and after the reconnection; each decodes cleanly.
        let recordings = server.recordings(of: "adapt")
        #expect(recordings.count >= 2, "nginx recorded the publish before and after the reconnection: \(recordings)\n\(context)")
        for recording in recordings {
            let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", recording, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(recording) decodes: \(decode.standardError.prefix(2000))")
        }
        let after = try recordings.last.map { try ProbedPacket.read($0).filter(\.isVideo).count } ?? 0
        #expect(after >= 60, "the stream went on after the reconnection (\(after) pictures)\n\(context)")
    }

    /// The `publish: bit rate A → B kbit/s (cause)` lines of a log.
    static func bitRateChanges(in log: String) -> [(from: Int, to: Int)] {
        log.split(separator: "\n").compactMap { line -> (Int, Int)? in
            guard let range = line.range(of: "publish: bit rate ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            guard words.count >= 3, let from = Int(words[0]), let to = Int(words[2]) else { return nil }
            return (from, to)
        }
    }
}
#endif
