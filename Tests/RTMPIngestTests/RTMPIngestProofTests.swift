import Foundation
import Testing
import TestSupport

/// `streamkit receive --listen rtmp://…`: real publishers (Debian's ffmpeg with H.264 + AAC, the modern FFmpeg with
/// HEVC over Enhanced RTMP) push a real encode; what we record equals what ffmpeg itself extracts from the file it
/// sent, byte for byte; a wrong stream key is refused. Each test has a port of its own (``TestPorts``).
@Suite("RTMP ingest: receive --listen against ffmpeg publishers", .needsRealTime)
struct RTMPIngestProofTests {
    @Test("Debian's ffmpeg publishes H.264 + AAC: the .h264 and .aac equal ffmpeg's own; a wrong key is refused",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")), .timeLimit(.minutes(2)))
    func h264AndAAC() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let media = try IngestMedia(in: directory)
        let video = directory.appendingPathComponent("ingest.h264").path
        let audio = directory.appendingPathComponent("ingest.aac").path
        let receiver = try await Streamkit.start(["receive", "--listen", "rtmp://127.0.0.1:\(port)/live/secret", "-o", video,
                                                  "--audio-output", audio], in: directory, readyWhen: "listening on")
        defer { receiver.terminate() }
        // The wrong key first: refused, and the ingest keeps waiting for the right one.
        let wrong = try await ExternalTool.run("timeout", ["-k", "3", "15", "ffmpeg", "-v", "error", "-re", "-i", media.input, "-c", "copy",
                                                    "-f", "flv", "rtmp://127.0.0.1:\(port)/live/wrong"])
        #expect(wrong.status != 0, "a publisher with the wrong key was accepted")
        #expect(receiver.standardError.contains("refused publish of live/wrong"), "\(receiver.logs)")
        let publisher = try await ExternalTool.run("timeout", ["-k", "3", "30", "ffmpeg", "-v", "error", "-re", "-i", media.input, "-c", "copy",
                                                        "-f", "flv", "rtmp://127.0.0.1:\(port)/live/secret"])
        #expect(publisher.status == 0, "\(publisher.standardError)")
        try await Streamkit.finish(receiver)
        #expect(receiver.standardError.contains("received 50 video frames"), "\(receiver.logs)")
        #expect(IngestMedia.bytes(video) == IngestMedia.bytes(media.videoReference), "the H.264 differs from what ffmpeg sent")
        #expect(IngestMedia.bytes(audio) == IngestMedia.bytes(media.audioReference), "the AAC differs from what ffmpeg sent")
        #expect(!IngestMedia.bytes(video).isEmpty)
    }

    @Test("An .flv recording: ffprobe reads it, and its streams equal what was sent",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")), .timeLimit(.minutes(2)))
    func flvRecording() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let media = try IngestMedia(in: directory)
        let flv = directory.appendingPathComponent("ingest.flv").path
        let receiver = try await Streamkit.start(["receive", "--listen", "rtmp://127.0.0.1:\(port)/live/key1", "-o", flv],
                                                 in: directory, readyWhen: "listening on")
        defer { receiver.terminate() }
        let publisher = try await ExternalTool.run("timeout", ["-k", "3", "30", "ffmpeg", "-v", "error", "-re", "-i", media.input, "-c", "copy",
                                                        "-f", "flv", "rtmp://127.0.0.1:\(port)/live/key1"])
        #expect(publisher.status == 0, "\(publisher.standardError)")
        try await Streamkit.finish(receiver)
        let probe = try await ExternalTool.check("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                       "stream=codec_name,nb_read_frames", "-of", "csv=p=0", flv])
        let streams = probe.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
        #expect(streams == ["aac,95", "h264,50"], "\(probe.text)")
        let video = directory.appendingPathComponent("from-flv.h264").path
        let audio = directory.appendingPathComponent("from-flv.aac").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", flv, "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", video])
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-i", flv, "-map", "0:a", "-c", "copy", "-f", "adts", audio])
        #expect(IngestMedia.bytes(video) == IngestMedia.bytes(media.videoReference))
        #expect(IngestMedia.bytes(audio) == IngestMedia.bytes(media.audioReference))
    }

    @Test("The modern FFmpeg publishes HEVC over Enhanced RTMP: the .h265 equals ffmpeg's own",
          .enabled(if: ExternalTool.isRunnable("ffmpeg") && ModernFFmpeg.isRunnable), .timeLimit(.minutes(2)))
    func hevcEnhancedRTMP() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let media = try IngestMedia(hevc: true, in: directory)
        let video = directory.appendingPathComponent("ingest.h265").path
        let audio = directory.appendingPathComponent("ingest.aac").path
        let receiver = try await Streamkit.start(["receive", "--listen", "rtmp://127.0.0.1:\(port)/live/hevc", "-o", video,
                                                  "--audio-output", audio], in: directory, readyWhen: "listening on")
        defer { receiver.terminate() }
        let publisher = try await ExternalTool.run("timeout", ["-k", "3", "30", try ModernFFmpeg.path(), "-v", "error", "-re", "-i", media.input,
                                                        "-c", "copy", "-f", "flv", "rtmp://127.0.0.1:\(port)/live/hevc"])
        #expect(publisher.status == 0, "\(publisher.standardError)")
        try await Streamkit.finish(receiver)
        #expect(receiver.standardError.contains("video: hevc 320x240"), "\(receiver.logs)")
        #expect(IngestMedia.bytes(video) == IngestMedia.bytes(media.videoReference), "the H.265 differs from what ffmpeg sent")
        #expect(IngestMedia.bytes(audio) == IngestMedia.bytes(media.audioReference), "the AAC differs from what ffmpeg sent")
        #expect(!IngestMedia.bytes(video).isEmpty)
    }
}
