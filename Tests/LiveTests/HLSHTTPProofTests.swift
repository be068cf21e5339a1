import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// HLS served from memory over HTTP (``HLSHTTPDestination`` on a ``LiveHTTPService``) against players nobody here
/// wrote: ffmpeg's HLS demuxer and GStreamer's `hlsdemux2` read the live playlist while it is live and decode every
/// picture (`-err_detect explode`), the pictures equal, hash for hash, a run of the recording the stream came from;
/// curl sees the media sequence advance, segments that left the window answer 404, and the CORS fields of a
/// cross-origin GET and of the preflight; a client that never reads and one that sends half a request lose only their
/// own connections.
@Suite("HLS over HTTP from the live pipeline, against ffmpeg, GStreamer and curl", .needsRealTime,
       .enabled(if: ExternalTool.isRunnable("ffmpeg", "curl")))
struct HLSHTTPProofTests {
    /// A 10 s recording by ffmpeg (250 pictures at 25 fps, a key frame every second, with AAC) to serve in real time.
    static func recording(in directory: URL) async throws -> String {
        try await HLSLiveWindowTests.source(in: directory, seconds: 10)
    }

    /// A running pipeline that serves a recording as live HLS: the service, the destination and the pipeline's task.
    struct LiveHLS {
        let service: LiveHTTPService
        let destination: HLSHTTPDestination
        let running: Task<LiveReport, any Error>

        /// The playlist's URL on 127.0.0.1.
        var playlistURL: String { destination.url }
        /// A resource's URL beside the playlist.
        func url(_ name: String) -> String { "\(service.baseURL)/\(destination.path)/\(name)" }

        /// Starts the pipeline.
        init(source: String, format: HLSSegmentFormat, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
            service = try LiveHTTPService(address: SocketAddress(host: "127.0.0.1", port: 0), configure: configure)
            destination = try HLSHTTPDestination(server: service.server, path: "cams/one",
                                                 options: HLSHTTPDestination.Options(segmentFormat: format, targetSegmentDuration: 1, windowSize: 3))
            let pipeline = LivePipeline(source: TSFileSource(path: source, pacing: .realTime))
            pipeline.add(destination)
            running = Task { try await pipeline.run() }
        }
    }

    /// A response as curl saw it: status, header fields (names lower-cased), body.
    struct Fetched {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// `curl -i` of a URL with extra request fields.
    static func fetch(_ url: String, method: String = "GET", headers: [String] = []) async throws -> Fetched {
        var arguments = ["-s", "-i", "--max-time", "5", "-X", method]
        for header in headers { arguments += ["-H", header] }
        let output = try await ExternalTool.run("curl", arguments + [url])
        let data = output.standardOutput
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return Fetched(status: 0, headers: [:], body: Data()) }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Fetched(status: status, headers: fields, body: Data(data[split.upperBound...]))
    }

