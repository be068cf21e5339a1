#if FFmpeg
// These tests encode with our own `stream`/`serve`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// `streamkit stream … rtsp://` into ffmpeg as the RTSP server (`ffmpeg -rtsp_flags listen`, ANNOUNCE/RECORD):
/// ffmpeg decodes the video and the audio we publish, over UDP and TCP, each on a port of its own (``TestPorts``).
@Suite("stream rtsp:// → ffmpeg -rtsp_flags listen", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct PublishProofTests {
    @Test("ffmpeg records decodable video and audio", arguments: ["udp", "tcp"])
    func publishes(transport: String) async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let hashes = directory.appendingPathComponent("recorded.md5").path
        let server = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-rtsp_flags", "listen",
                                                "-i", "rtsp://127.0.0.1:\(port)/x", "-f", "framemd5", hashes], logsIn: directory)
        defer { Task { await server.stop() } }
        // ffmpeg accepts one connection only: wait until it listens, without probing the port.
        #expect(await Readiness.waitForListener(port: port), "\(server.logs)")
        let sender = try await Streamkit.run(["stream", "camera", "rtsp://127.0.0.1:\(port)/x", "--transport", transport,
                                              "--size", "320x240", "--frames", "90"], in: directory)
        await server.waitForExit(seconds: 10)
        await server.stop()
        let text = (try? String(contentsOfFile: hashes, encoding: .utf8)) ?? ""
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        let video = rows.filter { $0.hasPrefix("0,") }.count, audio = rows.filter { $0.hasPrefix("1,") }.count
        #expect(video >= 80, "ffmpeg decoded \(video) of 90 pictures\n\(server.logs)\n\(sender.logs)")
        #expect(audio >= 100, "ffmpeg decoded \(audio) audio frames\n\(server.logs)")
    }
}
#endif
