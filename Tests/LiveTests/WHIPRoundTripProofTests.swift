#if OpenSSL
import Foundation
import StreamKit
import Testing
import TestSupport

/// Our WHIP client into our WHIP ingest: one pipeline (a synthetic camera through x264, a synthetic microphone through
/// libopus) publishes with ``WHIPDestination``; another records what its ``WHIPSource`` receives (MP4, `avc1` + `Opus`),
/// which ffprobe counts and ffmpeg decodes. Both DTLS roles: our endpoint answers the client's `a=setup:actpass` as
/// the server (default) or as the client. Run inside a network namespace with loopback alone
/// (`unshare -rn sh -c 'ip link set lo up; swift test …'`).
@Suite("WHIP round trip: our client publishes into our own ingest", .needsRealTime)
struct WHIPRoundTripProofTests {
    static let width = 320
    static let height = 240
    static let seconds = 6.0
    static let token = "round-trip-token"

    @Test("WHIPDestination → WHIPSource: ≥ 99 % of the pictures sent are in the recording at their size, the Opus audio too, and it decodes",
          .enabled(if: LiveTestSupport.encodesInRealTime && CodecEngineRegistry.default.canEncode(.opus)), arguments: [DTLSRole.server, .client])
    func clientIntoIngest(actpassRole: DTLSRole) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let output = directory.appendingPathComponent("round-trip.mp4").path
        var session = WebRTCPeerSession.Configuration()
        session.actpassRole = actpassRole
        let loop = try EventLoop()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        defer {
            server.stop()
            loop.shutdown()
        }
        let source = try WHIPSource(server: server, path: "/live/whip", token: Self.token, configuration: session)
        server.start()
        let ingest = LivePipeline(source: source)
        ingest.add(MP4FileDestination(path: output), options: .recording())
        let recording = Task { try await ingest.run() }

        var video = LiveTestSupport.video(width: Self.width, height: Self.height, bitRate: 500_000)
        video.maxKeyFrameInterval = 60
        video.expectedFrameRate = 30
        var configuration = LiveConfiguration(video: video, audioBitRate: 64_000)
        configuration.audioCodec = .opus
        configuration.durationLimit = Self.seconds
        let publisher = LivePipeline(video: try SyntheticCamera(width: Self.width, height: Self.height, frameRate: 30),
                                     audio: try SyntheticMicrophone(sampleRate: 48000, channelCount: 2), configuration: configuration)
        let whip = WHIPDestination(url: source.url, options: WHIPClient.Options(bearerToken: Self.token))
        publisher.add(whip)
        let published = try await publisher.run()
        // The destination DELETEs its resource at the end: the session closes and the ingest ends; a watchdog in case it does not.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(10))
            ingest.stop()
        }
        let statistics = source.receiverStatistics
        let role = source.session?.role
        let recorded = try await recording.value
        watchdog.cancel()
        let sent = try #require(published.destinations.first, "\(published)")
        let probe = try await WHIPIngestProofTests.probe(output)
        print("WHIP round trip (actpass → \(actpassRole)): sent \(sent.videoFramesSent) pictures and \(sent.audioFramesSent) Opus frames; "
              + "recorded \(probe.pictures) pictures \(probe.size), \(probe.audioFrames) \(probe.audioCodec) frames; receiver \(String(describing: statistics))")
        #expect(sent.failure == nil, "\(sent)")
        #expect(recorded.destinations.first?.failure == nil, "\(recorded.destinations)")
        #expect(role == actpassRole, "our DTLS role for the client's a=setup:actpass")
        #expect(sent.videoFramesSent >= Int(Self.seconds * 30 * 0.9), "\(sent)")
        #expect(Double(probe.pictures) >= 0.99 * Double(sent.videoFramesSent), "\(probe.pictures) of \(sent.videoFramesSent) pictures")
        #expect(probe.pictures <= sent.videoFramesSent)
        #expect(probe.size == "\(Self.width)x\(Self.height)")
        #expect(probe.videoCodec == "h264")
        #expect(probe.audioCodec == "opus")
        #expect(Double(probe.audioFrames) >= 0.99 * Double(sent.audioFramesSent) && sent.audioFramesSent >= 200,
                "\(probe.audioFrames) of \(sent.audioFramesSent) audio frames")
        #expect(probe.decodeStatus == 0 && probe.decodeErrors.isEmpty, "\(probe.decodeErrors.suffix(800))")
        let track = try #require(statistics?.tracks["video"])
        #expect(track.framesLost == 0 && track.framesWithheld == 0, "\(track)")
    }
}
#endif
