import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// RTP + SDP and RTSP publish (ANNOUNCE/RECORD) from a ``LivePipeline`` into ffmpeg, in process: ffmpeg reads the
/// SDP file the RTP destination writes, or is the RTSP server we publish to, and decodes the pictures we sent — the
/// same pictures as an Annex B recording of the same encoder beside it — and the audio. The camera and the
/// microphone are paced in real time (2 s), as a receiver meets a live stream; the receiver is started (and found
/// listening) before the first frame leaves.
@Suite(.needsRealTime, .enabled(if: LiveTestSupport.toolsAvailable))
struct NetworkDestinationProofTests {
    /// RTP to two ports of ours and an SDP file: `ffmpeg -protocol_whitelist file,udp,rtp -i x.sdp` decodes every
    /// picture, as recorded, and the AAC frames.
    @Test(.enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)))
    func ffmpegReadsTheSDPAndDecodesOurRTP() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve(4)
        let (sdp, received, h264) = (directory.appendingPathComponent("stream.sdp").path, directory.appendingPathComponent("received.md5").path,
                                     directory.appendingPathComponent("x.h264").path)
        let pipeline = try LiveTestSupport.filePipeline(frames: 60, realTime: true)
        let rtp = try #require(try LiveDestinations.destination(for: "rtp://127.0.0.1:\(port)",
                                                                 options: LiveDestinations.Options(sdpPath: sdp)) as? RTPDestination)
        let receiver = Receiver()
        let gated = AfterOpenDestination(rtp) {
            let ffmpeg = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-y", "-protocol_whitelist", "file,udp,rtp",
                                                    "-i", sdp, "-f", "framemd5", received], logsIn: directory)
            receiver.set(ffmpeg)
            for track in [port, port + 2] where LiveTestSupport.encodesAudio || track == port {
                #expect(await Readiness.waitForUDP(port: track, seconds: 10), "ffmpeg did not bind port \(track)\n\(ffmpeg.logs)")
            }
        }
        pipeline.add(gated, options: .recording())
        pipeline.add(AnnexBFileDestination(path: h264), options: .recording())
        let report = try await pipeline.run()
        let ffmpeg = try #require(receiver.process)
        // ffmpeg ends at our BYEs, or is told to end (it then drains its decoder and closes the listing).
        await ffmpeg.waitForExit(seconds: 3)
        await ffmpeg.stop()

        let sent = report.destinations[0]
        #expect(sent.failure == nil && sent.videoFramesSent == 60 && sent.framesDropped == 0, "\(report)")
        let sdpText = try String(contentsOfFile: sdp, encoding: .utf8)
        #expect(sdpText.contains("m=video \(port) RTP/AVP 96") && sdpText.contains("c=IN IP4 127.0.0.1"), "\(sdpText)")
        let (pictures, audio) = LiveTestSupport.framemd5(received, hasAudio: LiveTestSupport.encodesAudio)
        let recorded = try await LiveTestSupport.pictureHashes(h264)
        #expect(recorded.count == 60)
        #expect(pictures == recorded, "ffmpeg decoded \(pictures.count) of 60 pictures from RTP, as recorded\n\(ffmpeg.logs)")
        if LiveTestSupport.encodesAudio {
            #expect(sdpText.contains("m=audio \(port + 2) RTP/AVP 97"), "\(sdpText)")
            // A plain-RTP receiver may miss a few frames at its edges (what ffmpeg reads while it probes the two streams,
            // what is in flight at the BYE): at most 4 of about 95 (85 ms), measured 0 to 3 on a loaded machine.
            #expect(audio >= sent.audioFramesSent - 4 && audio > 0, "ffmpeg decoded \(audio) of \(sent.audioFramesSent) AAC frames\n\(ffmpeg.logs)")
        }
    }

    /// RTSP publish to `ffmpeg -rtsp_flags listen` over interleaved TCP and over UDP: ANNOUNCE, SETUP (record),
    /// RECORD, the packets, TEARDOWN; ffmpeg decodes every picture, as recorded, and the audio.
    @Test(.enabled(if: LiveTestSupport.encodesInRealTime, LiveTestSupport.realTimeSkip), .timeLimit(.minutes(2)), arguments: [RTSPLowerTransport.tcp, .udp])
    func ffmpegRecordsWhatWePublish(transport: RTSPLowerTransport) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let (received, h264) = (directory.appendingPathComponent("received.md5").path, directory.appendingPathComponent("x.h264").path)
        let url = "rtsp://127.0.0.1:\(port)/live"
        let server = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-y", "-rtsp_flags", "listen",
                                                "-i", url, "-f", "framemd5", received], logsIn: directory)
        defer { server.terminate() }
        #expect(await Readiness.waitForListener(port: port, seconds: 10), "\(server.logs)")

        let pipeline = try LiveTestSupport.filePipeline(frames: 60, realTime: true)
        let options = LiveDestinations.Options(rtspPublish: RTSPPublishDestination.Options(transport: transport))
        pipeline.add(try LiveDestinations.destination(for: url, options: options), options: .recording())
        pipeline.add(AnnexBFileDestination(path: h264), options: .recording())
        let report = try await pipeline.run()
        await server.waitForExit(seconds: 5)
        await server.stop()

        let sent = report.destinations[0]
        #expect(sent.failure == nil && sent.videoFramesSent == 60 && sent.framesDropped == 0, "\(report)\n\(server.logs)")
        let (pictures, audio) = LiveTestSupport.framemd5(received, hasAudio: LiveTestSupport.encodesAudio)
        let recorded = try await LiveTestSupport.pictureHashes(h264)
        #expect(pictures == recorded, "ffmpeg decoded \(pictures.count) of \(recorded.count) pictures we published over \(transport)\n\(server.logs)")
        if LiveTestSupport.encodesAudio {
            #expect(audio >= sent.audioFramesSent - 2 && audio > 0, "ffmpeg decoded \(audio) of \(sent.audioFramesSent) AAC frames")
        }
    }

    /// An RTSP server that is not there: the destination fails with a typed error naming RTSP, once, and the recording
    /// beside it gets every picture.
    @Test(.timeLimit(.minutes(1)))
    func aServerThatIsNotThereFailsTheDestinationAlone() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let h264 = directory.appendingPathComponent("x.h264").path
        let pipeline = try LiveTestSupport.filePipeline(frames: 30)
        pipeline.add(RTSPPublishDestination(url: "rtsp://127.0.0.1:\(port)/live"))
        pipeline.add(AnnexBFileDestination(path: h264), options: .recording())
        let events = LiveTestSupport.collect(pipeline.events)
        let report = try await pipeline.run()
        let failures = await events.value.compactMap { event -> (any Error)? in
            if case let .destinationFailed(_, error) = event { return error }
            return nil
        }
        #expect(failures.count == 1, "\(report)")
        if let failure = failures.first {
            guard case .rtsp = failure as? RTPDestinationError else {
                Issue.record("not an RTSP failure: \(failure)")
                return
            }
        }
        #expect(report.destinations[0].failure?.hasPrefix("RTSP: ") == true && report.destinations[0].videoFramesSent == 0, "\(report)")
        #expect(report.destinations[1].videoFramesSent == 30 && report.destinations[1].failure == nil, "\(report)")
        #expect(try await LiveTestSupport.videoFrameCount(h264) == 30)
    }
}

/// The receiver a test starts from inside a destination, handed back to the test.
private final class Receiver: Sendable {
    private let box = Mutex<PeerProcess?>(nil)
    var process: PeerProcess? { box.withLock { $0 } }
    func set(_ process: PeerProcess) { box.withLock { $0 = process } }
}
