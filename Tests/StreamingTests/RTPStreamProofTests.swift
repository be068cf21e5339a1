#if FFmpeg
// These tests encode with our own `stream`/`serve`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// `streamkit stream … rtp://` with ffmpeg as the receiver (`ffmpeg -protocol_whitelist file,udp,rtp -i our.sdp`):
/// what ffmpeg decodes from our RTP is frame for frame what it decodes from the Annex B file of the same encode
/// (`--save`). Each codec has ports of its own (``TestPorts``).
@Suite("stream rtp:// → ffmpeg", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct RTPStreamProofTests {
    @Test("ffmpeg decodes our RTP to the frames of our own Annex B file", arguments: ["h264", "hevc"])
    func ffmpegReceives(codec: String) async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        let sdp = directory.appendingPathComponent("our.sdp").path
        let saved = directory.appendingPathComponent("sent.\(codec)").path
        let received = directory.appendingPathComponent("received.md5").path
        let common = ["stream", "testsrc", "rtp://127.0.0.1:\(port)", "--size", "320x240", "--codec", codec, "--gop", "30", "--mtu", "600"]
        // A first, one-frame run writes the SDP (ffmpeg must listen before the stream starts).
        try await Streamkit.run(common + ["--sdp", sdp, "--frames", "1"], in: directory)
        // `-flush_packets 1`: each frame's line reaches the file at once, so the test can see how far ffmpeg has got.
        let ffmpeg = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-protocol_whitelist", "file,udp,rtp", "-i", sdp,
                                                "-flush_packets", "1", "-f", "framemd5", received], logsIn: directory)
        #expect(await Readiness.waitForUDP(port: port), "\(ffmpeg.logs)")
        let sender = try await Streamkit.run(common + ["--sdp", directory.appendingPathComponent("second.sdp").path, "--frames", "90",
                                                       "--save", saved], in: directory)
        let ours = try await Streamkit.frameHashes(decoding: saved)
        // ffmpeg can only finish the last access unit when it ends (no next one starts), so wait for all but that one
        // to be written — a loaded machine may keep ffmpeg seconds behind the sender — then stop it (SIGINT flushes).
        let deadline = ContinuousClock.now + .seconds(20)
        while Streamkit.frameHashes(ofFile: received).count < ours.count - 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(300))
        await ffmpeg.stop()
        let theirs = Streamkit.frameHashes(ofFile: received)
        #expect(ours.count == 90, "\(sender.logs)")
        #expect(theirs == ours, "ffmpeg decoded \(theirs.count) frames from RTP, \(ours.count) from the file\n\(ffmpeg.logs)")
    }
}
#endif
