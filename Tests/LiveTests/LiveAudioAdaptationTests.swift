import Foundation
import StreamKit
import Testing
import TestSupport

/// ``AudioAdaptation``: the audio keeps its rate while the video adapts, steps down to 32 kbit/s mono / 48 kbit/s
/// stereo once the video falls below a quarter of its rate, and comes back a quarter above that floor.
struct AudioAdaptationRuleTests {
    @Test("the audio keeps its rate above the floor, steps down below it, and comes back with a margin")
    func stepsDownBelowTheFloorAndBackWithAMargin() {
        let rule = AudioAdaptation()
        func rate(_ video: Int, current: Int, channels: Int = 2, configured: Int = 96_000) -> Int {
            rule.bitRate(video: video, videoConfigured: 1_000_000, audioConfigured: configured, audioCurrent: current, channelCount: channels)
        }
        #expect(rate(1_000_000, current: 96_000) == 96_000)
        #expect(rate(260_000, current: 96_000) == 96_000, "above a quarter of the video's rate the audio keeps its own")
        #expect(rate(240_000, current: 96_000) == 48_000, "below it, stereo steps down to 48 kbit/s")
        #expect(rate(240_000, current: 64_000, channels: 1, configured: 64_000) == 32_000, "mono to 32 kbit/s")
        #expect(rate(240_000, current: 40_000, configured: 40_000) == 40_000, "never above what was configured")
        #expect(rate(300_000, current: 48_000) == 48_000, "stepped down, it waits until the video is a quarter above the floor")
        #expect(rate(320_000, current: 48_000) == 96_000, "and then goes back to its rate")
    }
}

/// The audio follows the video down through a capped link and up again (``LiveConfiguration/audioAdaptation``), measured
/// in a recording's AAC second by second: with x264 where the build has it, else with the native engine in an optimised
/// build (`scripts/test.sh` runs this suite in its optimised pass too; a debug build's native encoder is too slow).
@Suite(.runsAlone, .enabled(if: (ExternalTool.isRunnable("ffprobe") && NginxRTMP.executablePath != nil)
    || ProcessInfo.processInfo.environment["CI"] == "true"))
struct LiveAudioAdaptationProofTests {
    /// The engines: x264 for the pictures where the build has it, else the native engine in an optimised build; the
    /// native engine for the AAC when no engine before it encodes AAC. `nil`: no engine here keeps up with a camera.
    static var engines: CodecEngineRegistry? {
        guard let native = try? CodecEngineRegistry.default.engine(named: "native") else { return nil }
        if let x264 = try? CodecEngineRegistry.default.engine(named: "x264") { return CodecEngineRegistry(engines: [x264, native]) }
        return LiveAdaptationProofTests.nativeEncodesInRealTime ? CodecEngineRegistry(engines: [native]) : nil
    }

    /// Kilobits in each whole second of a file's audio, by presentation time.
    static func audioKilobitsPerSecond(_ path: String) async throws -> [Int] {
        let output = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,size",
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

    @Test("a capped link takes the stereo audio from 96 to 48 kbit/s with the video, and back after",
          .enabled(if: engines != nil, "needs x264 (swift build --traits FFmpeg) or optimised codecs (swift test -c release)"),
          .timeLimit(.minutes(2)))
    func audioFollowsTheVideoDownAndUp() async throws {
        let registry = try #require(Self.engines)
        let directory = try ExternalTool.temporaryDirectory()
        let base = TestPorts.reserve(2)
        let (serverPort, relayPort) = (base, base + 1)
        let server = try await NginxRTMP(port: serverPort, in: directory)
        defer { server.terminate() }
        let relay = try await ThrottledRelay(port: relayPort, to: serverPort, bytesPerSecond: 0, in: directory)
        defer { relay.terminate() }
        let recording = directory.appendingPathComponent("main.mp4").path

        // A small camera of noise.
        let videoRate = 300_000
        var configuration = LiveConfiguration(video: LiveTestSupport.video(width: 96, height: 64, bitRate: videoRate), audioBitRate: 96_000,
                                              registry: registry)
        // The floor of the video a fifth of its rate, so that climbing back above a quarter and a quarter again is quick.
        configuration.minimumBitRate = videoRate / 5
        let pipeline = LivePipeline(video: try NoiseCamera(width: 96, height: 64), audio: try SyntheticMicrophone(channelCount: 2),
                                    configuration: configuration)
        pipeline.add(RTMPDestination(url: "rtmp://127.0.0.1:\(relayPort)/live/audio",
                                     options: RTMPDestination.Options(maximumDelay: 1, minimumBitRate: videoRate / 5)))
        pipeline.add(MP4FileDestination(path: recording), options: .recording())

        let start = ContinuousClock.now
        let events = Task { () -> [(at: Double, event: LiveEvent)] in
            var all: [(Double, LiveEvent)] = []
            for await event in pipeline.events {
                let elapsed = ContinuousClock.now - start
                all.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, event))
            }
            return all
        }
        // The link carries 120 kbit/s from 3 s to 10 s: less than the 96 kbit/s audio and the video's quarter together.
        let schedule = Task {
            try await Task.sleep(for: .seconds(3))
            try relay.cap(120_000 / 8)
            try await Task.sleep(for: .seconds(7))
            try relay.cap(0)
            try await Task.sleep(for: .seconds(9))
            pipeline.stop()
        }
        let report = try await pipeline.run()
        schedule.cancel()
        let all = await events.value
        let log = all.map { "\(String(format: "%.1f", $0.at)) s: \($0.event)" }.joined(separator: "\n")
        let audioChanges = all.compactMap { entry -> (at: Double, from: Int, to: Int)? in
            if case let .audioBitRateChanged(from, to) = entry.event { return (entry.at, from, to) }
            return nil
        }
        let measured = try await Self.audioKilobitsPerSecond(recording)
        let text = "audio of the recording: \(measured) kbit/s\n\(report)\n\(log)"
        print("audio adaptation, 96 kbit/s stereo through a 120 kbit/s cap (3–10 s):\n\(text)")

        let down = try #require(audioChanges.first { $0.to < $0.from }, "the audio steps down\n\(text)")
        #expect(down.from == 96_000 && down.to == 48_000 && down.at > 3 && down.at < 9, "to 48 kbit/s, within 6 s of the cap\n\(text)")
        #expect(audioChanges.contains { $0.to == 96_000 && $0.at > 10 }, "and back to 96 kbit/s once the cap lifts\n\(text)")
        try #require(measured.count >= 17, "\(text)")
        // The recording's AAC: about the configured rate before, half of it while down (native AAC holds ±5 %).
        let downSecond = Int(down.at.rounded(.up)) + 1
        #expect(measured[1...2].allSatisfy { $0 >= 85 && $0 <= 105 }, "96 kbit/s before the cap: \(text)")
        #expect(measured[downSecond...min(downSecond + 1, measured.count - 1)].allSatisfy { $0 >= 40 && $0 <= 56 },
                "48 kbit/s after the step down: \(text)")
        #expect(report.audioBitRateChanges >= 2 && report.finalAudioBitRate == 96_000, "\(report)")
    }
}
