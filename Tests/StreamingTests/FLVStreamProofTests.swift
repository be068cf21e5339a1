import Foundation
import Testing
import TestSupport

/// `streamkit stream x.flv rtsp://…`: an FLV ffmpeg wrote (H.264 with B-frames + AAC), its frames sent as RTP as
/// they are (no re-encode) to ffmpeg as the RTSP server (ANNOUNCE/RECORD), which decodes the same pictures as from
/// the file. Its port is its own (``TestPorts``).
@Suite("stream x.flv → ffmpeg -rtsp_flags listen", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct FLVStreamProofTests {
    /// The MD5 column of the `framemd5` rows of one stream.
    static func hashes(_ text: String, stream: Int) -> [String] {
        FrameMD5.hashes(text, stream: stream)
    }

    @Test("ffmpeg decodes the FLV's own pictures, in order, and its audio")
    func streamsAsItIs() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.flv").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi",
                                          "-i", "sine=frequency=440:sample_rate=44100", "-t", "3", "-c:v", "libx264", "-bf", "2",
                                          "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "flv", input])
        let reference = Self.hashes(try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", input, "-map", "0:v", "-f", "framemd5", "-"]).text,
                                    stream: 0)
        let received = directory.appendingPathComponent("received.md5").path
        let port = TestPorts.reserve()
        let server = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-rtsp_flags", "listen",
                                                "-i", "rtsp://127.0.0.1:\(port)/x", "-f", "framemd5", received], logsIn: directory)
        defer { Task { await server.stop() } }
        // ffmpeg accepts one connection only: wait until it listens, without probing the port.
        #expect(await Readiness.waitForListener(port: port), "\(server.logs)")
        let sender = try await Streamkit.run(["stream", input, "rtsp://127.0.0.1:\(port)/x", "--transport", "tcp"], in: directory)
        _ = await server.waitForExit(seconds: 10)
        await server.stop()
        let text = (try? String(contentsOfFile: received, encoding: .utf8)) ?? ""
        let video = Self.hashes(text, stream: 0), audio = Self.hashes(text, stream: 1)
        #expect(reference.count == 75)
        #expect(video == reference, "ffmpeg decoded \(video.count) of \(reference.count) pictures, ours in order\n\(server.logs)\n\(sender.logs)")
        #expect(audio.count >= 120, "ffmpeg decoded \(audio.count) audio frames\n\(server.logs)")
        #expect(sender.standardError.contains("sent 75 video frames"), "\(sender.logs)")
    }
}
