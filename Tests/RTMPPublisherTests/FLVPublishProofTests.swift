import Foundation
import Testing
import TestSupport

/// `streamkit publish x.flv rtmp://…`: an FLV ffmpeg wrote, sent as it is (no re-encode, like
/// `ffmpeg -re -i x.flv -c copy -f flv rtmp://…`) to ffmpeg as the server (`-listen 1 … -c copy`), which must
/// receive every packet byte for byte with its pts and dts (B-frame composition times). Each test has a port of its
/// own (``TestPorts``).
@Suite("publish x.flv → ffmpeg -listen (copy)", .needsRealTime, .serialized)
struct FLVPublishProofTests {
    /// One packet as `ffmpeg -c copy -f framemd5` lists it: stream, dts, pts, size and the payload's MD5.
    struct Packet: Hashable, CustomStringConvertible {
        var stream: Int, dts: Int, pts: Int, size: Int, hash: String
        var description: String { "#\(stream) dts \(dts) pts \(pts) \(size) B" }
    }

    /// The packets of a file, per stream, in the file's order (time base 1/1000 for FLV).
    static func packets(_ path: String, ffmpeg: String = "ffmpeg") throws -> [Packet] {
        let output = try ExternalTool.check(ffmpeg, ["-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "framemd5", "-"])
        return output.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 6, let stream = Int(fields[0]), let dts = Int(fields[1]), let pts = Int(fields[2]),
                  let size = Int(fields[4]) else { return nil }
            return Packet(stream: stream, dts: dts, pts: pts, size: size, hash: fields[5])
        }
    }

    /// Publishes `input` to an ffmpeg server and compares what it recorded with the input, stream by stream.
    static func publish(_ input: String, port: UInt16, key: String, extra: [String], server ffmpeg: String, in directory: URL) async throws {
        let received = directory.appendingPathComponent("received-\(key).flv").path
        let server = try PeerProcess(ffmpeg, ["-hide_banner", "-v", "error", "-listen", "1", "-i", "rtmp://127.0.0.1:\(port)/live/\(key)",
                                              "-map", "0", "-c", "copy", "-f", "flv", received], logsIn: directory)
        defer { Task { await server.stop() } }
        // ffmpeg accepts one connection only: wait until it listens, without probing the port.
        #expect(await Readiness.waitForListener(port: port), "\(server.logs)")
        let publisher = try await Streamkit.run(["publish", input, "rtmp://127.0.0.1:\(port)/live/\(key)"] + extra, in: directory)
        _ = await server.waitForExit(seconds: 15)
        await server.stop()
        let sent = try packets(input, ffmpeg: ffmpeg), got = try packets(received, ffmpeg: ffmpeg)
        #expect(sent.filter { $0.stream == 0 }.count >= 50 && sent.contains { $0.stream == 1 }, "the input has video and audio")
        for stream in Set(sent.map(\.stream)) {
            let ours = sent.filter { $0.stream == stream }
            // ffmpeg numbers the received streams in the order they arrive: match by the first payload.
            let theirStream = got.first { $0.hash == ours.first?.hash }?.stream ?? -1
            let theirs = got.filter { $0.stream == theirStream }
            #expect(theirs.count == ours.count, "stream \(stream): \(theirs.count) of \(ours.count) packets\n\(publisher.logs)\n\(server.logs)")
            let expected = ours.map { Packet(stream: theirStream, dts: $0.dts, pts: $0.pts, size: $0.size, hash: $0.hash) }
            let differences = zip(expected, theirs).filter { pair in pair.0 != pair.1 }.prefix(3).map { pair in "\(pair.0) → \(pair.1)" }
            #expect(theirs == expected, "stream \(stream): the same payloads with the same pts and dts; first differences: \(differences)")
        }
        #expect(publisher.standardError.contains("sent \(sent.filter { $0.stream == 0 }.count) video frames"), "\(publisher.logs)")
    }

    @Test("H.264 with B-frames + AAC that ffmpeg wrote: ffmpeg receives every packet unchanged, pts/dts kept",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")), arguments: [false, true])
    func h264(realTime: Bool) async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.flv").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi",
                                          "-i", "sine=frequency=440:sample_rate=44100", "-t", "3", "-c:v", "libx264", "-bf", "2",
                                          "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "flv", input])
        let sent = try Self.packets(input)
        #expect(sent.contains { $0.stream == 0 && $0.pts != $0.dts }, "the input has B-frames (composition times)")
        try await Self.publish(input, port: port, key: "h264", extra: realTime ? ["--re"] : [], server: "ffmpeg", in: directory)
    }

    @Test("H.265 over Enhanced RTMP that the modern FFmpeg wrote: it receives every packet unchanged",
          .enabled(if: ModernFFmpeg.isRunnable))
    func hevc() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let modern = try ModernFFmpeg.path()
        let input = directory.appendingPathComponent("in.flv").path
        try await ModernFFmpeg.check(["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi",
                                "-i", "sine=frequency=440:sample_rate=48000", "-t", "2", "-c:v", "libx265", "-x265-params",
                                "bframes=2:keyint=25:log-level=error", "-c:a", "aac", "-f", "flv", input])
        try await Self.publish(input, port: port, key: "hevc", extra: [], server: modern, in: directory)
    }

    @Test("Annex B H.264 with B-frames (x264): the composition times ffmpeg receives put the pictures in its decoder's display order",
          .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe", "x264")))
    func annexBWithBFrames() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("s.y4m").path
        let stream = directory.appendingPathComponent("s.h264").path
        try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25", "-frames:v", "50", source])
        try await ExternalTool.check("x264", ["--quiet", "--keyint", "25", "--bframes", "3", "--b-pyramid", "normal", "-o", stream, source])
        let displayed = try await ExternalTool.check("ffprobe", ["-v", "error", "-show_frames", "-show_entries", "frame=coded_picture_number",
                                                           "-of", "csv=p=0", stream]).text
            .split(separator: "\n").compactMap { Int($0.split(separator: ",").first ?? "") }
        let received = directory.appendingPathComponent("received.flv").path
        let server = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-listen", "1", "-i", "rtmp://127.0.0.1:\(port)/live/annexb",
                                                "-c", "copy", "-f", "flv", received], logsIn: directory)
        defer { Task { await server.stop() } }
        // ffmpeg accepts one connection only: wait until it listens, without probing the port.
        #expect(await Readiness.waitForListener(port: port), "\(server.logs)")
        let publisher = try await Streamkit.run(["publish", stream, "rtmp://127.0.0.1:\(port)/live/annexb"], in: directory)
        _ = await server.waitForExit(seconds: 15)
        await server.stop()
        let video = try Self.packets(received).filter { $0.stream == 0 }
        #expect(video.count == 50, "\(publisher.logs)\n\(server.logs)")
        #expect(zip(video, video.dropFirst()).allSatisfy { $0.dts < $1.dts }, "dts increase")
        #expect(video.allSatisfy { $0.pts >= $0.dts }, "no picture shown before it is decoded")
        #expect(video.contains { $0.pts != $0.dts }, "composition times are carried")
        let order = video.indices.sorted { video[$0].pts < video[$1].pts }
        #expect(order == displayed, "display order by the received pts = ffmpeg's decoder output order")
    }
}
