#if FFmpeg
// These tests encode with our own `publish`: they need the FFmpeg engine (`--traits FFmpeg`).
import Foundation
import Testing
import TestSupport

/// `streamkit publish camera rtmp://…` (the synthetic camera and microphone: H.264 + AAC) into nginx-rtmp, and
/// Debian's ffmpeg pulling the stream back. Each test has a port of its own (``TestPorts``).
@Suite("publish → nginx-rtmp → ffmpeg", .needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("nginx", "ffmpeg", "ffprobe")))
struct NginxPublishProofTests {
    @Test("The pulled video equals our own Annex B file; audio decodes and starts with the video; B-frames keep pts/dts",
          arguments: [0, 2])
    func publishAndPullBack(bFrames: Int) async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let server = try await NginxRTMP(port: port, in: directory)
        defer { Task { await server.stop() } }
        let pulled = directory.appendingPathComponent("pulled.flv").path
        let saved = directory.appendingPathComponent("sent.h264").path
        let player = try PeerProcess("timeout", ["-k", "5", "40", "ffmpeg", "-hide_banner", "-v", "error", "-rtmp_live", "live",
                                                 "-i", "rtmp://127.0.0.1:\(port)/live/proof", "-c", "copy", "-f", "flv", pulled],
                                     logsIn: directory)
        defer { Task { await player.stop() } }
        try await Task.sleep(for: .seconds(1))
        let publisher = try await Streamkit.run(["publish", "camera", "rtmp://127.0.0.1:\(port)/live/proof", "--size", "320x240",
                                                 "--frames", "150", "--bframes", "\(bFrames)", "--gop", "30", "--save", saved],
                                                in: directory)
        // nginx may keep the last ~1.5 s from players when the publisher leaves: compare a prefix. Stopping nginx
        // ends the player's input, so it finishes its file by itself.
        try await Task.sleep(for: .seconds(2))
        await server.stop()
        await player.waitForExit(seconds: 15)
        await player.stop()
        let ours = try await Streamkit.frameHashes(decoding: saved)
        let theirs = try await Streamkit.frameHashes(decoding: pulled)
        #expect(ours.count == 150, "\(publisher.logs)")
        #expect(theirs.count >= 60, "ffmpeg pulled \(theirs.count) pictures\n\(player.logs)\n\(server.logs)")
        #expect(theirs == Array(ours.prefix(theirs.count)), "the pulled pictures are ours, from the first, in order")
        #expect(publisher.standardError.contains("sent 150 video frames"), "\(publisher.logs)")

        let packets = try ProbedPacket.read(pulled)
        let video = packets.filter(\.isVideo), audio = packets.filter { !$0.isVideo }
        #expect(audio.count >= video.count, "audio came along: \(audio.count) packets")
        let audioDecode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", pulled, "-map", "0:a", "-f", "null", "-"])
        #expect(audioDecode.status == 0 && audioDecode.standardError.isEmpty, "the audio decodes: \(audioDecode.standardError)")
        if let firstVideo = video.first, let firstAudio = audio.first {
            #expect(abs(firstVideo.pts - firstAudio.pts) <= 34, "A/V start within one frame: video \(firstVideo.pts) ms, audio \(firstAudio.pts) ms")
        }
        // Decode times never go back; presentation times are the frame grid, in display order once sorted.
        #expect(zip(video, video.dropFirst()).allSatisfy { $0.dts < $1.dts }, "video dts increase")
        #expect(video.allSatisfy { $0.pts >= $0.dts }, "no picture is shown before it is decoded")
        let shown = video.map(\.pts).sorted()
        let steps = zip(shown, shown.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { (20...50).contains($0) }, "pts about one frame apart, none twice: \(shown.prefix(12))")
        let reordered = video.filter { $0.pts != $0.dts }.count
        if bFrames > 0 {
            #expect(reordered > video.count / 4, "B-frames: composition times carried (\(reordered) of \(video.count) reordered)")
            #expect(zip(video, video.dropFirst()).contains { $1.pts < $0.pts }, "some pictures are shown before the previous one in decode order")
        }
    }
}
#endif
