#if FFmpeg
// These tests encode with our own `stream`/`serve`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// A/V sync through the sender reports, and tshark's dissection of a capture of our RTSP/RTP/RTCP. Each test has ports of its
/// own (``TestPorts``).
@Suite("A/V sync and tshark", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "tshark", "dumpcap")))
struct SyncAndCaptureProofTests {
    @Test("audio and video, put on one clock by the sender reports, start within one frame")
    func audioVideoSync() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let sdp = directory.appendingPathComponent("av.sdp").path
        let port = TestPorts.reserve(4)
        let common = ["camera", "rtp://127.0.0.1:\(port)", "--size", "320x240"]
        try await Streamkit.run(["stream"] + common + ["--sdp", sdp, "--frames", "1"], in: directory)
        let receiver = try Streamkit.start(["receive", sdp, "-o", directory.appendingPathComponent("av.h264").path, "--idle", "3"],
                                           logsIn: directory)
        #expect(await Readiness.waitForUDP(port: port), "\(receiver.logs)")
        #expect(await Readiness.waitForUDP(port: port + 2), "\(receiver.logs)")
        try await Streamkit.run(["stream"] + common + ["--sdp", directory.appendingPathComponent("again.sdp").path, "--frames", "120"],
                                in: directory)
        await receiver.waitForExit(seconds: 15)
        await receiver.stop()
        let report = ReceiveReport(receiver.standardError)
        let offset = try #require(report.startOffsetMilliseconds, "\(receiver.logs)")
        #expect(abs(offset) <= 1000.0 / 30, "audio and video start \(offset) ms apart on the sender-report clock")
        #expect(report.videoGood == 120 && report.audioGood > 150, "\(receiver.logs)")
    }

    @Test("tshark dissects our RTSP, RTP and RTCP with no malformed packet")
    func tsharkDissects() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        // The RTSP port, then ffmpeg's UDP ports (its `min_port`/`max_port`), so that the capture holds this test's
        // traffic alone while other suites run.
        let port = TestPorts.reserve(10)
        let clientPorts = (port + 2)...(port + 9)
        let capture = try await PacketCapture(filter: "tcp port \(port) or udp portrange \(clientPorts.lowerBound)-\(clientPorts.upperBound)",
                                              seconds: 25, in: directory)
        let server = try Streamkit.start(["serve", "camera", "--port", "\(port)", "--address", "127.0.0.1", "--size", "320x240",
                                          "--duration", "30"], logsIn: directory)
        defer { Task { await server.stop() } }
        #expect(await Readiness.waitForTCP(port: UInt16(port)), "\(server.logs)")
        for transport in ["udp", "tcp"] {
            _ = try await ExternalTool.run("timeout", ["-k", "5", "20", "ffmpeg", "-v", "error", "-rtsp_transport", transport,
                                                 "-min_port", "\(clientPorts.lowerBound)", "-max_port", "\(clientPorts.upperBound)",
                                                 "-i", "rtsp://127.0.0.1:\(port)/live", "-t", "2", "-f", "null", "-"])
        }
        await server.stop()
        await capture.stop()
        let result = try await capture.dissect(decodingAs: ["tcp.port==\(port),rtsp"])
        #expect(result.verbose.contains("Real Time Streaming Protocol"))
        #expect(result.verbose.contains("Real-Time Transport Protocol"))
        #expect(result.verbose.contains("Real-time Transport Control Protocol"))
        #expect(result.problems.isEmpty, "\(result.problems.prefix(20).joined(separator: "\n"))")
        #expect(result.verbose.contains("FU identifier") || result.verbose.contains("FU-A"), "tshark dissected the H.264 payloads")
    }
}
#endif
