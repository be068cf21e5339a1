#if OpenSSL
import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// WHEP playback against WebRTC peers nobody here wrote: headless Chromium and aiortc POST their offers to a
/// ``WHEPDestination`` on our ``HTTPServer``, and decode the live H.264 stream of a pipeline (a synthetic camera through
/// x264, Constrained Baseline). Run these inside a network namespace with loopback alone
/// (`unshare -rn sh -c 'ip link set lo up; swift test …'`): every candidate and packet is then 127.0.0.1.
@Suite("WHEP playback: Chromium and aiortc play a live pipeline", .needsRealTime)
struct WHEPPlaybackProofTests {
    static let width = 320
    static let height = 240

    /// A pipeline of a camera at 30 fps through x264 with a key frame only every 10 s (so a key frame in between is
    /// one a viewer asked for), a WHEP destination on a fresh HTTP server, running until `stop`.
    struct Running {
        let loop: EventLoop
        let server: HTTPServer
        let whep: WHEPDestination
        let pipeline: LivePipeline
        let task: Task<LiveReport, any Error>
        let keyFrames: Task<[LiveEvent], Never>

        var url: String { "http://127.0.0.1:\(server.localAddress.port)\(whep.endpoint.path)" }

        func stop() async throws -> (LiveReport, [LiveEvent]) {
            pipeline.stop()
            let report = try await task.value
            server.stop()
            loop.shutdown()
            return (report, await keyFrames.value)
        }
    }

    static func start(seconds: Double, stampsCaptureTime: Bool = false) throws -> Running {
        let loop = try EventLoop()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        let whep = try WHEPDestination(server: server, path: "live")
        server.start()
        var video = LiveTestSupport.video(width: width, height: height, bitRate: 500_000)
        video.maxKeyFrameInterval = 300
        video.expectedFrameRate = 30
        var configuration = LiveConfiguration(video: video)
        configuration.durationLimit = seconds
        configuration.minimumForcedKeyFrameSpacing = 1
        let camera = try SyntheticCamera(width: width, height: height, frameRate: 30, stampsCaptureTime: stampsCaptureTime)
        let pipeline = LivePipeline(video: camera, audio: nil,
                                    configuration: configuration)
        pipeline.add(whep)
        let events = LiveTestSupport.collect(pipeline.events)
        let task = Task { try await pipeline.run() }
        return Running(loop: loop, server: server, whep: whep, pipeline: pipeline, task: task, keyFrames: events)
    }

