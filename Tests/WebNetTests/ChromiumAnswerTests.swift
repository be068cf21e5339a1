import Foundation
import Synchronization
import Testing
import TestSupport
import Transport
import RTP

@Suite("Chromium against our HTTP server and WebRTC answer", .needsRealTime)
struct ChromiumAnswerTests {
    @Test("A page from another origin posts Chromium's offer (CORS preflight), our route answers it, setRemoteDescription accepts it",
          .enabled(if: ExternalTool.isRunnable("chromium")))
    func chromiumAcceptsAnswer() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        defer { server.stop() }
        let options = WebRTCAnswerOptions(
            iceUserFragment: "skuf", icePassword: "0123456789abcdefghijklmn",
            fingerprint: "sha-256 " + (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":"),
            candidates: [WebRTCCandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 50_000)],
            sends: true, receives: false, sendingSSRCs: ["video": 0x1234_5678, "audio": 0x0BAD_CAFE])
        server.addRoute(HTTPRoute(.post, "/live/whep") { request in
            guard let offer = try? WebRTCOffer(parsing: String(decoding: request.request.body, as: UTF8.self)),
                  let answer = try? offer.answer(options) else { return HTTPResponse(status: .badRequest) }
            return HTTPResponse(status: .created, headers: ["Content-Type": "application/sdp", "Location": "/live/whep/1"],
                                body: Array(answer.text.utf8))
        })
        server.start()
        // The page comes from a second server (another origin: the POST needs the CORS preflight), and holds its load
        // event on an image (/hold) until it has posted its result (/report) — then Chromium dumps the DOM.
        let pages = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        defer { pages.stop() }
        let report = Mutex<String?>(nil)
        let html = """
        <!doctype html><html><body><pre id="result">pending</pre><img src="/hold"><script>
        (async () => {
          const pc = new RTCPeerConnection();
          pc.addTransceiver("video", { direction: "recvonly" });
          pc.addTransceiver("audio", { direction: "recvonly" });
          await pc.setLocalDescription(await pc.createOffer());
          const response = await fetch("http://127.0.0.1:\(server.localAddress.port)/live/whep",
                                       { method: "POST", headers: { "Content-Type": "application/sdp" }, body: pc.localDescription.sdp });
          const location = response.headers.get("Location");
          await pc.setRemoteDescription({ type: "answer", sdp: await response.text() });
          return "ok " + response.status + " " + location + " " +
            pc.getTransceivers().map(t => t.mid + ":" + t.currentDirection).join(" ");
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
            for _ in 0..<300 where report.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(100)) }
            return HTTPResponse(status: .notFound)
        })
        pages.start()
        let directory = try ExternalTool.temporaryDirectory()
        let output = try await ExternalTool.run("timeout", ["-k", "5", "60", "chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                                                            "--user-data-dir=\(directory.path)/profile",
                                                            "--dump-dom", "http://127.0.0.1:\(pages.localAddress.port)/page"])
        let dom = output.text
        #expect(report.withLock { $0 } == "ok 201 /live/whep/1 0:recvonly 1:recvonly", "\(dom.suffix(400))")
        #expect(server.statistics.requestsAnswered >= 2)  // the preflight and the POST
    }
}
