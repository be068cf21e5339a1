#if OpenSSL
import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// Our WHIP client (``WHIPDestination`` over ``WHIPClient`` and ``WebRTCClientSession``) publishes a live pipeline into
/// a WebRTC peer nobody here wrote: aiortc behind a small WHIP endpoint written in the test (POST offer → 201 answer +
/// `Location`, DELETE), which decodes what arrives. Run inside a network namespace with loopback alone
/// (`unshare -rn sh -c 'ip link set lo up; swift test …'`): every candidate and packet is then 127.0.0.1.
@Suite("WHIP publish: aiortc receives our client's H.264 and Opus", .needsRealTime)
struct WHIPPublishProofTests {
    static let width = 320
    static let height = 240
    static let token = "whip-test-token"

    /// aiortc as a WHIP endpoint on 127.0.0.1 (port written to `argv[1]`): the POST's offer is answered by an
    /// RTCPeerConnection that receives (aiortc answers a sendonly section recvonly); it decodes every video and audio
    /// frame, sends a PLI after `pli_after` video frames (0: none), drops every `drop`-th new H.264 packet before aiortc
    /// sees it (0: none) so that its NACKs must be answered, and after the DELETE prints one JSON line: frames, size,
    /// IDRs before and after the PLI, the ms from POST to the first decoded frame, the request's headers. Given a
    /// certificate and key (`argv[5]`, `argv[6]`) it serves https (RFC 9725 §4.1) instead of http.
    static let endpoint = #"""
    import asyncio, json, sys, time
    import aioice.ice
    aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
    from aiortc import RTCPeerConnection, RTCSessionDescription
    from aiortc import rtcrtpreceiver
    from aiortc.codecs import h264
    from aiortc.mediastreams import MediaStreamError

    port_file, pli_after, drop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    passive = len(sys.argv) > 4 and sys.argv[4] == "passive"
    # argv[5], argv[6]: a PEM certificate and key to serve https with (absent or "-": plain http).
    tls = None
    if len(sys.argv) > 6 and sys.argv[5] != "-":
        import ssl
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(sys.argv[5], sys.argv[6])
    result = {"video_frames": 0, "audio_frames": 0, "dropped": 0}
    idr_times, seen = [], set()
    state = {"pc": None, "post": None, "tasks": []}

    original_decode = h264.H264Decoder.decode
    def decode(self, encoded):
        data = bytes(encoded.data)
        if b"\x00\x00\x01\x65" in data or b"\x00\x00\x01\x25" in data or b"\x00\x00\x01\x45" in data:
            idr_times.append(time.monotonic())
        return original_decode(self, encoded)
    h264.H264Decoder.decode = decode

    original_handle = rtcrtpreceiver.RTCRtpReceiver._handle_rtp_packet
    async def handle_rtp(self, packet, arrival_time_ms):
        codecs = self._RTCRtpReceiver__codecs
        if drop and codecs and packet.payload_type in codecs and codecs[packet.payload_type].name == "H264":
            if packet.sequence_number not in seen:
                seen.add(packet.sequence_number)
                if len(seen) % drop == 0:
                    result["dropped"] += 1
                    return
        return await original_handle(self, packet, arrival_time_ms)
    rtcrtpreceiver.RTCRtpReceiver._handle_rtp_packet = handle_rtp

    async def read_video(pc, track):
        pli_time = None
        try:
            while True:
                frame = await track.recv()
                result["video_frames"] += 1
                result["size"] = f"{frame.width}x{frame.height}"
                if result["video_frames"] == 1:
                    result["publish_start_ms"] = round((time.monotonic() - state["post"]) * 1000)
                if pli_after and result["video_frames"] == pli_after:
                    receiver = next(t.receiver for t in pc.getTransceivers() if t.kind == "video")
                    pli_time = time.monotonic()
                    result["idr_before_pli"] = len(idr_times)
                    ssrcs = list(receiver._RTCRtpReceiver__remote_streams.keys())
                    await receiver._send_rtcp_pli(ssrcs[0] if ssrcs else 0)
                if pli_time is not None:
                    after = [t for t in idr_times if t > pli_time]
                    result["idr_after_pli"] = len(after)
                    result["pli_to_idr_ms"] = round((after[0] - pli_time) * 1000) if after else None
        except (MediaStreamError, asyncio.CancelledError):
            pass

    async def read_audio(track):
        try:
            while True:
                frame = await track.recv()
                result["audio_frames"] += 1
                result["audio_rate"] = frame.sample_rate
        except (MediaStreamError, asyncio.CancelledError):
            pass

    deleted = None

