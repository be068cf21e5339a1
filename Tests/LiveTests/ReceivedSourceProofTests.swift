import Foundation
import StreamKit
import Testing
import TestSupport

/// Received streams as sources, in-process against real peers: ffmpeg publishing to our RTMP ingest (recorded into an
/// MP4 and served again over RTSP at once), and ffmpeg sending plain RTP that ``Y4MFileDestination`` decodes
/// straight from the access units — the pictures equal ffmpeg's own decode of what it sent.
@Suite(.needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg") || ProcessInfo.processInfo.environment["CI"] == "true"))
struct ReceivedSourceProofTests {
    /// 50 frames of H.264 (Constrained Baseline, so the native decoder takes it too; parameter sets in band) and AAC.
    private static func makeInput(in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("input.mkv").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-frames:v", "50", "-t", "2",
                                          "-c:v", "libx264", "-profile:v", "baseline", "-g", "25", "-x264-params", "repeat-headers=1",
                                          "-pix_fmt", "yuv420p", "-c:a", "aac", "-y", path])
        return path
    }

    @Test("RTMP ingest: ffmpeg publishes; the MP4 has every picture and every AAC frame, with an RTSP server destination beside it",
          .enabled(if: ExternalTool.isRunnable("ffprobe") || ProcessInfo.processInfo.environment["CI"] == "true"), .timeLimit(.minutes(2)))
    func rtmpIngestIsRecordedAndServed() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = try await Self.makeInput(in: directory)
        let port = TestPorts.reserve(), rtspPort = TestPorts.reserve()
        let ingest = try RTMPSource(listeningAt: "rtmp://127.0.0.1:\(port)/live/key")
        let pipeline = LivePipeline(source: ingest)
        let recording = directory.appendingPathComponent("ingest.mp4").path
        pipeline.add(MP4FileDestination(path: recording), options: .recording())
        pipeline.add(try RTSPServerDestination(configuration: RTSPServerConfiguration(address: try SocketAddress(host: "127.0.0.1", port: rtspPort))))
        let running = Task { try await pipeline.run() }
        let publisher = try await ExternalTool.run("timeout", ["-k", "3", "30", "ffmpeg", "-hide_banner", "-v", "error", "-re", "-i", input,
                                                         "-c", "copy", "-f", "flv", "rtmp://127.0.0.1:\(port)/live/key"])
        #expect(publisher.status == 0, "\(publisher.standardError)")
        let report = try await running.value
        #expect(report.destinations.allSatisfy { $0.failure == nil }, "\(report)")
        #expect(ingest.statistics.videoFramesGood == 50, "\(ingest.statistics)")
        let audioPackets = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries",
                                                              "stream=nb_read_packets", "-of", "csv=p=0", input]).text
        #expect(ingest.statistics.audioFramesGood == Int(audioPackets.trimmingCharacters(in: .whitespacesAndNewlines)), "\(ingest.statistics)")
        let recordedAudio = try await ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries",
                                                               "stream=nb_read_packets", "-of", "csv=p=0", recording]).text
        #expect(recordedAudio == audioPackets, "every AAC frame recorded")
        let codecs = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name",
                                                        "-of", "csv=p=0", recording]).text
        #expect(codecs.contains("h264,video") && codecs.contains("aac,audio"), "\(codecs)")
        #expect(try await LiveTestSupport.pictureHashes(recording) == (try await LiveTestSupport.pictureHashes(input)),
                "the recorded pictures are the published ones")
    }

    @Test("RTP from an SDP without parameter sets: the source learns them in band; Y4M decodes every picture as ffmpeg does",
          .timeLimit(.minutes(2)))
    func rtpIsDecodedFromAccessUnits() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = try await Self.makeInput(in: directory)
        let port = TestPorts.reserve(2)
        let sdp = """
            v=0
            o=- 0 0 IN IP4 127.0.0.1
            s=proof
            c=IN IP4 127.0.0.1
            t=0 0
            m=video \(port) RTP/AVP 96
            a=rtpmap:96 H264/90000
            a=fmtp:96 packetization-mode=1

            """
        let sdpPath = directory.appendingPathComponent("in-band.sdp").path
        try sdp.write(toFile: sdpPath, atomically: true, encoding: .utf8)
        let source = RTPSource(sdpFile: sdpPath)
        let pipeline = LivePipeline(source: source)
        let pictures = Y4MFileDestination(path: directory.appendingPathComponent("received.y4m").path)
        pipeline.add(pictures, options: .recording())
        let running = Task { try await pipeline.run() }
        #expect(await Readiness.waitForUDP(port: port))
        let sender = try await ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-re", "-i", input, "-map", "0:v", "-c", "copy",
                                                     "-f", "rtp", "rtp://127.0.0.1:\(port)?pkt_size=1200"])
        #expect(sender.status == 0, "\(sender.standardError)")
        try await Task.sleep(for: .seconds(1))
        pipeline.stop()
        _ = try await running.value
        let statistics = source.statistics
        #expect(statistics.videoFramesGood == 50 && statistics.videoFramesLost == 0, "\(statistics.summaryLines)")
        #expect(statistics.rtp?.datagramsParsed == statistics.rtp?.video?.packetsReceived, "each datagram parsed once")
        #expect(pictures.picturesWritten == 50 && pictures.picturesUndecodable == 0)
        #expect(try await LiveTestSupport.pictureHashes(pictures.path) == (try await LiveTestSupport.pictureHashes(input)),
                "the decoded pictures are ffmpeg's own decode of what was sent")
    }

    @Test("RTP with B-frames (x264 High, x265) into an MP4: decode times from the SPS keep every picture in its place",
          .enabled(if: ExternalTool.isRunnable("ffprobe") || ProcessInfo.processInfo.environment["CI"] == "true"),
          arguments: [("h264", "libx264", "H264"), ("hevc", "libx265", "H265")])
    func reorderedRTPIntoMP4(codec: String, encoder: String, encoding: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let input = directory.appendingPathComponent("input-\(codec).mkv").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                                          "-frames:v", "50", "-c:v", encoder, "-g", "25", "-bf", "3", "-pix_fmt", "yuv420p"]
                                     + (codec == "hevc" ? ["-x265-params", "repeat-headers=1:log-level=error"] : ["-x264-params", "repeat-headers=1"])
                                     + ["-y", input])
        let port = TestPorts.reserve(2)
        let sdp = "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=proof\nc=IN IP4 127.0.0.1\nt=0 0\nm=video \(port) RTP/AVP 96\n"
            + "a=rtpmap:96 \(encoding)/90000\n" + (codec == "h264" ? "a=fmtp:96 packetization-mode=1\n" : "")
        let sdpPath = directory.appendingPathComponent("\(codec).sdp").path
        try sdp.write(toFile: sdpPath, atomically: true, encoding: .utf8)
        let source = RTPSource(sdpFile: sdpPath)
        let pipeline = LivePipeline(source: source)
        let recording = directory.appendingPathComponent("\(codec).mp4").path
        pipeline.add(MP4FileDestination(path: recording), options: .recording())
        let running = Task { try await pipeline.run() }
        #expect(await Readiness.waitForUDP(port: port))
        let sender = try await ExternalTool.run("ffmpeg", ["-hide_banner", "-v", "error", "-re", "-i", input, "-c", "copy",
                                                     "-f", "rtp", "rtp://127.0.0.1:\(port)?pkt_size=1200"])
        #expect(sender.status == 0, "\(sender.standardError)")
        try await Task.sleep(for: .seconds(1))
        pipeline.stop()
        let report = try await running.value
        #expect(report.destinations.allSatisfy { $0.failure == nil }, "\(report)")
        #expect(source.statistics.videoFramesGood == 50, "\(source.statistics.summaryLines)")
        #expect(try await LiveTestSupport.videoFrameCount(recording) == 50)
        #expect(try await LiveTestSupport.pictureHashes(recording) == (try await LiveTestSupport.pictureHashes(input)),
                "the MP4's pictures, in display order, are the sent ones")
    }
}
