#if OpenSSL
import Foundation
import StreamKit
import Testing
import TestSupport

/// WHIP ingest against a publisher nobody here wrote: FFmpeg 9's `-f whip` muxer (PyPI's imageio-ffmpeg) sends
/// testsrc through libx264 (Constrained Baseline, no B-frames) and a sine through libopus to our ``WHIPSource``,
/// which records MP4 (`avc1` + `Opus`/`dOps`); ffprobe and ffmpeg read the recording. Run inside a network
/// namespace with loopback alone (`unshare -rn sh -c 'ip link set lo up; swift test …'`).
@Suite("WHIP ingest: FFmpeg 9 publishes H.264 + Opus into our endpoint; NACK repairs 5 % loss", .needsRealTime)
struct WHIPIngestProofTests {
    static let seconds = 5
    static let frameRate = 30

    struct Recording {
        let pictures: Int
        let size: String
        let audioFrames: Int
        let audioCodec: String
        let decodeErrors: String
        let statistics: WebRTCMediaReceiver.Statistics?
        let session: WebRTCPeerSession.Statistics?
        let publisher: String
        let role: DTLSRole?
        /// What ``WHIPSource/publisherEvents`` said, in order.
        var publisherEvents: [WHIPPublisherEvent] = []
    }

    /// What ffprobe and ffmpeg read in a recording: the video's decoded pictures and size, the audio's frames and codec,
    /// and what `ffmpeg -f null` printed (its status is in `decodeStatus`).
    struct Probe {
        var pictures = 0
        var size = ""
        var audioFrames = 0
        var audioCodec = ""
        var videoCodec = ""
        var decodeErrors = ""
        var decodeStatus: Int32 = -1
    }

