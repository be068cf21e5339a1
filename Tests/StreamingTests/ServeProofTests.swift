#if FFmpeg
// These tests encode with our own `stream`/`serve`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// `streamkit serve` with ffmpeg as the client: video and audio over UDP and TCP, with and without Digest
/// authentication, a wrong password refused; `streamkit receive` against it. Each test has a port of its own (``TestPorts``).
@Suite("serve → ffmpeg", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct ServeProofTests {
    /// Reads the server with ffmpeg for two seconds; the decoded video and audio frame counts.
    static func play(_ url: String, transport: String, in directory: URL) async throws -> (video: Int, audio: Int, log: String) {
        let output = try await ExternalTool.run("timeout", ["-k", "5", "25", "ffmpeg", "-hide_banner", "-v", "error", "-rtsp_transport", transport,
                                                      "-i", url, "-t", "2", "-f", "framemd5", "-"])
        let lines = output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        return (lines.filter { $0.hasPrefix("0,") }.count, lines.filter { $0.hasPrefix("1,") }.count, output.standardError)
    }

    @Test("ffmpeg plays video and audio over UDP and TCP, with and without Digest", arguments: [false, true])
    func ffmpegPlays(withDigest: Bool) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let credentials = withDigest ? ["--user", "admin", "--password", "s3cret"] : []
        let server = try Streamkit.start(["serve", "camera", "--port", "\(port)", "--address", "127.0.0.1", "--size", "320x240",
                                          "--duration", "40"] + credentials, logsIn: directory)
        defer { Task { await server.stop() } }
        #expect(await Readiness.waitForTCP(port: port), "\(server.logs)")
        let url = withDigest ? "rtsp://admin:s3cret@127.0.0.1:\(port)/live" : "rtsp://127.0.0.1:\(port)/live"
        for transport in ["udp", "tcp"] {
            let result = try await Self.play(url, transport: transport, in: directory)
            // Two seconds at 30 fps; a loaded machine's live camera drops what the encoder cannot take, so the
            // bound asks for a sixth of it (counts are not timed assertions).
            #expect(result.video >= 10, "\(transport): \(result.video) video frames\n\(result.log)\n\(server.logs)")
            #expect(result.audio >= 40, "\(transport): \(result.audio) audio frames\n\(result.log)")
        }
        if withDigest {
            let refused = try await Self.play("rtsp://admin:wrong@127.0.0.1:\(port)/live", transport: "tcp", in: directory)
            #expect(refused.video == 0 && refused.audio == 0)
            #expect(refused.log.contains("401"), "\(refused.log)")
        }
        // Our own client against our own server, over TCP: Digest answered, frames decoded.
        let received = directory.appendingPathComponent("received.h264").path
        let receiver = try await Streamkit.run(["receive", url, "-o", received, "--transport", "tcp", "--duration", "3"], in: directory)
        let report = ReceiveReport(receiver.standardError)
        #expect(report.videoGood > 20, "\(receiver.logs)")
        #expect(report.videoLost == 0)
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", received, "-f", "null", "-"])
        // And into an MP4: both tracks, as received (no decoding), every good picture in it.
        let recorded = directory.appendingPathComponent("received.mp4").path
        let recorder = try await Streamkit.run(["receive", url, "-o", recorded, "--transport", "tcp", "--frames", "30"], in: directory)
        #expect(ReceiveReport(recorder.standardError).videoGood >= 30, "\(recorder.logs)")
        let streams = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_name,nb_read_frames",
                                                         "-of", "csv=p=0", recorded]).text
        #expect(streams.contains("h264,30") && streams.contains("aac,"), "\(streams)")
        await server.stop()
    }
}
#endif
