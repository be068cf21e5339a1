import Foundation
import Testing
import TestSupport

/// `streamkit receive rtmp[s]://…` plays from nginx-rtmp what ffmpeg publishes there — directly, and over TLS
/// through nginx's `stream` module with a certificate made by the test (RTMPS, verified against that
/// certificate; another certificate is refused). `serve --rtmp-port` is played by ffmpeg. Each test has ports of its own
/// (``TestPorts``).
@Suite("RTMP play and RTMPS: receive rtmp[s]:// from nginx-rtmp, serve --rtmp-port to ffmpeg", .needsRealTime)
struct RTMPPlayProofTests {
    /// Plays `url` while Debian's ffmpeg publishes `media` to nginx at `publishPort`, then returns what we recorded.
    static func playWhilePublishing(_ url: String, extra: [String] = [], media: IngestMedia, publishPort: UInt16,
                                    in directory: URL) async throws -> Data {
        let video = directory.appendingPathComponent("played-\(publishPort).h264").path
        let player = try await Streamkit.start(["receive", url, "-o", video, "--idle", "3"] + extra, in: directory, readyWhen: "playing")
        defer { player.terminate() }
        let publisher = try await ExternalTool.run("timeout", ["-k", "3", "30", "ffmpeg", "-v", "error", "-re", "-i", media.input, "-c", "copy",
                                                        "-f", "flv", "rtmp://127.0.0.1:\(publishPort)/live/stream"])
        #expect(publisher.status == 0, "\(publisher.standardError)")
        try await Streamkit.finish(player)
        return IngestMedia.bytes(video)
    }

    @Test("receive rtmp:// from nginx-rtmp: the H.264 is what ffmpeg published (nginx may cut the end)",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "nginx")), .timeLimit(.minutes(2)))
    func playFromNginx() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let media = try IngestMedia(seconds: 4, in: directory)
        let nginx = try await NginxRTMP(port: port, in: directory)
        defer { nginx.terminate() }
        let played = try await Self.playWhilePublishing("rtmp://127.0.0.1:\(port)/live/stream", media: media, publishPort: port, in: directory)
        let reference = IngestMedia.bytes(media.videoReference)
        #expect(played.count > reference.count / 3, "played \(played.count) of \(reference.count) bytes")
        #expect(reference.starts(with: played), "what we played is not what ffmpeg published")
    }

    #if OpenSSL
    @Test("RTMPS through nginx's TLS front: verified against the test's certificate; another certificate and the system roots are refused",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "nginx", "openssl")), .timeLimit(.minutes(2)))
    func rtmps() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let media = try IngestMedia(seconds: 4, in: directory)
        let certificate = try SelfSignedCertificate(name: "server", in: directory)
        let other = try SelfSignedCertificate(name: "other", in: directory)
        let nginx = try await NginxRTMP(port: port, tls: (port + 1, certificate.certificate, certificate.key), in: directory)
        defer { nginx.terminate() }

        for (trust, expected) in [(["--ca-file", other.certificate], "certificate was rejected"), ([], "certificate was rejected")] {
            let refused = try await ExternalTool.run("timeout", ["-k", "3", "20", try ExternalTool.builtProduct("streamkit"), "receive",
                                                          "rtmps://localhost:\(port + 1)/live/stream", "-o",
                                                          directory.appendingPathComponent("refused.h264").path] + trust)
            #expect(refused.status != 0)
            #expect(refused.standardError.contains(expected), "\(refused.standardError)")
        }
        let played = try await Self.playWhilePublishing("rtmps://localhost:\(port + 1)/live/stream", extra: ["--ca-file", certificate.certificate],
                                                        media: media, publishPort: port, in: directory)
        let reference = IngestMedia.bytes(media.videoReference)
        #expect(played.count > reference.count / 3, "played \(played.count) of \(reference.count) bytes over TLS")
        #expect(reference.starts(with: played), "what we played over rtmps:// is not what ffmpeg published")
    }
    #else
    @Test("Without the OpenSSL trait, rtmps:// fails with 'built without TLS'", .enabled(if: ExternalTool.isRunnable("nginx")))
    func rtmpsUnavailable() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let nginx = try await NginxRTMP(port: port, in: directory)
        defer { nginx.terminate() }
        let result = try await ExternalTool.run("timeout", ["-k", "3", "20", try ExternalTool.builtProduct("streamkit"), "receive",
                                                     "rtmps://127.0.0.1:\(port)/live/stream", "-o", directory.appendingPathComponent("x.h264").path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("built without TLS"), "\(result.standardError)")
    }
    #endif

    #if FFmpeg
    @Test("ffmpeg plays serve --rtmp-port; a wrong key is refused", .enabled(if: ExternalTool.isRunnable("ffmpeg")), .timeLimit(.minutes(2)))
    func serveToRTMPPlayers() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let server = try await Streamkit.start(["serve", "testsrc", "--port", "\(port)", "--rtmp-port", "\(port + 1)", "--size", "320x240",
                                                "--duration", "20"], in: directory, readyWhen: "serving rtmp://")
        defer { server.terminate() }
        let wrong = try await ExternalTool.run("timeout", ["-k", "3", "10", "ffmpeg", "-v", "error", "-i", "rtmp://127.0.0.1:\(port + 1)/live/wrong",
                                                    "-frames:v", "1", "-f", "null", "-"])
        #expect(wrong.status != 0, "a player of the wrong key was served")
        let md5 = directory.appendingPathComponent("played.md5").path
        let player = try await ExternalTool.run("timeout", ["-k", "3", "20", "ffmpeg", "-v", "error", "-i", "rtmp://127.0.0.1:\(port + 1)/live/live",
                                                     "-frames:v", "25", "-f", "framemd5", md5])
        #expect(player.status == 0, "\(player.standardError)")
        let frames = ((try? String(contentsOfFile: md5, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(frames.count == 25, "\(server.logs)")
        let probe = try await ExternalTool.run("timeout", ["-k", "3", "15", "ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height",
                                                    "-of", "csv=p=0", "rtmp://127.0.0.1:\(port + 1)/live/live"])
        #expect(probe.text.contains("h264,320,240"), "\(probe.text) \(probe.standardError)")
        server.interrupt()
        await server.waitForExit(seconds: 10)
    }
    #endif
}