    /// The `EXT-X-MEDIA-SEQUENCE` and segment URIs of a playlist.
    static func parse(_ playlist: String) -> (sequence: Int, segments: [String], ended: Bool) {
        let lines = playlist.split(separator: "\n").map(String.init)
        let sequence = lines.first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }.flatMap { Int($0.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) } ?? -1
        return (sequence, lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }, lines.contains("#EXT-X-ENDLIST"))
    }

    /// Polls the playlist until it answers 200 (the first segment is complete) and lists at least `segments`.
    static func waitForPlaylist(_ live: LiveHLS, segments: Int = 1, seconds: Double = 20) async throws -> Fetched {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let fetched = try await fetch(live.playlistURL)
            if fetched.status == 200, parse(String(decoding: fetched.body, as: UTF8.self)).segments.count >= segments { return fetched }
            #expect(fetched.status == 503 || fetched.status == 200, "before the first segment the playlist is 503, not \(fetched.status)")
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestFailure("the playlist never became available")
    }

    /// Whether `part` appears in `whole` as a contiguous run.
    static func isRun(_ part: [String], of whole: [String]) -> Bool {
        guard let first = part.first, !part.isEmpty else { return false }
        for start in whole.indices where whole[start] == first {
            if whole[start...].starts(with: part) { return true }
        }
        return false
    }

    @Test("ffmpeg plays the live playlist while it is live and decodes every picture and AAC frame it gets; they are a run of the source",
          arguments: [HLSSegmentFormat.fragmentedMP4, .mpegTS])
    func ffmpegPlaysWhileLive(format: HLSSegmentFormat) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let live = try LiveHLS(source: source, format: format)
        defer { live.service.stop() }
        let first = try await Self.waitForPlaylist(live)
        #expect(first.headers["content-type"] == "application/vnd.apple.mpegurl")
        #expect(first.headers["cache-control"] == "no-cache")
        #expect(!Self.parse(String(decoding: first.body, as: UTF8.self)).ended, "the stream must still be live when ffmpeg starts")
        let video = directory.appendingPathComponent("video.md5").path, audio = directory.appendingPathComponent("audio.md5").path
        let player = try await ExternalTool.run("timeout", ["-k", "5", "40", "ffmpeg", "-hide_banner", "-v", "error", "-err_detect", "explode",
                                                             "-i", live.playlistURL, "-map", "0:v:0", "-f", "framemd5", "-y", video,
                                                             "-map", "0:a:0", "-f", "framemd5", "-y", audio])
        #expect(player.status == 0, "\(player.standardError)")
        #expect(player.standardError.isEmpty, "\(player.standardError)")
        let report = try await live.running.value
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        let received = Streamkit.frameHashes(ofFile: video), sent = try await Streamkit.frameHashes(decoding: source)
        // ffmpeg starts three segments from the live end (its live_start_index): with 1 s segments and a window of
        // three, at least 7 of the 10 s reach it.
        #expect(received.count >= 150, "\(received.count) of \(sent.count) pictures")
        let isRun = Self.isRun(received, of: sent)
        #expect(isRun, "the pictures played are not a run of the source's")
        #expect(Streamkit.frameHashes(ofFile: audio).count >= 200, "AAC frames decoded: \(Streamkit.frameHashes(ofFile: audio).count)")
    }

    @Test("The media sequence advances, segments that left the window answer 404, and each resource has its type, cache rule and CORS fields")
    func slidingWindowOverHTTP() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let live = try LiveHLS(source: source, format: .fragmentedMP4)
        defer { live.service.stop() }
        let first = Self.parse(String(decoding: try await Self.waitForPlaylist(live).body, as: UTF8.self))
        let firstSegment = try #require(first.segments.first)
        // Wait until the window has moved on by more than its length plus the §6.2.2 grace (another window at most).
        var latest = first
        let deadline = ContinuousClock.now + .seconds(20)
        var sequences: [Int] = [first.sequence]
        while latest.sequence <= first.sequence + 6, !latest.ended, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(300))
            latest = Self.parse(String(decoding: try await Self.fetch(live.playlistURL).body, as: UTF8.self))
            sequences.append(latest.sequence)
        }
        #expect(sequences == sequences.sorted(), "EXT-X-MEDIA-SEQUENCE went back: \(sequences)")
        #expect(latest.sequence > first.sequence + 6, "the media sequence only went from \(first.sequence) to \(latest.sequence)")
        #expect(latest.segments.count == 3, "\(latest.segments)")
        let gone = try await Self.fetch(live.url(firstSegment))
        #expect(gone.status == 404, "\(firstSegment) is still served after leaving the window: \(gone.status)")
        let listed = try #require(latest.segments.last)
        let segment = try await Self.fetch(live.url(listed), headers: ["Origin: https://player.example"])
        #expect(segment.status == 200)
        #expect(segment.headers["content-type"] == "video/mp4")
        #expect(segment.headers["cache-control"]?.hasPrefix("max-age=") == true, "\(segment.headers)")
        #expect(segment.headers["access-control-allow-origin"] == "*", "\(segment.headers)")
        #expect(segment.body.count > 1000)
        let initialization = try await Self.fetch(live.url("init.mp4"))
        #expect(initialization.status == 200 && initialization.headers["content-type"] == "video/mp4")
        let preflight = try await Self.fetch(live.playlistURL, method: "OPTIONS",
                                             headers: ["Origin: https://player.example", "Access-Control-Request-Method: GET",
                                                       "Access-Control-Request-Headers: range"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
        #expect(preflight.headers["access-control-allow-methods"]?.contains("GET") == true, "\(preflight.headers)")
        #expect(preflight.headers["access-control-allow-headers"]?.lowercased().contains("range") == true, "\(preflight.headers)")
        let cross = try await Self.fetch(live.playlistURL, headers: ["Origin: https://player.example"])
        #expect(cross.headers["access-control-allow-origin"] == "*", "\(cross.headers)")
        // What the window holds stays bounded: the listed segments and at most as many kept for §6.2.2.
        #expect(live.destination.snapshot.heldSegmentCount <= 6)
        #expect(try await Self.fetch(live.url("segment_x.m4s")).status == 404)
        #expect(try await Self.fetch(live.url("../index.m3u8")).status == 404)
        _ = try await live.running.value
        let ended = Self.parse(String(decoding: try await Self.fetch(live.playlistURL).body, as: UTF8.self))
        #expect(ended.ended, "no EXT-X-ENDLIST after the stream ended")
    }

    @Test("A client that never reads its segment and one that sends half a request lose their own connections; curl and ffprobe go on")
    func hostileClientsLoseOnlyTheirConnections() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let live = try LiveHLS(source: source, format: .mpegTS) { $0.requestTimeout = .seconds(2) }
        defer { live.service.stop() }
        let playlist = Self.parse(String(decoding: try await Self.waitForPlaylist(live).body, as: UTF8.self))
        let segment = try #require(playlist.segments.last)
        let port = live.service.server.localAddress.port
        // Ten connections that ask for a segment with a tiny receive buffer and never read, and one that never
        // finishes its request line.
        var stuck: [Int32] = []
        defer { for descriptor in stuck { close(descriptor) } }
        for index in 0...10 {
            let descriptor = try #require(Self.connect(port: port))
            stuck.append(descriptor)
            let request = index == 10 ? "GET /cams/one/ind" : "GET /cams/one/\(segment) HTTP/1.1\r\nHost: x\r\n\r\n"
            _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        }
        let probe = try await ExternalTool.run("timeout", ["-k", "5", "20", "ffprobe", "-v", "error", "-show_entries", "stream=codec_name",
                                                            "-of", "csv=p=0", live.playlistURL])
        #expect(probe.status == 0 && probe.text.contains("h264") && probe.text.contains("aac"), "\(probe.text)\n\(probe.standardError)")
        try await Task.sleep(for: .seconds(3))
        #expect(live.service.server.statistics.timeouts >= 1, "\(live.service.server.statistics)")
        #expect(try await Self.fetch(live.playlistURL).status == 200)
        let report = try await live.running.value
        #expect(report.destinations.first?.failure == nil)
        #expect(report.destinations.first?.framesDropped == 0)
    }

    /// GStreamer's player, run with Debian's Python (the one that has GStreamer's bindings): `uridecodebin3` (souphttpsrc and
    /// hlsdemux2, GStreamer 1.22's HLS demuxer for fMP4 and TS, which needs that streams-aware parent) decoding to raw
    /// I420 in a file, until the end of the stream. `gst-launch-1.0` would pause on hlsdemux2's buffering messages and
    /// never reach its 30 s watermark on a live window of 3 s, so the script plays through them.
    static let gstreamerPlayer = """
        import sys, gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
        Gst.init(None)
        url, out = sys.argv[1], sys.argv[2]
        pipeline = Gst.parse_launch(f"uridecodebin3 uri={url} caps=video/x-raw ! videoconvert ! video/x-raw,format=I420 ! filesink location={out}")
        pipeline.set_state(Gst.State.PLAYING)
        message = pipeline.get_bus().timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        pipeline.set_state(Gst.State.NULL)
        if message is None:
            sys.exit(2)
        if message.type == Gst.MessageType.ERROR:
            print(message.parse_error(), file=sys.stderr)
            sys.exit(1)
        """

    @Test("GStreamer (uridecodebin3: souphttpsrc, hlsdemux2) plays the live stream: its pictures are a run of the source's",
          .enabled(if: ExternalTool.isRunnable("gst-launch-1.0") && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")),
          arguments: [HLSSegmentFormat.fragmentedMP4, .mpegTS])
    func gstreamerPlays(format: HLSSegmentFormat) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let source = try await Self.recording(in: directory)
        let script = directory.appendingPathComponent("play.py")
        try Self.gstreamerPlayer.write(to: script, atomically: true, encoding: .utf8)
        let live = try LiveHLS(source: source, format: format)
        defer { live.service.stop() }
        // A player starts three target durations from the end (RFC 8216 §6.3.3): hlsdemux2 waits for as much.
        _ = try await Self.waitForPlaylist(live, segments: 3)
        let raw = directory.appendingPathComponent("gst.yuv").path
        let gst = try await ExternalTool.run("timeout", ["-k", "5", "60", "/usr/bin/python3", script.path, live.playlistURL, raw])
        #expect(gst.status == 0, "\(gst.standardError)")
        _ = try await live.running.value
        let received = try await ExternalTool.check("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "160x120",
                                                               "-i", raw, "-f", "framemd5", "-"])
        let pictures = FrameMD5.hashes(received.text), sent = try await Streamkit.frameHashes(decoding: source)
        #expect(pictures.count >= 125, "\(pictures.count) of \(sent.count) pictures")
        let isRun = Self.isRun(pictures, of: sent)
        #expect(isRun, "GStreamer's pictures are not a run of the source's")
    }

    /// A TCP connection to 127.0.0.1 with a 1 KiB receive buffer.
    static func connect(port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var size: Int32 = 1024
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
