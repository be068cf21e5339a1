#if OpenSSL && FFmpeg
import Foundation
import Testing
import TestSupport

/// `streamkit serve whip --http-port N`: a WHIP ingest re-served, as MediaMTX does one path. FFmpeg 9's `-f whip`
/// muxer (PyPI's imageio-ffmpeg) publishes testsrc through libx264 and a sine through libopus to `/PATH/whip`; while it
/// is live, Debian's ffmpeg reads the same stream over RTSP (`rtsp://…/PATH`: H.264 at the publisher's size and Opus,
/// RFC 7587) and over HLS (`/PATH/index.m3u8`, fMP4 with the `Opus` sample entry), and an RTMP player gets the video
/// alone, and aiortc plays it over WHEP (`/PATH/whep`: H.264 and the publisher's Opus). A second publisher is refused (`503`) while the first stays live; once the first leaves, the server goes on
/// and a new publisher takes the path. Run inside a network namespace with loopback alone (scripts/test.sh's WebRTC
/// pass), on the test's own ports (``TestPorts``).
@Suite("serve whip: FFmpeg 9 publishes over WHIP, ffmpeg plays it over RTSP, HLS and RTMP", .needsRealTime, .serialized,
       .enabled(if: ModernFFmpeg.isRunnable))
struct ServeWHIPProofTests {
    /// What ffprobe counted in a file.
    struct Probe: CustomStringConvertible {
        var pictures = 0
        var size = ""
        var videoCodec = ""
        var audioFrames = 0
        var audioCodec = ""
        var description: String { "\(pictures) \(videoCodec) pictures \(size), \(audioFrames) \(audioCodec) frames" }
    }

    /// Starts FFmpeg 9 publishing `seconds` of testsrc (320×240 unless given) at 30 fps (a key frame a second) and a
    /// 440 Hz sine.
    static func publisher(to url: String, seconds: Int, size: String = "320x240", in directory: URL) throws -> PeerProcess {
        try PeerProcess(ModernFFmpeg.path(), [
            "-hide_banner", "-nostats", "-re",
            "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "\(seconds)", "-c:v", "libx264", "-profile:v", "baseline", "-bf", "0", "-g", "30", "-keyint_min", "30",
            "-sc_threshold", "0", "-b:v", "300k", "-pix_fmt", "yuv420p", "-tune", "zerolatency",
            "-c:a", "libopus", "-ac", "2", "-b:a", "64k", "-whip_flags", "dtls_active", "-authorization", "s3cret",
            "-f", "whip", url,
        ], logsIn: directory)
    }

