import Foundation
import StreamKit
import Testing
import TestSupport

/// Adaptation reaches the picture: a pipeline publishing through a relay capped below the stream's rate lowers what
/// the encoder makes (measured in a recording of the main rendition, second by second), soon after the cap, and
/// raises it again after the cap lifts; a recording with its own rendition keeps its rate all along.
@Suite(.runsAlone, .enabled(if: (ExternalTool.isRunnable("ffprobe", "python3") && NginxRTMP.executablePath != nil)
    || ProcessInfo.processInfo.environment["CI"] == "true"))
struct LiveAdaptationProofTests {
    /// Kilobits in each whole second of a file's video, by presentation time.
    static func kilobitsPerSecond(_ path: String) async throws -> [Int] {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,size",
                                                        "-of", "csv=p=0", path])
        var seconds: [Int: Int] = [:]
        for line in output.text.split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let size = Int(fields[1]) else { continue }
            seconds[Int(time), default: 0] += size * 8
        }
        let last = seconds.keys.max() ?? -1
        return (0...max(0, last)).map { (seconds[$0] ?? 0) / 1000 }
    }

    static func mean(_ values: ArraySlice<Int>) -> Int { values.isEmpty ? 0 : values.reduce(0, +) / values.count }

    /// Whether this build's native H.264 encoder keeps up with a 160x120 camera of noise, twice: an optimised build
    /// (`scripts/test.sh` runs this suite in its optimised pass too); a debug build's is several times too slow.
    static var nativeEncodesInRealTime: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }

    @Test("x264 follows a capped link down and up; the recording's own rendition keeps its rate",
          .enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)))
    func x264FollowsACappedLinkDownAndUp() async throws {
        let x264 = try CodecEngineRegistry.default.engine(named: "x264")
        try await theEncoderFollowsACappedLinkDownAndUp(registry: CodecEngineRegistry(engines: [x264]), width: 320, height: 240,
                                                        bitRate: 1_000_000)
    }

    @Test("the native engine follows a capped link down and up; the recording's own rendition keeps its rate",
          .enabled(if: nativeEncodesInRealTime, "the native encoder keeps up with a camera only where it is optimised (swift test -c release)"),
          .timeLimit(.minutes(2)))
    func nativeFollowsACappedLinkDownAndUp() async throws {
        let native = try CodecEngineRegistry.default.engine(named: "native")
        // A quarter of x264's pictures: the native encoder makes two renditions of noise here, each in real time.
        try await theEncoderFollowsACappedLinkDownAndUp(registry: CodecEngineRegistry(engines: [native]), width: 160, height: 120,
                                                        bitRate: 400_000)
    }

    /// The proof, with the engines given: a camera of noise at `bitRate`, the link capped at 32 % of it from 4 s to 14 s.
    func theEncoderFollowsACappedLinkDownAndUp(registry: CodecEngineRegistry, width: Int, height: Int, bitRate: Int) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let base = TestPorts.reserve(2)
        let (serverPort, relayPort) = (base, base + 1)
        let server = try await NginxRTMP(port: serverPort, in: directory)
        defer { server.terminate() }
        let relay = try await ThrottledRelay(port: relayPort, to: serverPort, bytesPerSecond: 0, in: directory)
        defer { relay.terminate() }
        let (main, kept) = (directory.appendingPathComponent("main.mp4").path, directory.appendingPathComponent("kept.mp4").path)

        var video = LiveTestSupport.video(width: width, height: height, bitRate: bitRate)
        video.maxKeyFrameInterval = 60
        var configuration = LiveConfiguration(video: video, audioBitRate: 96_000, registry: registry)
        configuration.minimumBitRate = bitRate / 10
        let pipeline = LivePipeline(video: try NoiseCamera(width: width, height: height), audio: nil, configuration: configuration)
        pipeline.add(RTMPDestination(url: "rtmp://127.0.0.1:\(relayPort)/live/adapt",
                                     options: RTMPDestination.Options(maximumDelay: 1, minimumBitRate: bitRate / 10)))
        pipeline.add(MP4FileDestination(path: main), options: .recording())
        pipeline.add(MP4FileDestination(path: kept), options: .recording(averageBitRate: bitRate))

        let start = ContinuousClock.now
        let events = Task { () -> [(at: Double, event: LiveEvent)] in
            var all: [(Double, LiveEvent)] = []
            for await event in pipeline.events {
                let elapsed = ContinuousClock.now - start
                all.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, event))
            }
            return all
        }
        let schedule = Task {
            try await Task.sleep(for: .seconds(4))
            try relay.cap(bitRate * 32 / 100 / 8)
            try await Task.sleep(for: .seconds(10))
            try relay.cap(0)
            try await Task.sleep(for: .seconds(10))
            pipeline.stop()
        }
        let report = try await pipeline.run()
        schedule.cancel()
        let all = await events.value
        let log = all.map { "\(String(format: "%.1f", $0.at)) s: \($0.event)" }.joined(separator: "\n")

        let changes = all.compactMap { entry -> (at: Double, from: Int, to: Int)? in
            if case let .bitRateChanged(from, to, _) = entry.event { return (entry.at, from, to) }
            return nil
        }
        let firstDown = changes.first { $0.to < $0.from && $0.at > 4 }
        #expect(firstDown.map { $0.at - 4 < 3 } ?? false, "the first step down comes within 3 s of the cap\n\(log)")
        #expect(changes.contains { $0.to > $0.from && $0.at > 14 }, "the bit rate climbs once the cap lifts\n\(log)")

        let measured = try await Self.kilobitsPerSecond(main), own = try await Self.kilobitsPerSecond(kept)
        let text = "main rendition: \(measured) kbit/s\nrecording's own rendition: \(own) kbit/s\n\(report)\n\(log)"
        let (rate, cap) = (bitRate / 1000, bitRate * 32 / 100_000)
        print("live adaptation with \(report.videoEngine ?? "?") at \(rate) kbit/s through a \(cap) kbit/s cap (4–14 s):\n\(text)")
        try #require(measured.count >= 22 && own.count >= 22, "\(text)")
        let before = Self.mean(measured[1...3]), capped = Self.mean(measured[9...13]), after = Self.mean(measured[20...22])
        #expect(before >= rate * 6 / 10, "the stream uses its rate before the cap: \(text)")
        #expect(capped <= rate * 42 / 100, "the encoder makes about what the capped link carries (\(cap) kbit/s): \(text)")
        #expect(after >= capped * 3 / 2, "and more again after the cap lifts: \(text)")
        #expect(Self.mean(own[9...13]) >= rate * 6 / 10, "the recording's own rendition keeps its rate: \(text)")
        #expect(report.destinations[1].framesDropped == 0 && report.destinations[2].framesDropped == 0, "\(report)")
        #expect(report.videoEngine == registry.engines.first?.name, "every rendition was encoded by the engine under test: \(report)")
    }
}