    async def serve(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target = lines[0].split(" ")[0], lines[0].split(" ")[1]
            headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            status, extra, payload = "405 Method Not Allowed", "", b""
            if method == "POST":
              try:
                  state["post"] = time.monotonic()
                  result["authorization"] = headers.get("authorization")
                  result["content_type"] = headers.get("content-type")
                  offer = body.decode()
                  result["offer_has_rtx"] = "rtx/90000" in offer
                  pc = RTCPeerConnection()
                  state["pc"] = pc
                  @pc.on("track")
                  def on_track(track):
                      task = read_video(pc, track) if track.kind == "video" else read_audio(track)
                      state["tasks"].append(asyncio.ensure_future(task))
                  await pc.setRemoteDescription(RTCSessionDescription(sdp=offer, type="offer"))
                  answer = await pc.createAnswer()
                  if passive:
                      # aiortc takes its DTLS role from the answer it applies: passive makes it the DTLS server, us the client.
                      answer = RTCSessionDescription(sdp=answer.sdp.replace("a=setup:active", "a=setup:passive"), type="answer")
                  await pc.setLocalDescription(answer)
                  payload = pc.localDescription.sdp.encode()
                  result["answer_setup"] = [l for l in pc.localDescription.sdp.split("\r\n") if l.startswith("a=setup:")][:1]
                  status, extra = "201 Created", "Content-Type: application/sdp\r\nLocation: /whip/resource/abc123\r\n"
              except Exception as error:
                result["post_error"] = repr(error)
                status, extra, payload = "400 Bad Request", "", repr(error).encode()
            elif method == "DELETE":
                result["delete_target"] = target
                status = "200 OK"
            writer.write(f"HTTP/1.1 {status}\r\n{extra}Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n".encode() + payload)
            await writer.drain()
            if method == "DELETE" or "post_error" in result:
                deleted.set()
        finally:
            writer.close()

    async def main():
        global deleted
        deleted = asyncio.Event()
        server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=tls)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.sockets[0].getsockname()[1]))
        import os
        os.rename(port_file + ".tmp", port_file)
        try:
            await asyncio.wait_for(deleted.wait(), 80)
        except asyncio.TimeoutError:
            result["timed_out"] = True
        await asyncio.sleep(0.3)
        for task in state["tasks"]:
            task.cancel()
        if state["pc"] is not None:
            await state["pc"].close()
        server.close()
        print(json.dumps(result), flush=True)

    asyncio.run(main())
    """#

    struct Outcome {
        let result: [String: Any]
        let output: String
        let report: LiveReport
        let statistics: WebRTCPeerSession.Statistics?
        let connectionTime: Duration?
        let retransmissionNegotiated: Bool
        let role: DTLSRole?
    }

    /// Starts the endpoint, runs `publisher` with its URL, and returns the endpoint's JSON line once it has printed it
    /// (after the DELETE) with what `publisher` returned.
    static func withEndpoint<T: Sendable>(pliAfter: Int, drop: Int, setup: String = "active", tls: SelfSignedCertificate? = nil,
                                          _ publisher: @Sendable (String) async throws -> T) async throws -> (result: [String: Any], output: String, value: T) {
        let directory = try ExternalTool.temporaryDirectory()
        let portFile = directory.appendingPathComponent("port").path
        let arguments = [portFile, String(pliAfter), String(drop), setup, tls?.certificate ?? "-", tls?.key ?? "-"]
        let peer = Task { try await PythonPeers.run(Self.endpoint, arguments, seconds: 100) }
        var port: Int?
        for _ in 0..<300 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let value = Int(text) {
                port = value
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard let port else {
            peer.cancel()
            _ = try await peer.value
            throw TestFailure("the WHIP endpoint did not start")
        }
        let value: T
        do {
            value = try await publisher("\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/whip")
        } catch {
            _ = try? await peer.value
            throw error
        }
        let output = try await peer.value
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let json = try JSONSerialization.jsonObject(with: Data(line.utf8))
        let result = try #require(json as? [String: Any], "\(output)")
        return (result, line, value)
    }

    /// Starts the endpoint, then a pipeline (camera at 30 fps through x264 with a key frame only every 10 s, so a key
    /// frame in between is one the endpoint asked for; Opus from a synthetic microphone when the build encodes it)
    /// publishing to it for `seconds`.
    static func publish(seconds: Double, pliAfter: Int, drop: Int, setup: String = "active") async throws -> Outcome {
        let (result, output, published) = try await withEndpoint(pliAfter: pliAfter, drop: drop, setup: setup) { url -> Published in
            var video = LiveTestSupport.video(width: width, height: height, bitRate: 500_000)
            video.maxKeyFrameInterval = 300
            video.expectedFrameRate = 30
            var configuration = LiveConfiguration(video: video, audioBitRate: 64_000)
            configuration.audioCodec = .opus
            configuration.durationLimit = seconds
            configuration.minimumForcedKeyFrameSpacing = 1
            let audio = CodecEngineRegistry.default.canEncode(.opus) ? try SyntheticMicrophone(sampleRate: 48000, channelCount: 2) : nil
            let pipeline = LivePipeline(video: try SyntheticCamera(width: width, height: height, frameRate: 30), audio: audio,
                                        configuration: configuration)
            let whip = WHIPDestination(url: url, options: WHIPClient.Options(bearerToken: token))
            pipeline.add(whip)
            let clientWatch = Task { () -> WHIPClient? in
                for _ in 0..<400 {
                    if let client = whip.client { return client }
                    try? await Task.sleep(for: .milliseconds(25))
                }
                return nil
            }
            let report = try await pipeline.run()
            return Published(report: report, client: await clientWatch.value)
        }
        let client = published.client
        return Outcome(result: result, output: output, report: published.report, statistics: client?.session.statistics,
                       connectionTime: client?.session.connectionTime,
                       retransmissionNegotiated: client?.session.track(.video)?.retransmissionPayloadType != nil,
                       role: client?.session.role)
    }

    struct Published: Sendable {
        let report: LiveReport
        let client: WHIPClient?
    }

    @Test("aiortc decodes at least 90 % of the frames at their size, and the Opus audio; a PLI brings a key frame; the resource is DELETEd",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice") && LiveTestSupport.encodesInRealTime))
    func aiortcReceives() async throws {
        let outcome = try await Self.publish(seconds: 8, pliAfter: 90, drop: 0)
        let result = outcome.result
        let sent = try #require(outcome.report.destinations.first, "\(outcome.report)")
        let decoded = result["video_frames"] as? Int ?? 0
        print("WHIP publish aiortc: \(outcome.output.split(separator: "\n").last ?? "") — sent \(sent.videoFramesSent) video and "
              + "\(sent.audioFramesSent) audio frames; ICE+DTLS \(outcome.connectionTime.map { "\($0)" } ?? "?"); \(outcome.statistics.map { "\($0)" } ?? "")")
        #expect(sent.failure == nil, "\(sent)")
        #expect(sent.videoFramesSent >= 200, "\(sent)")
        #expect(decoded * 10 >= sent.videoFramesSent * 9, "decoded \(decoded) of \(sent.videoFramesSent)")
        #expect(result["size"] as? String == "\(Self.width)x\(Self.height)", "\(result)")
        if CodecEngineRegistry.default.canEncode(.opus) {
            #expect(sent.audioFramesSent > 0)
            #expect((result["audio_frames"] as? Int ?? 0) * 10 >= sent.audioFramesSent * 9, "\(result) of \(sent.audioFramesSent)")
            #expect(result["audio_rate"] as? Int == 48000, "\(result)")
        }
        #expect((result["idr_after_pli"] as? Int ?? 0) >= 1, "a key frame after the PLI: \(result)")
        #expect((outcome.statistics?.keyFrameRequests ?? 0) >= 1)
        #expect(result["authorization"] as? String == "Bearer \(Self.token)", "\(result)")
        #expect(result["content_type"] as? String == "application/sdp", "\(result)")
        #expect(result["delete_target"] as? String == "/whip/resource/abc123", "\(result)")
        #expect(result["timed_out"] == nil, "\(result)")
        #expect(result["publish_start_ms"] is Int, "\(result)")
    }

    @Test("aiortc drops every 20th H.264 packet: its NACKs are answered with rtx and at least 90 % of the frames decode",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice") && LiveTestSupport.encodesInRealTime))
    func nackRecovers() async throws {
        let outcome = try await Self.publish(seconds: 8, pliAfter: 0, drop: 20)
        let result = outcome.result
        let sent = try #require(outcome.report.destinations.first, "\(outcome.report)")
        let decoded = result["video_frames"] as? Int ?? 0
        let dropped = result["dropped"] as? Int ?? 0
        let statistics = try #require(outcome.statistics)
        print("WHIP publish aiortc NACK: \(outcome.output.split(separator: "\n").last ?? "") — sent \(sent.videoFramesSent); session \(statistics)")
        #expect(outcome.retransmissionNegotiated, "aiortc answers with rtx")
        #expect(dropped >= 5, "\(result)")
        #expect(statistics.packetsRetransmitted * 10 >= dropped * 9, "\(statistics) for \(dropped) dropped")
        #expect(decoded * 10 >= sent.videoFramesSent * 9, "decoded \(decoded) of \(sent.videoFramesSent)")
    }

    @Test("an answer with a=setup:passive makes us the DTLS client: aiortc (the DTLS server) decodes the stream",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice") && LiveTestSupport.encodesInRealTime))
    func dtlsClientRole() async throws {
        let outcome = try await Self.publish(seconds: 4, pliAfter: 0, drop: 0, setup: "passive")
        let sent = try #require(outcome.report.destinations.first, "\(outcome.report)")
        let decoded = outcome.result["video_frames"] as? Int ?? 0
        print("WHIP publish aiortc, we the DTLS client: \(outcome.output) — sent \(sent.videoFramesSent); ICE+DTLS \(outcome.connectionTime.map { "\($0)" } ?? "?")")
        #expect(outcome.role == .client)
        #expect(outcome.result["answer_setup"] as? [String] == ["a=setup:passive"], "\(outcome.result)")
        #expect(decoded * 10 >= sent.videoFramesSent * 9, "decoded \(decoded) of \(sent.videoFramesSent)")
    }

    @Test("streamkit publish camera http://…/whip --audio-codec opus --bearer-token: aiortc decodes the video and the audio",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice") && LiveTestSupport.encodesInRealTime))
    func commandPublishes() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let (result, output, process) = try await Self.withEndpoint(pliAfter: 0, drop: 0) { url in
            try await Streamkit.run(["publish", "camera", url, "--size", "\(Self.width)x\(Self.height)", "--fps", "30", "--duration", "5", "--profile", "baseline",
                                     "--audio-codec", "opus", "--bearer-token", Self.token], in: directory, seconds: 60)
        }
        print("WHIP publish CLI: \(output)")
        #expect(process.standardError.contains("whip http://127.0.0.1"), "\(process.logs)")
        #expect((result["video_frames"] as? Int ?? 0) >= 100, "\(result)")
        #expect(result["size"] as? String == "\(Self.width)x\(Self.height)", "\(result)")
        #expect((result["audio_frames"] as? Int ?? 0) >= 100, "\(result)")
        #expect(result["authorization"] as? String == "Bearer \(Self.token)", "\(result)")
        #expect(result["delete_target"] as? String == "/whip/resource/abc123", "\(result)")
    }
    @Test("streamkit publish testsrc https://…/whip: without the self-signed certificate trusted it fails naming the verification error; with --ca-file aiortc decodes the stream",
          .enabled(if: PythonPeers.isRunnable("aiortc", "aioice", "ssl") && LiveTestSupport.encodesInRealTime))
    func commandPublishesOverHTTPS() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let certificate = try SelfSignedCertificate(name: "whip", in: directory)
        let (result, output, runs) = try await Self.withEndpoint(pliAfter: 0, drop: 0, tls: certificate) { url in
            let refused = try Streamkit.start(["publish", "testsrc", url, "--size", "\(Self.width)x\(Self.height)", "--fps", "30", "--duration", "2",
                                               "--profile", "baseline"], logsIn: try ExternalTool.temporaryDirectory())
            guard await refused.waitForExit(seconds: 30) else {
                await refused.stop()
                throw TestFailure("publish with an untrusted certificate did not end\n\(refused.logs)")
            }
            let trusted = try await Streamkit.run(["publish", "testsrc", url, "--size", "\(Self.width)x\(Self.height)", "--fps", "30", "--duration", "5",
                                                   "--profile", "baseline", "--ca-file", certificate.certificate, "--bearer-token", Self.token],
                                                  in: directory, seconds: 60)
            return [refused, trusted]
        }
        let refused = runs[0], trusted = runs[1]
        let refusal = refused.standardError.split(separator: "\n").first { $0.contains("certificate") } ?? ""
        print("WHIP publish over https: untrusted exit \(refused.status): \(refusal); trusted exit \(trusted.status): \(output)")
        #expect(refused.status != 0, "\(refused.logs)")
        #expect(refused.standardError.contains("certificate was rejected") && refused.standardError.contains("self-signed"), "\(refused.logs)")
        #expect(trusted.status == 0, "\(trusted.logs)")
        #expect(trusted.standardError.contains("whip https://127.0.0.1"), "\(trusted.logs)")
        #expect((result["video_frames"] as? Int ?? 0) >= 100, "\(result)")
        #expect(result["size"] as? String == "\(Self.width)x\(Self.height)", "\(result)")
        #expect(result["authorization"] as? String == "Bearer \(Self.token)", "\(result)")
        #expect(result["delete_target"] as? String == "/whip/resource/abc123", "the DELETE went over TLS too: \(result)")
    }
}
#endif