    /// Copies `seconds` of a live URL into a Matroska file (which holds H.264 and Opus) with Debian's ffmpeg, then counts
    /// its frames with ffprobe.
    static func read(_ url: String, seconds: Int, into path: String, options: [String] = []) async throws -> (Probe, String) {
        let copied = try await ExternalTool.run("timeout", ["-k", "3", "\(seconds + 15)", "ffmpeg", "-hide_banner", "-v", "error", "-y"]
            + options + ["-i", url, "-t", "\(seconds)", "-map", "0", "-c", "copy", path])
        var probe = Probe()
        guard FileManager.default.fileExists(atPath: path) else { return (probe, copied.text) }
        let counted = try await ExternalTool.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                              "stream=codec_type,codec_name,width,height,nb_read_frames", "-of", "compact=p=0:nk=0", path])
        for line in counted.text.split(separator: "\n") {
            var fields: [String: String] = [:]
            for field in line.split(separator: "|") {
                let pair = field.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
            }
            if fields["codec_type"] == "video" {
                probe.pictures = Int(fields["nb_read_frames"] ?? "") ?? 0
                probe.size = "\(fields["width"] ?? "?")x\(fields["height"] ?? "?")"
                probe.videoCodec = fields["codec_name"] ?? ""
            } else if fields["codec_type"] == "audio" {
                probe.audioFrames = Int(fields["nb_read_frames"] ?? "") ?? 0
                probe.audioCodec = fields["codec_name"] ?? ""
            }
        }
        return (probe, copied.text + counted.text)
    }

    /// aiortc as a WHEP player: a recvonly offer (video and audio) POSTed to the URL; it decodes `frames` pictures and
    /// counts the audio frames it decodes meanwhile, DELETEs its session, and prints one JSON line.
    static let aiortcPlayer = #"""
    import asyncio, json, sys, urllib.request, urllib.parse
    import aioice.ice
    aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
    from aiortc import RTCPeerConnection, RTCSessionDescription

    url, wanted = sys.argv[1], int(sys.argv[2])
    async def main():
        pc = RTCPeerConnection()
        pc.addTransceiver("video", direction="recvonly")
        pc.addTransceiver("audio", direction="recvonly")
        done = asyncio.get_event_loop().create_future()
        result = {"frames": 0, "audio": 0}
        @pc.on("track")
        def on_track(track):
            async def read():
                while not done.done():
                    frame = await track.recv()
                    if track.kind == "audio":
                        result["audio"] += 1
                        result["sampleRate"] = frame.sample_rate
                    else:
                        result["frames"] += 1
                        result["size"] = f"{frame.width}x{frame.height}"
                        if result["frames"] >= wanted:
                            done.set_result(True)
            asyncio.ensure_future(read())
        await pc.setLocalDescription(await pc.createOffer())
        request = urllib.request.Request(url, data=pc.localDescription.sdp.encode(), headers={"Content-Type": "application/sdp"}, method="POST")
        with urllib.request.urlopen(request) as response:
            result["status"] = response.status
            location = response.headers["Location"]
            answer = response.read().decode()
        await pc.setRemoteDescription(RTCSessionDescription(sdp=answer, type="answer"))
        try:
            await asyncio.wait_for(done, 20)
        except asyncio.TimeoutError:
            result["timeout"] = True
        delete = urllib.request.Request(urllib.parse.urljoin(url, location), method="DELETE")
        with urllib.request.urlopen(delete) as response:
            result["delete"] = response.status
        await pc.close()
        print(json.dumps(result), flush=True)
    asyncio.run(main())
    """#

    @Test("FFmpeg publishes H.264 + Opus to /cam/whip; RTSP and HLS players get 320×240 H.264 with Opus, RTMP the video alone; a second publisher gets 503; the next one after it leaves is served")
    func ingestReServed() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ports = TestPorts.reserve(3)
        let server = try await Streamkit.start(["serve", "whip", "--port", "\(ports)", "--http-port", "\(ports + 1)", "--rtmp-port", "\(ports + 2)",
                                                "--address", "127.0.0.1", "--path", "cam", "--bearer-token", "s3cret", "--segment-duration", "1",
                                                "--duration", "90"],
                                               in: directory, readyWhen: "taking a WHIP publisher")
        defer { server.terminate() }
        let whip = "http://127.0.0.1:\(ports + 1)/cam/whip"
        #expect(server.standardError.contains("taking a WHIP publisher at \(whip) (bearer token)"), "\(server.logs)")

        // The first publisher: 14 s. While it is live, RTSP, HLS and RTMP players read it at once.
        let first = try Self.publisher(to: whip, seconds: 14, in: directory)
        defer { first.terminate() }
        try await Task.sleep(for: .seconds(4))
        #expect(first.isRunning, "\(first.logs)")
        async let rtsp = Self.read("rtsp://127.0.0.1:\(ports)/cam", seconds: 4, into: directory.appendingPathComponent("rtsp.mkv").path,
                                   options: ["-rtsp_transport", "tcp"])
        async let hls = Self.read("http://127.0.0.1:\(ports + 1)/cam/index.m3u8", seconds: 2, into: directory.appendingPathComponent("hls.mkv").path)
        async let rtmp = Self.read("rtmp://127.0.0.1:\(ports + 2)/live/cam", seconds: 3, into: directory.appendingPathComponent("rtmp.mkv").path)
        let playsWHEP = PythonPeers.isRunnable("aiortc", "aioice")
        async let whep = playsWHEP ? PythonPeers.run(Self.aiortcPlayer, ["http://127.0.0.1:\(ports + 1)/cam/whep", "60"], seconds: 40) : ""
        // A second publisher while the first is live: refused, and the first goes on.
        let intruder = try Self.publisher(to: whip, seconds: 3, in: directory)
        defer { intruder.terminate() }
        let intruderStatus = await intruder.exitStatus(within: 10)
        let (rtspProbe, rtspLog) = try await rtsp
        let (hlsProbe, hlsLog) = try await hls
        let (rtmpProbe, rtmpLog) = try await rtmp
        let whepOutput = try await whep
        print("serve whip, first publisher: RTSP \(rtspProbe); HLS \(hlsProbe); RTMP \(rtmpProbe); second publisher exited \(intruderStatus)")
        #expect(rtspProbe.videoCodec == "h264" && rtspProbe.size == "320x240", "\(rtspProbe)\n\(rtspLog)")
        #expect(rtspProbe.pictures >= 90, "4 s at 30 fps: \(rtspProbe)\n\(rtspLog)")
        #expect(rtspProbe.audioCodec == "opus" && rtspProbe.audioFrames >= 150, "4 s of 20 ms packets: \(rtspProbe)\n\(rtspLog)")
        #expect(hlsProbe.videoCodec == "h264" && hlsProbe.size == "320x240" && hlsProbe.pictures >= 45, "\(hlsProbe)\n\(hlsLog)")
        #expect(hlsProbe.audioCodec == "opus" && hlsProbe.audioFrames >= 75, "\(hlsProbe)\n\(hlsLog)")
        #expect(rtmpProbe.videoCodec == "h264" && rtmpProbe.size == "320x240" && rtmpProbe.pictures >= 60, "\(rtmpProbe)\n\(rtmpLog)")
        #expect(rtmpProbe.audioFrames == 0, "classic RTMP carries no Opus: \(rtmpProbe)")
        #expect(intruderStatus != 0, "\(intruder.logs)")
        #expect(intruder.standardError.contains("503"), "\(intruder.logs)")
        #expect(first.isRunning, "the first publisher goes on: \(first.logs)")
        if playsWHEP {
            print("serve whip, WHEP (aiortc): \(whepOutput)")
            let json = try JSONSerialization.jsonObject(with: Data(whepOutput.utf8))
            let result = try #require(json as? [String: Any], "\(whepOutput)")
            #expect(result["status"] as? Int == 201, "\(whepOutput)")
            #expect(result["frames"] as? Int == 60 && result["size"] as? String == "320x240", "\(whepOutput)")
            #expect((result["audio"] as? Int ?? 0) >= 25, "Opus decoded by aiortc: \(whepOutput)")
            #expect(result["delete"] as? Int == 200, "\(whepOutput)")
        }

        // The first publisher ends (FFmpeg DELETEs its resource); the server goes on, and the next publisher is served.
        #expect(await first.exitStatus(within: 20) == 0, "\(first.logs)")
        try await Task.sleep(for: .seconds(1))
        #expect(server.isRunning, "\(server.logs)")
        let next = try Self.publisher(to: whip, seconds: 10, in: directory)
        defer { next.terminate() }
        try await Task.sleep(for: .seconds(3))
        let (again, againLog) = try await Self.read("rtsp://127.0.0.1:\(ports)/cam", seconds: 3,
                                                    into: directory.appendingPathComponent("rtsp-again.mkv").path, options: ["-rtsp_transport", "tcp"])
        print("serve whip, next publisher: RTSP \(again)")
        #expect(again.videoCodec == "h264" && again.size == "320x240" && again.pictures >= 60, "\(again)\n\(againLog)\n\(server.logs)")
        #expect(again.audioCodec == "opus" && again.audioFrames >= 100, "\(again)\n\(againLog)")
        #expect(await next.exitStatus(within: 20) == 0, "\(next.logs)")
        #expect(server.isRunning)
        await server.stop()
        let logs = server.standardError
        print(logs.split(separator: "\n").filter { $0.contains("WHIP publisher") || $0.contains("pictures and") }.joined(separator: "\n"))
        #expect(logs.contains("WHIP publisher 1 arrived") && logs.contains("WHIP publisher 1 left"), "\(server.logs)")
        #expect(logs.contains("WHIP publisher 2 arrived"), "\(server.logs)")
        #expect(logs.contains("players got the video alone: RTMP carries AAC, not opus"), "\(server.logs)")
    }
    /// The SDP an RTSP DESCRIBE of `rtsp://127.0.0.1:PORT/PATH` answers (a raw RTSP/1.0 request, RFC 2326 §10.2).
    static let describe = #"""
    import socket, sys
    port, path = int(sys.argv[1]), sys.argv[2]
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(f"DESCRIBE rtsp://127.0.0.1:{port}/{path} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(next(l.split(b":", 1)[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")))
    while len(body) < length:
        body += s.recv(4096)
    print(body.decode())
    """#

    /// The `sprop-parameter-sets` and `profile-level-id` of an SDP's H.264.
    static func h264Parameters(_ sdp: String) -> String {
        sdp.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=fmtp:") && $0.contains("sprop-parameter-sets") }.map(String.init) ?? ""
    }

    @Test("A next publisher at another size (320×240, then 640×360): one ffmpeg reading RTSP throughout decodes both sizes; DESCRIBE answers the new parameter sets; a player joining later gets 640×360")
    func nextPublisherChangesParameters() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ports = TestPorts.reserve(2)
        let server = try await Streamkit.start(["serve", "whip", "--port", "\(ports)", "--http-port", "\(ports + 1)", "--address", "127.0.0.1",
                                                "--path", "cam", "--bearer-token", "s3cret", "--duration", "60"],
                                               in: directory, readyWhen: "taking a WHIP publisher")
        defer { server.terminate() }
        let whip = "http://127.0.0.1:\(ports + 1)/cam/whip"
        let first = try Self.publisher(to: whip, seconds: 7, in: directory)
        defer { first.terminate() }
        try await Task.sleep(for: .seconds(3))
        let firstDescription = try await PythonPeers.run(Self.describe, ["\(ports)", "cam"], seconds: 15)
        // One reader decodes from the first publisher through the second: the size of every picture it decodes.
        let reader = Task {
            try await ExternalTool.run("timeout", ["-k", "3", "30", "ffmpeg", "-hide_banner", "-nostats", "-rtsp_transport", "tcp",
                                                   "-i", "rtsp://127.0.0.1:\(ports)/cam", "-t", "10", "-an", "-vf", "showinfo", "-f", "null", "-"])
        }
        #expect(await first.exitStatus(within: 20) == 0, "\(first.logs)")
        let second = try Self.publisher(to: whip, seconds: 8, size: "640x360", in: directory)
        defer { second.terminate() }
        try await Task.sleep(for: .seconds(4))
        let secondDescription = try await PythonPeers.run(Self.describe, ["\(ports)", "cam"], seconds: 15)
        let (late, lateLog) = try await Self.read("rtsp://127.0.0.1:\(ports)/cam", seconds: 2, into: directory.appendingPathComponent("late.mkv").path,
                                                  options: ["-rtsp_transport", "tcp"])
        let decoded = try await reader.value
        #expect(await second.exitStatus(within: 20) == 0, "\(second.logs)")
        let lines = decoded.standardError.split(whereSeparator: \.isNewline).filter { $0.contains("Parsed_showinfo") && $0.contains(" n:") }
        let small = lines.filter { $0.contains("s:320x240") }.count, large = lines.filter { $0.contains("s:640x360") }.count
        let errors = decoded.standardError.split(whereSeparator: \.isNewline).filter { $0.contains("error") || $0.contains("non-existing") }
        print("serve whip, parameters change: one RTSP reader decoded \(small) pictures 320x240 then \(large) 640x360 (\(errors.count) decoder complaints); "
              + "DESCRIBE before: \(Self.h264Parameters(firstDescription)); after: \(Self.h264Parameters(secondDescription)); late player: \(late)")
        #expect(small >= 60, "\(decoded.standardError.suffix(3000))")
        #expect(large >= 60, "\(decoded.standardError.suffix(3000))\n\(server.logs)")
        let before = Self.h264Parameters(firstDescription), after = Self.h264Parameters(secondDescription)
        #expect(!before.isEmpty && !after.isEmpty && before != after, "DESCRIBE carries the new SPS/PPS:\n\(firstDescription)\n\(secondDescription)")
        #expect(late.videoCodec == "h264" && late.size == "640x360" && late.pictures >= 30, "\(late)\n\(lateLog)")
        await server.stop()
        #expect(server.standardError.contains("WHIP publisher 2 arrived"), "\(server.logs)")
    }
}
#endif
