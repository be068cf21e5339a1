#if SRT
import Foundation
import StreamKit
import Testing
import TestSupport

/// SRT's counters drive the pipeline's adaptation (``SRTLinkAdaptation``): a pipeline publishes over SRT through a
/// UDP bottleneck to ffmpeg listening; when the link narrows below the stream the encoder's rate steps down under it,
/// and ffmpeg's recording shows the narrower stream; when it widens the rate climbs again.
@Suite(.runsAlone, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe") || ProcessInfo.processInfo.environment["CI"] == "true"))
struct SRTAdaptationProofTests {
    /// Kilobits of video in each whole second of a file, by presentation time from the first picture.
    static func videoKilobitsPerSecond(_ path: String) async throws -> [Int] {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,size",
                                                        "-of", "csv=p=0", path])
        var packets: [(time: Double, bits: Int)] = []
        for line in output.text.split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let size = Int(fields[1]) else { continue }
            packets.append((time, size * 8))
        }
        let first = packets.map(\.time).min() ?? 0
        var seconds: [Int: Int] = [:]
        for packet in packets { seconds[Int(packet.time - first), default: 0] += packet.bits }
        let last = seconds.keys.max() ?? -1
        return (0...max(0, last)).map { (seconds[$0] ?? 0) / 1000 }
    }

    /// The pipeline's events with the seconds since now at which each came, gathered until the pipeline ends.
    static func timedEvents(of pipeline: LivePipeline) -> Task<[(at: Double, event: LiveEvent)], Never> {
        let start = ContinuousClock.now
        return Task {
            var all: [(at: Double, event: LiveEvent)] = []
            for await event in pipeline.events {
                let elapsed = ContinuousClock.now - start
                all.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, event))
            }
            return all
        }
    }

    @Test("a link narrowed to 480 kbit/s takes a 1.2 Mbit/s stream below it within seconds; widened, the rate climbs again",
          .enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)))
    func followsTheBottleneck() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let base = TestPorts.reserve(2)
        let (listenerPort, relayPort) = (base, base + 1)
        let output = directory.appendingPathComponent("received.ts").path
        let ffmpeg = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-i", "srt://127.0.0.1:\(listenerPort)?mode=listener&latency=400000",
                                                "-c", "copy", "-f", "mpegts", "-y", output], logsIn: directory)
        defer { ffmpeg.terminate() }
        try #require(await Readiness.waitForUDP(port: listenerPort, seconds: 15), "ffmpeg does not listen: \(ffmpeg.logs)")
        let relay = try TwoWayLossyRelay(port: relayPort, server: listenerPort, loss: 0, reorder: 0)
        defer { relay.stop() }

        let videoRate = 1_200_000
        var configuration = LiveConfiguration(video: LiveTestSupport.video(width: 320, height: 180, bitRate: videoRate))
        configuration.minimumBitRate = 150_000
        let pipeline = LivePipeline(video: try NoiseCamera(width: 320, height: 180), audio: nil, configuration: configuration)
        pipeline.add(try SRTDestination(url: "srt://127.0.0.1:\(relayPort)?latency=400000"))
        let events = Self.timedEvents(of: pipeline)
        // 480 kbit/s from 3 s to 10 s, then no cap until the end at 16 s.
        let schedule = Task {
            try await Task.sleep(for: .seconds(3))
            relay.setRateCap(bytesPerSecond: 480_000 / 8)
            try await Task.sleep(for: .seconds(7))
            relay.setRateCap(bytesPerSecond: 0)
            try await Task.sleep(for: .seconds(6))
            pipeline.stop()
        }
        let report = try await pipeline.run()
        schedule.cancel()
        #expect(await ffmpeg.exitStatus(within: 15) == 0, "\(ffmpeg.logs)")
        let all = await events.value
        let log = all.map { "\(String(format: "%.1f", $0.at)) s: \($0.event)" }.joined(separator: "\n")
        let changes = all.compactMap { entry -> (at: Double, from: Int, to: Int)? in
            if case let .bitRateChanged(from, to, _) = entry.event { return (entry.at, from, to) }
            return nil
        }
        let measured = try await Self.videoKilobitsPerSecond(output)
        let text = "video received: \(measured) kbit/s\nrelay: \(relay.current)\n\(report)\n\(log)"
        print("SRT adaptation, 1.2 Mbit/s through a 480 kbit/s bottleneck (3–10 s):\n\(text)")

        #expect(!changes.contains { $0.at < 3 }, "nothing changes while the link has room\n\(text)")
        let firstDown = try #require(changes.first { $0.to < $0.from }, "the rate steps down\n\(text)")
        #expect(firstDown.at > 3 && firstDown.at < 7, "within 4 s of the cap\n\(text)")
        let lowest = changes.filter { $0.at < 10.5 }.map(\.to).min() ?? videoRate
        #expect(lowest <= 480_000, "below the bottleneck before it widens\n\(text)")
        #expect(changes.contains { $0.at > 10 && $0.to > $0.from }, "climbs once the link widens\n\(text)")
        // What ffmpeg recorded: the full rate at first, under the bottleneck by its last seconds.
        try #require(measured.count >= 14, "\(text)")
        #expect(measured[1] >= 900, "the configured rate before the cap: \(text)")
        #expect(measured[8] <= 520, "under the bottleneck once adapted: \(text)")
    }

    @Test("a puller that vanishes without closing does not step the rate down for the puller that stays",
          .enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(1)))
    func vanishedPullerLeavesTheRate() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let configuration = LiveConfiguration(video: LiveTestSupport.video(width: 320, height: 180, bitRate: 600_000))
        let pipeline = LivePipeline(video: try NoiseCamera(width: 320, height: 180), audio: nil, configuration: configuration)
        pipeline.add(try SRTDestination(url: "srt://127.0.0.1:\(port)?mode=listener"))
        let events = Self.timedEvents(of: pipeline)
        let running = Task { try await pipeline.run() }
        try #require(await Readiness.waitForUDP(port: port, seconds: 15))
        let pullers = try ["kept", "vanishing"].map { name in
            try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-i", "srt://127.0.0.1:\(port)", "-c", "copy", "-f", "mpegts", "-y",
                                       directory.appendingPathComponent("\(name).ts").path], logsIn: directory)
        }
        defer { for puller in pullers { puller.terminate() } }
        // SIGKILL: no shutdown reaches us; libsrt keeps the connection for its 5 s peer-idle timeout while its send
        // buffer fills. Run on until well after that.
        try await Task.sleep(for: .seconds(2))
        pullers[1].vanish()
        try await Task.sleep(for: .seconds(8))
        pipeline.stop()
        let report = try await running.value
        pullers[0].interrupt()
        _ = await pullers[0].exitStatus(within: 10)
        let all = await events.value
        let log = all.map { "\(String(format: "%.1f", $0.at)) s: \($0.event)" }.joined(separator: "\n")
        let downs = all.filter { if case let .bitRateChanged(from, to, _) = $0.event { return to < from } else { return false } }
        #expect(downs.isEmpty, "the puller that stayed has a healthy link\n\(report)\n\(log)")
        let measured = try await Self.videoKilobitsPerSecond(directory.appendingPathComponent("kept.ts").path)
        print("SRT, a puller vanishes at 2 s: kept puller's video \(measured) kbit/s\n\(log)")
        #expect(measured.count >= 7 && measured.dropFirst().dropLast().allSatisfy { $0 >= 300 }, "the kept puller's rate: \(measured)")
    }
}
#endif
