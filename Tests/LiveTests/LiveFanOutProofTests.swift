import Foundation
import StreamKit
import Testing
import TestSupport

/// The proof, in process: one pipeline into two nginx-rtmp servers, an fMP4 recording and the RTSP server
/// read by ffmpeg. The second server is killed midway and started again: the first server and the recording go to
/// the end with identical pictures, and the second gets the stream again, from a key frame, after the
/// reconnection.
@Suite(.needsRealTime, .enabled(if: (ExternalTool.isRunnable("ffmpeg", "ffprobe") && NginxRTMP.executablePath != nil)
    || ProcessInfo.processInfo.environment["CI"] == "true"))
struct LiveFanOutProofTests {
    @Test(.enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(3)))
    func twoServersARecordingAndTheRTSPServerOneOfThemRestarted() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let base = TestPorts.reserve(3)
        let (portA, portB, rtspPort) = (base, base + 1, base + 2)
        let first = try await NginxRTMP(port: portA, in: directory, records: true)
        defer { first.terminate() }
        let second = try await NginxRTMP(port: portB, in: directory, records: true)
        let recording = directory.appendingPathComponent("recording.mp4").path

        // 8 s of a camera paced at 30 frames per second (fewer pictures where the encoder is slower than that).
        let pipeline = LivePipeline(video: try SyntheticCamera(width: 128, height: 96, frameRate: 30),
                                    audio: LiveTestSupport.encodesAudio ? try SyntheticMicrophone() : nil,
                                    configuration: LiveConfiguration(video: LiveTestSupport.video()))
        let rtsp = try RTSPServerDestination(configuration: RTSPServerConfiguration(address: SocketAddress(host: "127.0.0.1", port: rtspPort)))
        let reconnecting = RTMPDestination(url: "rtmp://127.0.0.1:\(portB)/live/b",
                                           options: RTMPDestination.Options(reconnectPolicy: ReconnectPolicy(initialDelay: 0.25, maximumDelay: 0.5,
                                                                                                              maximumAttempts: 40)))
        // A's queue may hold 10 s: the proof is that B's death costs A nothing, not that a loaded machine never
        // falls 2 s behind (the real-time suites run at once beside it).
        pipeline.add(RTMPDestination(url: "rtmp://127.0.0.1:\(portA)/live/a", options: RTMPDestination.Options(maximumDelay: 10)))
        pipeline.add(reconnecting)
        pipeline.add(MP4FileDestination(path: recording), options: .recording())
        pipeline.add(rtsp)

        // ffmpeg plays the RTSP stream once it exists, for three seconds, over TCP.
        let played = directory.appendingPathComponent("played.h264").path
        let events = Task { () -> [LiveEvent] in
            var all: [LiveEvent] = []
            var player: PeerProcess?
            for await event in pipeline.events {
                all.append(event)
                if case let .destinationOpened(name) = event, name == rtsp.url {
                    player = try? PeerProcess("ffmpeg", ["-v", "error", "-rtsp_transport", "tcp", "-i", rtsp.url, "-t", "3", "-map", "0:v",
                                                         "-c", "copy", "-f", "h264", played], logsIn: directory)
                }
            }
            _ = await player?.waitForExit(seconds: 10)
            return all
        }
        let restart = Task {
            try await Task.sleep(for: .milliseconds(2500))
            second.terminate()
            try await Task.sleep(for: .milliseconds(2000))
            return try await NginxRTMP(port: portB, in: directory, records: true)
        }
        let end = Task {
            try await Task.sleep(for: .seconds(8))
            pipeline.stop()
        }
        let report = try await pipeline.run()
        let all = await events.value
        let restarted = try await restart.value
        defer { restarted.terminate() }
        end.cancel()
        let pictures = report.picturesEncoded

        let log = all.map(\.description).joined(separator: "\n")
        let (toA, toB) = (report.destinations[0], report.destinations[1])
        #expect(pictures >= 30, "\(report)")
        #expect(toA.failure == nil && toA.videoFramesSent == pictures && toA.framesDropped == 0, "\(report)\n\(log)")
        #expect(report.destinations[2].videoFramesSent == pictures && report.destinations[2].failure == nil, "\(report)")
        #expect(toB.reconnections >= 1 && toB.failure == nil, "\(report)\n\(log)")
        #expect(all.contains { if case .reconnecting = $0 { return true } else { return false } }, "\(log)")

        // The first server's recording and ours hold the same pictures.
        let atA = first.recordings(of: "a")
        #expect(atA.count == 1, "\(atA)")
        let recorded = try await LiveTestSupport.pictureHashes(recording)
        #expect(recorded.count == pictures)
        if let path = atA.first { #expect(try await LiveTestSupport.pictureHashes(path) == recorded, "nginx A got every picture as encoded") }

        // The second server has two publishes; the one after the restart starts at a key frame and decodes strictly.
        let atB = restarted.recordings(of: "b")
        #expect(atB.count == 2, "one recording before the kill and one after: \(atB)\n\(log)")
        if atB.count == 2 {
            let resumed = try await LiveTestSupport.pictureHashes(atB[1])
            #expect(resumed.count >= 5, "the stream came back for seconds, not a frame: \(resumed.count)")
            #expect(Set(resumed).isSubset(of: Set(recorded)), "what B got after the restart are pictures of the stream")
        }

        // ffmpeg played the RTSP server's stream.
        let playedCount = (try? await LiveTestSupport.videoFrameCount(played)) ?? 0
        #expect(playedCount >= 5, "ffmpeg played \(playedCount) pictures over RTSP\n\(log)")
    }
}
