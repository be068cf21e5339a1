#if OpenSSL
import Foundation
import StreamKit
import Testing
import TestSupport

/// WHIP ingest against the publisher users have most: headless Chromium (``BrowserPlayback/Media/whipPublish(url:seconds:token:)``,
/// a page of another origin) sends its fake camera and microphone into our ``WHIPSource``. Its offer has VP8, VP9, AV1
/// and H.264 in several profiles and both packetization modes, rtx, transport-cc, and Opus beside RED, G.722 and PCM:
/// the answer takes H.264 packetization-mode 1 Constrained Baseline (42e01f) and Opus and nothing else, and the
/// recording (MP4, `avc1` + `Opus`) is read with ffprobe and decoded with ffmpeg. Run inside a network namespace with
/// loopback alone (`unshare -rn sh -c 'ip link set lo up; swift test …'`).
@Suite("WHIP ingest: headless Chromium publishes its fake camera and microphone into our endpoint", .needsRealTime)
struct WHIPChromiumIngestProofTests {
    static let seconds = 6.0
    static let token = "chromium-s3cret"

    struct Outcome {
        let page: BrowserPlayback.Report
        let recording: WHIPIngestProofTests.Probe
        let statistics: WebRTCMediaReceiver.Statistics?
        let role: DTLSRole?
        let droppedForTest: Int
        let report: LiveReport
    }

