#if FFmpeg
// These tests encode with our own `serve`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// `streamkit serve --http-port`: the live encode of the (synthetic) camera and microphone as HLS from memory, read by ffmpeg while it is live (both segment
/// formats), with the CORS field a page of another origin needs. The port is the test's own (``TestPorts``).
@Suite("serve --http-port → ffmpeg", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe", "curl")))
struct ServeHLSProofTests {
    @Test("ffmpeg plays serve's live HLS over http:// and decodes it with -err_detect explode", arguments: ["fmp4", "ts"])
    func ffmpegPlaysTheLivePlaylist(format: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let ports = TestPorts.reserve(2)
        let server = try Streamkit.start(["serve", "camera", "--port", "\(ports)", "--http-port", "\(ports + 1)", "--address", "127.0.0.1",
                                          "--path", "cam", "--size", "320x240", "--fps", "25", "--gop", "25", "--segment-duration", "1",
                                          "--playlist-size", "4", "--segment-format", format, "--duration", "30"], logsIn: directory)
        defer { Task { await server.stop() } }
        let url = "http://127.0.0.1:\(ports + 1)/cam/index.m3u8"
        #expect(await Readiness.waitForTCP(port: ports + 1), "\(server.logs)")
        // The playlist answers 503 until the first segment is complete; wait for three (a player's live start).
        let deadline = ContinuousClock.now + .seconds(25)
        var playlist = ""
        while ContinuousClock.now < deadline {
            let fetched = try await ExternalTool.run("curl", ["-s", "--max-time", "5", "-H", "Origin: https://player.example", "-D", "-", url])
            playlist = fetched.text
            if playlist.contains("200 OK"), playlist.components(separatedBy: "#EXTINF").count > 3 { break }
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(playlist.lowercased().contains("access-control-allow-origin: *"), "\(playlist)")
        #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:"), "\(playlist)\n\(server.logs)")
        #expect(playlist.contains(format == "ts" ? ".ts" : "#EXT-X-MAP:URI=\"init.mp4\""), "\(playlist)")
        let play = try await ExternalTool.run("timeout", ["-k", "5", "30", "ffmpeg", "-hide_banner", "-v", "error", "-err_detect", "explode",
                                                           "-i", url, "-t", "3", "-f", "framemd5", "-"])
        #expect(play.status == 0 && play.standardError.isEmpty, "\(play.standardError)\n\(server.logs)")
        let lines = play.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.filter { $0.hasPrefix("0,") }.count >= 50, "\(lines.count) frames")
        #expect(lines.filter { $0.hasPrefix("1,") }.count >= 100, "AAC frames decoded")
        await server.stop()
    }
}
#endif
