#if OpenSSL && FFmpeg
import Foundation
import Testing
import TestSupport

/// `streamkit serve --http-port`: the same HTTP port that serves HLS answers WHEP (RFC 9725) at `/PATH/whep`, and
/// headless Chromium plays the live stream from a page of another origin. The camera's AAC audio is something WebRTC
/// does not carry, so viewers get the video alone, and `serve` says so. Run inside a network namespace with loopback
/// alone (scripts/test.sh's WebRTC pass), on the test's own ports (``TestPorts``).
@Suite("serve --http-port → Chromium over WHEP", .needsRealTime, .serialized, .enabled(if: BrowserPlayback.isRunnable))
struct ServeWHEPProofTests {
    @Test("Chromium POSTs its offer to serve's /PATH/whep, decodes the live picture at its size, and DELETEs the session")
    func chromiumPlaysServe() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ports = TestPorts.reserve(2)
        let server = try Streamkit.start(["serve", "camera", "--port", "\(ports)", "--http-port", "\(ports + 1)", "--address", "127.0.0.1",
                                          "--path", "cam", "--size", "320x240", "--fps", "30", "--gop", "300", "--bframes", "0",
                                          "--profile", "baseline", "--duration", "40"], logsIn: directory)
        #expect(await Readiness.waitForTCP(port: ports + 1), "\(server.logs)")
        let url = "http://127.0.0.1:\(ports + 1)/cam/whep"
        let result = try BrowserPlayback.play(.whep(url: url, frames: 60), in: directory, timeout: 40)
        await server.stop()
        let report = result.report
        print("serve → Chromium (WHEP): \(report)")
        #expect(report.done, "\(report)\n\(server.logs)")
        #expect((report.totalVideoFrames ?? 0) >= 60, "\(report)")
        #expect(report.width == 320 && report.height == 240, "\(report)")
        #expect(report.deleteStatus == 200, "\(report)")
        #expect(report.audioPackets == 0, "AAC is not sent to a WebRTC viewer: \(report)")
        #expect(server.logs.contains("POST an offer to http://127.0.0.1:\(ports + 1)/cam/whep"), "\(server.logs)")
        #expect(server.logs.contains("WHEP viewers got the video alone: WebRTC carries Opus audio, not aac"), "\(server.logs)")
    }
}
#endif