    /// Chromium publishes for `seconds` into a fresh ingest (its session configured by `configuration`) that records
    /// MP4; the page's report and the recording's probe.
    static func publish(seconds: Double, configuration: WebRTCPeerSession.Configuration) async throws -> Outcome {
        let directory = try ExternalTool.temporaryDirectory()
        let output = directory.appendingPathComponent("chromium.mp4").path
        let loop = try EventLoop()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        defer {
            server.stop()
            loop.shutdown()
        }
        let source = try WHIPSource(server: server, path: "/live/whip", token: Self.token, configuration: configuration)
        server.start()
        let pipeline = LivePipeline(source: source)
        pipeline.add(MP4FileDestination(path: output), options: .recording())
        let running = Task { try await pipeline.run() }
        let url = source.url
        let played = await Result(awaiting: { try await OffPool.run { try BrowserPlayback.play(.whipPublish(url: url, seconds: seconds, token: Self.token),
                                                                                             in: directory, timeout: 60) } })
        // The page DELETEs its resource: the session closes and the source ends; a watchdog in case it does not.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(played.isSuccess ? 10 : 1))
            pipeline.stop()
        }
        let statistics = source.receiverStatistics
        let role = source.session?.role
        let dropped = source.session?.statistics.droppedForTest ?? 0
        let report = try await running.value
        watchdog.cancel()
        let page = try played.get().report
        return Outcome(page: page, recording: try await WHIPIngestProofTests.probe(output), statistics: statistics, role: role,
                       droppedForTest: dropped, report: report)
    }

    @Test("Chromium's offer gets H.264 (42e01f, packetization-mode 1) and Opus; the recording holds ≥ 90 % of the pictures it sent, at the camera's size, and Opus that decodes; DELETE is 200 — with us as the DTLS server and, for its actpass, as the client",
          .enabled(if: BrowserPlayback.isRunnable), arguments: [DTLSRole.server, .client])
    func chromiumPublishes(actpassRole: DTLSRole) async throws {
        var configuration = WebRTCPeerSession.Configuration()
        configuration.actpassRole = actpassRole
        let outcome = try await Self.publish(seconds: Self.seconds, configuration: configuration)
        let page = outcome.page, recording = outcome.recording
        print("WHIP Chromium (actpass → \(actpassRole)): \(page); recording \(recording.pictures) pictures \(recording.size) "
              + "\(recording.videoCodec), \(recording.audioFrames) \(recording.audioCodec) frames; receiver \(String(describing: outcome.statistics))")
        #expect(page.done, "\(page)")
        #expect(page.deleteStatus == 200)
        #expect(outcome.role == actpassRole, "our DTLS role for Chromium's a=setup:actpass")
        let videoCodec = page.videoCodec ?? ""
        #expect(videoCodec.hasPrefix("video/H264") && videoCodec.contains("packetization-mode=1") && videoCodec.contains("profile-level-id=42e01f"),
                "\(videoCodec)")
        #expect(page.audioCodec?.hasPrefix("audio/opus") == true, "\(page.audioCodec ?? "-")")
        #expect(outcome.report.destinations.first?.failure == nil, "\(outcome.report.destinations)")
        let sent = page.framesSent ?? 0
        #expect(sent >= 60, "Chromium sent \(sent) pictures in \(Self.seconds) s")
        #expect(Double(recording.pictures) >= 0.9 * Double(sent), "\(recording.pictures) of \(sent) pictures sent (\(page.framesEncoded ?? 0) encoded)")
        #expect(recording.videoCodec == "h264")
        #expect(recording.size == page.cameraSize, "the fake camera's size")
        #expect(recording.size == "\(page.width ?? 0)x\(page.height ?? 0)", "the size Chromium sent")
        #expect(recording.audioCodec == "opus")
        // 20 ms Opus packets: about 50 a second of the time the microphone ran.
        #expect(Double(recording.audioFrames) >= 0.9 * Double(page.audioPackets ?? 0) && recording.audioFrames >= 200,
                "\(recording.audioFrames) audio frames of \(page.audioPackets ?? 0) packets sent")
        #expect(recording.decodeStatus == 0 && recording.decodeErrors.isEmpty, "\(recording.decodeErrors.suffix(800))")
    }

    @Test("after a video outage no NACK can repair (1.5 s of packets and every later rtx dropped), our PLI brings an IDR from Chromium, and the recording goes on past the outage and decodes",
          .enabled(if: BrowserPlayback.isRunnable))
    func pliBringsKeyFrame() async throws {
        var configuration = WebRTCPeerSession.Configuration()
        configuration.inboundOutageAfter = 60
        configuration.inboundOutageDuration = .milliseconds(1500)
        let outcome = try await Self.publish(seconds: 8, configuration: configuration)
        let page = outcome.page, recording = outcome.recording
        let video = try #require(outcome.statistics?.tracks["video"])
        print("WHIP Chromium PLI: \(page); recording \(recording.pictures) pictures \(recording.size); video \(video)")
        #expect(page.done, "\(page)")
        #expect(outcome.droppedForTest >= 20, "the outage dropped \(outcome.droppedForTest) video packets")
        #expect(video.packets.lost > 0 && video.packets.recovered == 0, "no NACK repaired it: \(video.packets)")
        #expect(video.framesLost + video.framesWithheld > 0, "the outage cost pictures: \(video)")
        #expect(video.keyFrameRequests >= 1, "we sent a PLI: \(video)")
        #expect((page.pliCount ?? 0) >= 1, "Chromium received it: \(page)")
        #expect((page.keyFramesEncoded ?? 0) >= 2, "Chromium encoded a key frame for it: \(page)")
        #expect(video.keyFrames >= 2, "the new key frame arrived: \(video)")
        // The outage begins after 60 video packets (about a second of pictures): without a key frame after it, every
        // later picture would be withheld and the recording would stop there.
        let sent = page.framesSent ?? 0
        #expect(recording.pictures >= sent / 2 && recording.pictures <= video.framesGood, "\(recording.pictures) recorded, \(video.framesGood) good of \(sent)")
        #expect(recording.decodeStatus == 0 && recording.decodeErrors.isEmpty, "\(recording.decodeErrors.suffix(800))")
    }
}

private extension Result {
    /// Whether it is a success.
    var isSuccess: Bool { if case .success = self { true } else { false } }
}

private extension Result where Failure == any Error {
    /// The result of an async throwing body.
    init(awaiting body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
#endif