    /// Reads a recording with ffprobe (`-count_frames`) and decodes it with `ffmpeg -f null`.
    static func probe(_ output: String) async throws -> Probe {
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                             "stream=codec_type,codec_name,width,height,nb_read_frames", "-of", "compact=p=0:nk=0", output])
        var result = Probe()
        for line in probe.text.split(separator: "\n") {
            var fields: [String: String] = [:]
            for field in line.split(separator: "|") {
                let pair = field.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
            }
            if fields["codec_type"] == "video" {
                result.pictures = Int(fields["nb_read_frames"] ?? "") ?? 0
                result.size = "\(fields["width"] ?? "?")x\(fields["height"] ?? "?")"
                result.videoCodec = fields["codec_name"] ?? ""
            } else if fields["codec_type"] == "audio" {
                result.audioFrames = Int(fields["nb_read_frames"] ?? "") ?? 0
                result.audioCodec = fields["codec_name"] ?? ""
            }
        }
        let decoded = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
        result.decodeErrors = decoded.standardError
        result.decodeStatus = decoded.status
        return result
    }

    /// Publishes `seconds` of testsrc (`width`×240 at 30 fps, a key frame every `gop` pictures) and a 440 Hz sine
    /// with FFmpeg's whip muxer into a fresh ingest (its session configured by `configure`), records it, and reads it.
    /// With `dtlsActive` FFmpeg offers `a=setup:active` (`-whip_flags dtls_active`); without, its default `passive`.
    static func publish(width: Int = 320, bitRate: String = "300k", gop: Int = 30, dtlsActive: Bool = true,
                        configure: (inout WebRTCPeerSession.Configuration) -> Void = { _ in }) async throws -> Recording {
        let directory = try ExternalTool.temporaryDirectory()
        let output = directory.appendingPathComponent("ingest.mp4").path
        var configuration = WebRTCPeerSession.Configuration()
        configure(&configuration)
        let loop = try EventLoop()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        defer {
            server.stop()
            loop.shutdown()
        }
        let source = try WHIPSource(server: server, path: "/live/whip", token: "s3cret", configuration: configuration)
        server.start()
        let pipeline = LivePipeline(source: source)
        pipeline.add(MP4FileDestination(path: output), options: .recording())
        let running = Task { try await pipeline.run() }
        let heard = Task {
            var events: [WHIPPublisherEvent] = []
            for await event in source.publisherEvents { events.append(event) }
            return events
        }
        let ffmpeg = try ModernFFmpeg.path()
        let published = try await ExternalTool.run("timeout", [
            "-k", "5", "40", ffmpeg, "-hide_banner", "-nostats", "-re",
            "-f", "lavfi", "-i", "testsrc=size=\(width)x240:rate=\(frameRate)", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "\(seconds)", "-c:v", "libx264", "-profile:v", "baseline", "-bf", "0", "-g", "\(gop)", "-keyint_min", "\(gop)",
            "-sc_threshold", "0", "-b:v", bitRate, "-pix_fmt", "yuv420p", "-tune", "zerolatency",
            "-c:a", "libopus", "-ac", "2", "-b:a", "64k"] + (dtlsActive ? ["-whip_flags", "dtls_active"] : []) + [
            "-authorization", "s3cret", "-f", "whip", source.url,
        ])
        // FFmpeg DELETEs its resource at the end: the session closes and the source ends; a watchdog in case it does not.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(10))
            pipeline.stop()
        }
        let statistics = source.receiverStatistics
        let session = source.session?.statistics
        let role = source.session?.role
        let report = try await running.value
        watchdog.cancel()
        let events = await heard.value
        #expect(published.status == 0, "\(published.text.suffix(800))")
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        let probe = try await Self.probe(output)
        return Recording(pictures: probe.pictures, size: probe.size, audioFrames: probe.audioFrames, audioCodec: probe.audioCodec,
                         decodeErrors: probe.decodeErrors, statistics: statistics, session: session, publisher: published.text, role: role,
                         publisherEvents: events)
    }

    @Test("FFmpeg 9's whip muxer publishes H.264 + Opus with a bearer token; every picture and audio frame is in the MP4, and it decodes",
          .enabled(if: ModernFFmpeg.isRunnable))
    func ffmpegPublishes() async throws {
        let recording = try await Self.publish()
        print("WHIP FFmpeg: \(recording.pictures) pictures \(recording.size), \(recording.audioFrames) \(recording.audioCodec) frames; "
              + "receiver \(String(describing: recording.statistics))")
        let sent = Self.seconds * Self.frameRate
        #expect(recording.pictures == sent, "FFmpeg sent \(sent) pictures")
        #expect(recording.size == "320x240")
        #expect(recording.audioCodec == "opus")
        // 20 ms Opus packets: 250 in 5 s, give or take the encoder's last packet.
        #expect(abs(recording.audioFrames - Self.seconds * 50) <= 2, "\(recording.audioFrames) audio frames")
        #expect(recording.decodeErrors.isEmpty, "\(recording.decodeErrors)")
        let video = try #require(recording.statistics?.tracks["video"])
        #expect(video.framesLost == 0 && video.framesWithheld == 0)
        #expect(video.keyFrames == sent / 30)
        // The publisher's arrival, then its leaving (FFmpeg DELETEs its resource, or says goodbye first).
        print("WHIP FFmpeg publisher events: \(recording.publisherEvents)")
        #expect(recording.publisherEvents.count == 2 && recording.publisherEvents.first == .arrived(1), "\(recording.publisherEvents)")
        guard recording.publisherEvents.count == 2, case .left(1, _) = recording.publisherEvents[1] else {
            Issue.record("no departure of publisher 1: \(recording.publisherEvents)")
            return
        }
    }

    @Test("FFmpeg's default offer (a=setup:passive, no -whip_flags dtls_active): we answer a=setup:active and are the DTLS client; every picture is recorded",
          .enabled(if: ModernFFmpeg.isRunnable))
    func ffmpegDefaultRole() async throws {
        let recording = try await Self.publish(dtlsActive: false)
        print("WHIP FFmpeg default (we the DTLS client): \(recording.pictures) pictures \(recording.size), \(recording.audioFrames) "
              + "\(recording.audioCodec) frames; role \(recording.role.map { "\($0)" } ?? "-"); receiver \(String(describing: recording.statistics))")
        #expect(recording.role == .client)
        #expect(recording.pictures == Self.seconds * Self.frameRate, "FFmpeg sent \(Self.seconds * Self.frameRate) pictures")
        #expect(recording.size == "320x240")
        #expect(recording.audioCodec == "opus")
        #expect(abs(recording.audioFrames - Self.seconds * 50) <= 2, "\(recording.audioFrames) audio frames")
        #expect(recording.decodeErrors.isEmpty, "\(recording.decodeErrors)")
    }

    @Test("5 % of the video and audio packets dropped on arrival: NACKs bring them back (FFmpeg's rtx), ≥ 99 % of the pictures are recorded",
          .enabled(if: ModernFFmpeg.isRunnable))
    func nackRecovers() async throws {
        let recording = try await Self.publish(width: 640, bitRate: "1200k", gop: 150) { $0.inboundLossInterval = 20 }
        let video = try #require(recording.statistics?.tracks["video"])
        let audio = try #require(recording.statistics?.tracks["audio"])
        let dropped = recording.session?.droppedForTest ?? 0
        print("WHIP FFmpeg at 5 % loss: \(recording.pictures) pictures, \(recording.audioFrames) audio frames; dropped \(dropped); "
              + "video \(video); audio \(audio)")
        let sent = Self.seconds * Self.frameRate
        #expect(video.packets.received > 200, "enough packets for 5 % to matter")
        #expect(dropped >= (video.packets.received + audio.packets.received) / 25, "about 1 in 20 dropped")
        #expect(video.packets.requested > 0 && video.nackPackets > 0)
        #expect(video.retransmissions > 0, "FFmpeg answered with rtx")
        #expect(Double(video.packets.recovered) >= 0.99 * Double(video.packets.requested), "\(video.packets)")
        #expect(Double(recording.pictures) >= 0.99 * Double(sent), "\(recording.pictures) of \(sent) pictures")
        #expect(recording.size == "640x240")
        #expect(recording.decodeErrors.isEmpty, "\(recording.decodeErrors)")
    }
}
#endif
