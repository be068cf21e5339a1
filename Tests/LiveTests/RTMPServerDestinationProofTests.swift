import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// Our RTMP server as a destination of a ``LivePipeline`` (``RTMPServerDestination``), played by ffmpeg on loopback:
/// the player joins once the stream is open, gets the sequence headers and then the pictures from the next key frame,
/// and decodes them strictly — the same pictures, from that key frame to the end, as an Annex B recording of the same
/// encoder beside it — and the audio. The camera and the microphone are paced in real time (4 s), as a player meets
/// a live stream.
@Suite(.needsRealTime, .enabled(if: LiveTestSupport.toolsAvailable))
struct RTMPServerDestinationProofTests {
    @Test(.enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)))
    func ffmpegPlaysWhatOurServerServes() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let (received, h264) = (directory.appendingPathComponent("played.md5").path, directory.appendingPathComponent("x.h264").path)
        let destination = try RTMPServerDestination(address: .loopback(.ipv4, port: port), path: "live/proof")
        #expect(destination.url == "rtmp://127.0.0.1:\(port)/live/proof")
        let players = Players()
        let watching = Task {
            for await event in destination.server.events {
                if case .playing(path: "live/proof", _) = event { players.countPlaying() }
            }
        }
        defer { watching.cancel() }

        let frames = 120
        let pipeline = try LiveTestSupport.filePipeline(frames: frames, realTime: true)
        let gated = AfterOpenDestination(destination) {
            let ffmpeg = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-y", "-err_detect", "explode", "-i", destination.url,
                                                    "-f", "framemd5", received], logsIn: directory)
            players.set(ffmpeg)
            let deadline = ContinuousClock.now + .seconds(10)
            while players.playing == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(players.playing == 1, "ffmpeg did not start playing\n\(ffmpeg.logs)")
        }
        pipeline.add(gated, options: .recording())
        pipeline.add(AnnexBFileDestination(path: h264), options: .recording())
        let report = try await pipeline.run()
        let ffmpeg = try #require(players.process)
        // The server's end closes the player's connection: ffmpeg drains its decoder, writes the listing and exits.
        let status = await ffmpeg.exitStatus(within: 10)
        await ffmpeg.stop()

        let sent = report.destinations[0]
        #expect(sent.failure == nil && sent.videoFramesSent == frames && sent.framesDropped == 0, "\(report)")
        #expect(status == 0 && ffmpeg.standardError.isEmpty, "ffmpeg exited with \(status)\n\(ffmpeg.logs)")
        let (pictures, audio) = LiveTestSupport.framemd5(received, hasAudio: LiveTestSupport.encodesAudio)
        let recorded = try await LiveTestSupport.pictureHashes(h264)
        #expect(recorded.count == frames)
        // From a key frame (one every 30 pictures) to the last picture, each the same as recorded.
        #expect(pictures.count >= 30 && (frames - pictures.count) % 30 == 0,
                "ffmpeg decoded \(pictures.count) of \(frames) pictures\n\(ffmpeg.logs)")
        #expect(pictures == Array(recorded.suffix(pictures.count)), "the pictures ffmpeg played are not the last \(pictures.count) recorded")
        if LiveTestSupport.encodesAudio {
            // The audio from the same key frame on: what was sent but for the time of the pictures the player joined
            // after (48 kHz, 1024 samples a frame, 30 pictures a second), and at most 4 frames (85 ms) at its edges.
            let missed = Double(frames - pictures.count) / 30 * 48_000 / 1024
            #expect(audio > 0 && audio <= sent.audioFramesSent && abs(Double(sent.audioFramesSent - audio) - missed) <= missed * 0.1 + 4,
                    "ffmpeg decoded \(audio) of \(sent.audioFramesSent) AAC frames, joining \(frames - pictures.count) pictures late")
        }
    }
}

/// The player a test starts from inside a destination, and how many players the server saw start.
private final class Players: Sendable {
    private let box = Mutex<(process: PeerProcess?, playing: Int)>((nil, 0))
    var process: PeerProcess? { box.withLock { $0.process } }
    var playing: Int { box.withLock { $0.playing } }
    func set(_ process: PeerProcess) { box.withLock { $0.process = process } }
    func countPlaying() { box.withLock { $0.playing += 1 } }
}
