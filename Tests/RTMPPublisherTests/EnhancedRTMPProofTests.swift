#if FFmpeg
import Foundation
import Testing
import TestSupport

/// H.265 over Enhanced RTMP: the modern FFmpeg as the server (`-listen 1`) receives our HEVC publish and
/// decodes it bit-exactly against our own `.h265` of the same encode. Its port is its own (``TestPorts``).
@Suite("publish --codec hevc → modern FFmpeg (Enhanced RTMP)", .needsRealTime, .serialized, .enabled(if: ModernFFmpeg.isRunnable))
struct EnhancedRTMPProofTests {
    @Test("The modern FFmpeg decodes our HEVC publish bit-exactly")
    func hevcPublish() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let modern = try ModernFFmpeg.path()
        let received = directory.appendingPathComponent("received.md5").path
        let saved = directory.appendingPathComponent("sent.h265").path
        let port = TestPorts.reserve()
        let server = try PeerProcess(modern, ["-hide_banner", "-v", "error", "-listen", "1", "-i", "rtmp://127.0.0.1:\(port)/live/hevc",
                                              "-map", "0:v", "-f", "framemd5", received], logsIn: directory)
        defer { Task { await server.stop() } }
        // ffmpeg accepts one connection only: wait until it listens, without probing the port.
        #expect(await Readiness.waitForListener(port: port), "\(server.logs)")
        let publisher = try await Streamkit.run(["publish", "testsrc", "rtmp://127.0.0.1:\(port)/live/hevc", "--codec", "hevc",
                                                 "--size", "320x240", "--frames", "60", "--save", saved], in: directory)
        await server.waitForExit(seconds: 15)
        await server.stop()
        let theirs = Streamkit.frameHashes(ofFile: received)
        let ours = Streamkit.frameHashes(ofFile: try {
            let path = directory.appendingPathComponent("sent.md5").path
            try ModernFFmpeg.check(["-v", "error", "-i", saved, "-map", "0:v", "-f", "framemd5", path])
            return path
        }())
        #expect(ours.count == 60, "\(publisher.logs)")
        #expect(theirs == ours, "the server's pictures are ours (\(theirs.count) of \(ours.count))\n\(server.logs)\n\(publisher.logs)")
    }
}
#endif