    @Test("Chromium POSTs its offer from another origin, plays the stream (getStats: frames decoded, the picture's size), and DELETEs its resource",
          .enabled(if: ExternalTool.isRunnable("chromium") && LiveTestSupport.encodesInRealTime))
    func chromiumPlays() async throws {
        let running = try Self.start(seconds: 40)
        let pages = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: running.loop)
        defer { pages.stop() }
        let report = Mutex<String?>(nil)
        let html = """
        <!doctype html><html><body><pre id="result">pending</pre><img src="/hold"><script>
        const sleep = ms => new Promise(r => setTimeout(r, ms));
        (async () => {
          const pc = new RTCPeerConnection();
          pc.addTransceiver("video", { direction: "recvonly" });
          pc.addTransceiver("audio", { direction: "recvonly" });
          await pc.setLocalDescription(await pc.createOffer());
          const response = await fetch("\(running.url)", { method: "POST", headers: { "Content-Type": "application/sdp" },
                                                          body: pc.localDescription.sdp });
          if (response.status != 201) return "error POST " + response.status + " " + await response.text();
          const location = new URL(response.headers.get("Location"), "\(running.url)").href;
          await pc.setRemoteDescription({ type: "answer", sdp: await response.text() });
          let video = null;
          for (let i = 0; i < 100; i++) {
            await sleep(200);
            const stats = await pc.getStats();
            stats.forEach(s => { if (s.type == "inbound-rtp" && s.kind == "video") video = s; });
            if (video && video.framesDecoded > 60) break;
          }
          const deleted = await fetch(location, { method: "DELETE" });
          pc.close();
          if (!video || !(video.framesDecoded > 60)) return "error video " + JSON.stringify(video) + " ice " + pc.iceConnectionState +
            " dtls " + pc.connectionState;
          return "ok decoded=" + video.framesDecoded + " size=" + video.frameWidth + "x" + video.frameHeight +
                 " keyframes=" + video.keyFramesDecoded + " nack=" + video.nackCount + " pli=" + video.pliCount +
                 " delete=" + deleted.status;
        })().catch(e => "error " + e).then(text => {
          document.getElementById("result").textContent = text;
          return fetch("/report", { method: "POST", body: text });
        });
        </script></body></html>
        """
        pages.addRoute(HTTPRoute(.get, "/page") { _ in .bytes(Array(html.utf8), contentType: "text/html") })
        pages.addRoute(HTTPRoute(.post, "/report") { request in
            report.withLock { $0 = String(decoding: request.request.body, as: UTF8.self) }
            return HTTPResponse(status: .noContent)
        })
        pages.addRoute(HTTPRoute(.get, "/hold") { _ in
            for _ in 0..<450 where report.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(100)) }
            return HTTPResponse(status: .notFound)
        })
        pages.start()
        let watcher = Task { () -> String in
            var last = "no session"
            while !Task.isCancelled {
                if let session = running.whep.viewers.first { last = "\(session.statistics) \(session.iceStatistics) connected \(session.isConnected)" }
                try? await Task.sleep(for: .milliseconds(250))
            }
            return last
        }
        let directory = try ExternalTool.temporaryDirectory()
        // In a namespace with loopback alone, Chromium runs ICE only once the page holds media permission: without
        // `--use-fake-ui-for-media-stream` (which grants it) its ICE stays "new" and no check reaches any peer (aiortc's
        // answer the same as ours); with it, ICE connects over 127.0.0.1.
        let output = try await ExternalTool.run("timeout", ["-k", "5", "60", "chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                                                            "--allow-loopback-in-peer-connection", "--use-fake-ui-for-media-stream",
                                                            "--user-data-dir=\(directory.path)/profile",
                                                            "--dump-dom", "http://127.0.0.1:\(pages.localAddress.port)/page"])
        let viewers = running.whep.viewers.count
        watcher.cancel()
        print("WHEP Chromium session: \(await watcher.value)")
        let (pipelineReport, _) = try await running.stop()
        let text = try #require(report.withLock { $0 }, "no report: \(output.text.suffix(600))")
        print("WHEP Chromium: \(text)")
        #expect(text.hasPrefix("ok "), "\(text)")
        let fields = Self.fields(text)
        #expect((Int(fields["decoded"] ?? "") ?? 0) > 60, "\(text)")
        #expect(fields["size"] == "\(Self.width)x\(Self.height)", "\(text)")
        #expect(fields["delete"] == "200", "\(text)")
        #expect(viewers == 0, "the DELETE ended the session")
        #expect(pipelineReport.destinations.first?.failure == nil, "\(pipelineReport.destinations)")
    }

    @Test("Glass to glass: Chromium shows each picture at most 150 ms after the camera made it (its capture time, burnt into the picture, read back from the decoded frame)",
          .enabled(if: BrowserPlayback.isRunnable && LiveTestSupport.encodesInRealTime))
    func chromiumLatency() async throws {
        let running = try Self.start(seconds: 40, stampsCaptureTime: true)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = running.url
        // The browser run blocks its thread for seconds: off the cooperative pool, which the pipeline needs.
        let played = await withCheckedContinuation { (done: CheckedContinuation<Result<BrowserPlayback.Result, any Error>, Never>) in
            Thread.detachNewThread {
                done.resume(returning: Result { try BrowserPlayback.play(.whep(url: url, frames: 180), in: directory, timeout: 40) })
            }
        }
        _ = try await running.stop()
        let report = try played.get().report
        print("WHEP Chromium glass-to-glass: \(report)")
        #expect(report.done, "\(report)")
        // requestVideoFrameCallback fires once per composited frame, and headless Chromium on a busy machine composites
        // fewer than it decodes (98 of 154 in one gate run): 60 readings, two seconds of pictures, are the sample.
        #expect((report.timecodes ?? 0) >= 60, "capture times read back from the decoded frames: \(report)")
        #expect((report.latencyMedian ?? .infinity) <= 150, "\(report)")
        #expect((report.latencyMin ?? -1) >= 0, "a picture cannot be shown before it is made: \(report)")
    }

    /// aiortc as a WHEP player: it posts a recvonly offer (video and audio), decodes what arrives, and after
    /// `pliAfter` frames sends a PLI; it prints one JSON line: frames, size, key frames (IDR access units) before and
    /// after the PLI, and the ms from the PLI to the next IDR. `drop` drops every n-th new RTP packet before aiortc
    /// sees it (0: none), so that its NACKs must be answered.
    static let aiortcPlayer = #"""
    import asyncio, json, sys, time, urllib.request
    import aioice.ice
    aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
    from aiortc import RTCPeerConnection, RTCSessionDescription
    from aiortc import rtcrtpreceiver
    from aiortc.codecs import h264

    url, frames_wanted, pli_after, drop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    idr_times, seen, dropped = [], set(), [0]
    original_decode = h264.H264Decoder.decode
    def decode(self, encoded):
        data = bytes(encoded.data)
        if b"\x00\x00\x01\x65" in data or b"\x00\x00\x01\x25" in data or b"\x00\x00\x01\x45" in data:
            idr_times.append(time.monotonic())
        return original_decode(self, encoded)
    h264.H264Decoder.decode = decode
    original_handle = rtcrtpreceiver.RTCRtpReceiver._handle_rtp_packet
    async def handle(self, packet, arrival_time_ms):
        if drop and self._RTCRtpReceiver__codecs and packet.payload_type in self._RTCRtpReceiver__codecs \
           and self._RTCRtpReceiver__codecs[packet.payload_type].name == "H264":
            key = packet.sequence_number
            if key not in seen:
                seen.add(key)
                if len(seen) % drop == 0:
                    dropped[0] += 1
                    return
        return await original_handle(self, packet, arrival_time_ms)
    rtcrtpreceiver.RTCRtpReceiver._handle_rtp_packet = handle

    async def main():
        pc = RTCPeerConnection()
        pc.addTransceiver("video", direction="recvonly")
        pc.addTransceiver("audio", direction="recvonly")
        done = asyncio.get_event_loop().create_future()
        result = {}
        @pc.on("track")
        def on_track(track):
            if track.kind != "video":
                return
            async def read():
                count, pli_time = 0, None
                while count < frames_wanted:
                    frame = await track.recv()
                    count += 1
                    result["size"] = f"{frame.width}x{frame.height}"
                    if count == pli_after:
                        receiver = next(t.receiver for t in pc.getTransceivers() if t.kind == "video")
                        pli_time = time.monotonic()
                        result["idr_before_pli"] = len(idr_times)
                        await receiver._send_rtcp_pli(receiver._RTCRtpReceiver__remote_streams and list(receiver._RTCRtpReceiver__remote_streams.keys())[0] or 0)
                result["frames"] = count
                if pli_time is not None:
                    after = [t for t in idr_times if t > pli_time]
                    result["idr_after_pli"] = len(after)
                    result["pli_to_idr_ms"] = round((after[0] - pli_time) * 1000) if after else None
                done.set_result(True)
            asyncio.ensure_future(read())
        await pc.setLocalDescription(await pc.createOffer())
        request = urllib.request.Request(url, data=pc.localDescription.sdp.encode(), headers={"Content-Type": "application/sdp"}, method="POST")
        with urllib.request.urlopen(request) as response:
            result["status"] = response.status
            location = response.headers["Location"]
            answer = response.read().decode()
        await pc.setRemoteDescription(RTCSessionDescription(sdp=answer, type="answer"))
        await asyncio.wait_for(done, 40)
        result["dropped"] = dropped[0]
        delete = urllib.request.Request(urllib.parse.urljoin(url, location), method="DELETE")
        with urllib.request.urlopen(delete) as response:
            result["delete"] = response.status
        await pc.close()
        print(json.dumps(result), flush=True)

    import urllib.parse
    asyncio.run(main())
    """#

    @Test("aiortc plays the stream at its size; a PLI brings a key frame; dropped packets come back through NACK and rtx",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice") && LiveTestSupport.encodesInRealTime))
    func aiortcPlays() async throws {
        let running = try Self.start(seconds: 40)
        let output: String
        do {
            output = try await PythonPeers.run(Self.aiortcPlayer, [running.url, "180", "90", "0"], seconds: 50)
        } catch {
            _ = try? await running.stop()
            throw error
        }
        let statistics = running.whep.viewers.map(\.statistics)
        let (report, events) = try await running.stop()
        print("WHEP aiortc: \(output)")
        let json = try JSONSerialization.jsonObject(with: Data(output.utf8))
        let result = try #require(json as? [String: Any], "\(output)")
        #expect(result["status"] as? Int == 201)
        #expect(result["frames"] as? Int == 180, "\(output)")
        #expect(result["size"] as? String == "\(Self.width)x\(Self.height)", "\(output)")
        #expect((result["idr_after_pli"] as? Int ?? 0) >= 1, "a key frame after the PLI: \(output)")
        #expect((result["pli_to_idr_ms"] as? Int ?? 10_000) < 1500, "\(output)")
        #expect(result["delete"] as? Int == 200, "\(output)")
        #expect(statistics.isEmpty, "the DELETE ended the session")
        #expect(report.destinations.first?.failure == nil, "\(report.destinations)")
        _ = events
    }

    @Test("aiortc drops every 20th video packet it receives: its NACKs are answered (rtx) and it decodes every frame",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice") && LiveTestSupport.encodesInRealTime))
    func nackRecovers() async throws {
        let running = try Self.start(seconds: 40)
        let sessions = Task { () -> [WebRTCPeerSession] in
            for _ in 0..<200 {
                let viewers = running.whep.viewers
                if !viewers.isEmpty { return viewers }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return []
        }
        let output: String
        do {
            output = try await PythonPeers.run(Self.aiortcPlayer, [running.url, "150", "0", "20"], seconds: 50)
        } catch {
            _ = try? await running.stop()
            throw error
        }
        let session = try #require(await sessions.value.first)
        let statistics = session.statistics
        _ = try await running.stop()
        print("WHEP aiortc NACK: \(output) — session: \(statistics)")
        let json = try JSONSerialization.jsonObject(with: Data(output.utf8))
        let result = try #require(json as? [String: Any], "\(output)")
        #expect(result["frames"] as? Int == 150, "\(output)")
        #expect((result["dropped"] as? Int ?? 0) > 5, "\(output)")
        #expect(statistics.packetsRetransmitted >= (result["dropped"] as? Int ?? 0) * 9 / 10, "\(statistics) \(output)")
        #expect(session.track(.video)?.retransmissionPayloadType != nil, "aiortc offers rtx")
    }

    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for part in text.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        return fields
    }
}
#endif
