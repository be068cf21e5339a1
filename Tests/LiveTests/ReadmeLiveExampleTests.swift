import Foundation
import StreamKit
import Testing
import TestSupport

/// The README's live examples are the code this suite compiles, and they run: into nginx-rtmp, and into the RTSP
/// server with a recording, checked by ffprobe and ffmpeg.
struct ReadmeLiveExampleTests {
    private static func example(_ name: String) throws -> String {
        let source = try String(contentsOf: MediaFiles.packageRoot.appendingPathComponent("Tests/LiveTests/ReadmeLiveExamples.swift"),
                                encoding: .utf8)
        let begin = try #require(source.range(of: "// README example: \(name) begins\n"))
        let end = try #require(source.range(of: "// README example: \(name) ends\n"))
        return String(source[begin.upperBound..<end.lowerBound])
    }

    @Test("README.md shows the live examples this suite compiles, each at most 20 lines", arguments: ["going live", "serving and recording", "receiving RTSP"])
    func readmeShowsTheTestedCode(name: String) throws {
        let example = try Self.example(name)
        #expect(example.split(separator: "\n").count <= 20)
        let readme = try String(contentsOf: MediaFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```\n"), "README.md shows the \(name) example")
    }

    @Test("going live: nginx-rtmp records a stream that decodes", .needsRealTime,
          .enabled(if: (ExternalTool.isRunnable("ffprobe") && NginxRTMP.executablePath != nil) || ProcessInfo.processInfo.environment["CI"] == "true"),
          .enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)))
    func goingLiveReachesNginx() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let server = try await NginxRTMP(port: port, in: directory, records: true)
        defer { server.terminate() }
        let report = try await goLive(to: "rtmp://127.0.0.1:\(port)/live/readme", for: 3)
        await server.stop()
        #expect(report.destinations.first?.failure == nil, "\(report)")
        let recordings = server.recordings(of: "readme")
        #expect(recordings.count == 1)
        let sent = report.destinations.first?.videoFramesSent ?? 0
        #expect(sent > 10, "\(report)")
        if let path = recordings.first { #expect(try await LiveTestSupport.pictureHashes(path).count == sent, "every picture sent was recorded") }
    }

    @Test("serving and recording: the recording has every picture", .needsRealTime,
          .enabled(if: ExternalTool.isRunnable("ffprobe") || ProcessInfo.processInfo.environment["CI"] == "true"),
          .enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)))
    func servingAndRecording() async throws {
        let path = try ExternalTool.temporaryDirectory().appendingPathComponent("readme.mp4").path
        let report = try await serveAndRecord(port: TestPorts.reserve(), to: path, frames: 45)
        #expect(report.destinations.allSatisfy { $0.failure == nil }, "\(report)")
        #expect(try await LiveTestSupport.videoFrameCount(path) == 45)
    }

    @Test("receiving RTSP: GStreamer's H.264 + AAC recorded into an MP4 that ffprobe reads, every picture in it", .needsRealTime,
          .enabled(if: (GStreamerRTSPServer.isRunnable && ExternalTool.isRunnable("ffprobe")) || ProcessInfo.processInfo.environment["CI"] == "true"),
          .timeLimit(.minutes(2)))
    func receivingRTSP() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let server = try await GStreamerRTSPServer(port: TestPorts.reserve(), in: directory)
        defer { Task { await server.stop() } }
        let path = directory.appendingPathComponent("received.mp4").path
        let statistics = try await receiveIntoMP4(from: server.url, to: path, frames: 60)
        await server.stop()
        #expect(statistics.videoFramesGood >= 60, "\(statistics.summaryLines)")
        #expect(statistics.audioFramesGood > 0, "\(statistics.summaryLines)")
        let codecs = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name",
                                                        "-of", "csv=p=0", path]).text
        #expect(codecs.contains("h264,video") && codecs.contains("aac,audio"), "\(codecs)")
        #expect(try await LiveTestSupport.videoFrameCount(path) == 60)
        #expect(try await LiveTestSupport.pictureHashes(path).count == 60, "every picture decodes strictly")
    }
}
