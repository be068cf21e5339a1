import Foundation
import POSIX
import Testing
import TestSupport
import Transport

/// A server on a loopback port of its own with the routes the tests use: a byte body, a file, an echo, a WHIP-like
/// POST answered 201 with `Location`, a DELETE behind a bearer token.
private func makeServer(loop: EventLoop, file: String, requestTimeout: Duration = .seconds(10)) throws -> HTTPServer {
    let configuration = HTTPServerConfiguration(
        address: .loopback(.ipv4, port: 0),
        limits: HTTPMessageLimits(maximumHeaderSectionLength: 8192, maximumBodyLength: 64 * 1024),
        requestTimeout: requestTimeout,
        cors: HTTPCORSPolicy(allowedOrigins: ["http://player.example"]),
        bearerTokenValidator: { token, _ in token == "s3cret" })
    let server = try HTTPServer(configuration: configuration, on: loop)
    server.addRoute(HTTPRoute(.get, "/hello") { _ in .bytes(Array("hello, world\n".utf8), contentType: "text/plain") })
    server.addRoute(HTTPRoute(.get, "/files") { request in .file(at: file + "/" + request.remainingPath) })
    server.addRoute(HTTPRoute(.post, "/echo") { request in
        .bytes(request.request.body, contentType: request.request.headers["Content-Type"] ?? "application/octet-stream")
    })
    server.addRoute(HTTPRoute(.post, "/live/whip") { request in
        HTTPResponse(status: .created, headers: ["Location": "/live/whip/session-1", "ETag": "\"v1\"", "Content-Type": "application/sdp"],
                     body: request.request.body.reversed())
    })
    server.addRoute(HTTPRoute(.delete, "/live/whip", requiresAuthorization: true) { request in
        HTTPResponse(status: request.remainingPath == "session-1" ? .ok : .notFound)
    })
    server.start()
    return server
}

@Suite("HTTP/1.1 server and client against curl, python and each other", .needsRealTime)
struct HTTPServerPeerTests {
    @Test("curl: GET, HEAD, keep-alive reuse, POST echo of a binary body, a file byte for byte, 404, 405",
          .enabled(if: ExternalTool.isRunnable("curl")))
    func curl() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let payload = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try Data(payload).write(to: directory.appendingPathComponent("blob.bin"))
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try makeServer(loop: loop, file: directory.path)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"

        // Two URLs in one curl: the second reuses the connection (one connect in curl's count).
        let twice = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-w", "%{http_code} %{num_connects}\\n", "-o", "/dev/null",
                                                             "-o", "/dev/null", "\(base)/hello", "\(base)/hello"])
        #expect(twice.text == "200 1\n200 0\n")
        let head = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-I", "\(base)/hello"])
        #expect(head.text.contains("Content-Length: 13"))

        let body = directory.appendingPathComponent("body.bin")
        try Data(payload.prefix(20_000)).write(to: body)
        let echoed = directory.appendingPathComponent("echoed.bin")
        try await ExternalTool.check("timeout", ["20", "curl", "-sS", "--fail", "--data-binary", "@\(body.path)", "-H", "Content-Type: application/x-test",
                                                 "-o", echoed.path, "\(base)/echo"])
        #expect(try Data(contentsOf: echoed) == Data(payload.prefix(20_000)))

        let fetched = directory.appendingPathComponent("fetched.bin")
        try await ExternalTool.check("timeout", ["20", "curl", "-sS", "--fail", "-o", fetched.path, "\(base)/files/blob.bin"])
        #expect(try Data(contentsOf: fetched) == Data(payload))

        let codes = try await ExternalTool.check("timeout", ["20", "curl", "-s", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code}\\n",
                                                             "\(base)/nothing", "-X", "PUT", "\(base)/hello"])
        #expect(codes.text == "404\n405\n")
        #expect(server.statistics.requestsAnswered >= 7)
    }

    @Test("curl: the CORS preflight, WHIP's 201 with Location and exposed headers, DELETE with and without the Bearer token",
          .enabled(if: ExternalTool.isRunnable("curl")))
    func corsAndBearer() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try makeServer(loop: loop, file: "/nonexistent")
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"
        let preflight = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-i", "-X", "OPTIONS", "-H", "Origin: http://player.example",
                                                                 "-H", "Access-Control-Request-Method: POST",
                                                                 "-H", "Access-Control-Request-Headers: content-type,authorization", "\(base)/live/whip"])
        #expect(preflight.text.hasPrefix("HTTP/1.1 204"))
        #expect(preflight.text.contains("Access-Control-Allow-Origin: http://player.example"))
        #expect(preflight.text.contains("Access-Control-Allow-Methods: GET, HEAD, POST, PATCH, DELETE, OPTIONS"))
        #expect(preflight.text.contains("Access-Control-Allow-Headers: Authorization, Content-Type, If-Match"))
        #expect(preflight.text.contains("Access-Control-Expose-Headers: Location, ETag, Link"))
        let foreign = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "OPTIONS",
                                                               "-H", "Origin: http://evil.example", "-H", "Access-Control-Request-Method: POST",
                                                               "\(base)/live/whip"])
        #expect(foreign.text == "403")

        let created = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-i", "-H", "Origin: http://player.example",
                                                               "-H", "Content-Type: application/sdp", "--data-binary", "v=0", "\(base)/live/whip"])
        #expect(created.text.hasPrefix("HTTP/1.1 201"))
        #expect(created.text.contains("Location: /live/whip/session-1"))
        #expect(created.text.contains("Access-Control-Expose-Headers: Location, ETag, Link"))
        #expect(created.text.hasSuffix("0=v"))

        let refused = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-i", "-X", "DELETE", "\(base)/live/whip/session-1"])
        #expect(refused.text.hasPrefix("HTTP/1.1 401") && refused.text.contains("WWW-Authenticate: Bearer"))
        let wrong = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE",
                                                             "-H", "Authorization: Bearer nope", "\(base)/live/whip/session-1"])
        #expect(wrong.text == "401")
        let deleted = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE",
                                                               "-H", "Authorization: Bearer s3cret", "\(base)/live/whip/session-1"])
        #expect(deleted.text == "200")
    }

    @Test("Hostile clients — huge headers (431), a huge body (413), garbage (400), a slow loris (408) — lose only their own connection",
          .enabled(if: ExternalTool.isRunnable("curl")))
    func hostileClients() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try makeServer(loop: loop, file: "/nonexistent", requestTimeout: .seconds(2))
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.localAddress.port)"
        // A slow loris: a request begun and never finished, a byte every 300 ms.
        let loris = try await TCPConnection.connect(to: server.localAddress, on: loop)
        defer { loris.close() }
        let dripping = Task {
            for byte in Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 100) {
                guard (try? await loris.write([byte])) != nil else { return }
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
        defer { dripping.cancel() }
        let big = try await ExternalTool.check("timeout", ["20", "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                           "-H", "X-Big: " + String(repeating: "a", count: 10_000), "\(base)/hello"])
        #expect(big.text == "431")
        let huge = try await ExternalTool.run("timeout", ["20", "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Expect:",
                                                            "--data-binary", String(repeating: "b", count: 70_000), "\(base)/echo"])
        #expect(huge.text == "413")
        let garbage = try await TCPConnection.connect(to: server.localAddress, on: loop)
        try await garbage.write([0x16, 0x03, 0x01, 0x02, 0x00] + Array("\r\n\r\n".utf8))  // a TLS ClientHello's start
        let refusal = try await garbage.read()
        #expect(String(decoding: refusal, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        garbage.close()

        // Meanwhile the others are served at once, twenty in a row.
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<20 {
            let fine = try await ExternalTool.check("timeout", ["20", "curl", "-sS", "--fail", "\(base)/hello"])
            #expect(fine.text == "hello, world\n")
        }
        #expect(clock.now - start < .seconds(15))

        // The loris gets 408 once its request timeout passes, and is closed.
        var received: [UInt8] = []
        while let bytes = try? await loris.read(), !bytes.isEmpty { received += bytes }
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
        let statistics = server.statistics
        #expect(statistics.malformedRequests >= 3)
        #expect(statistics.timeouts + statistics.malformedRequests >= 4)
    }

    @Test("python's http.client and requests against our server: keep-alive on one connection, 201, CORS headers",
          .enabled(if: PythonPeers.isRunnable("requests")))
    func pythonClients() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try makeServer(loop: loop, file: "/nonexistent")
        defer { server.stop() }
        let script = """
        import http.client, requests, sys
        port = int(sys.argv[1])
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        out = []
        for i in range(3):
            c.request("GET", "/hello")
            r = c.getresponse()
            out.append(f"{r.status}:{r.read().decode().strip()}")
        sock = c.sock
        c.request("POST", "/echo", body=b"x" * 1000, headers={"Content-Type": "a/b"})
        r = c.getresponse()
        out.append(f"{r.status}:{len(r.read())}:{r.getheader('content-type')}:{c.sock is sock}")
        s = requests.Session()
        r = s.post(f"http://127.0.0.1:{port}/live/whip", data=b"offer", headers={"Origin": "http://player.example"}, timeout=10)
        out.append(f"{r.status_code}:{r.headers['Location']}:{r.headers['Access-Control-Allow-Origin']}:{r.content.decode()}")
        r = s.delete(f"http://127.0.0.1:{port}" + r.headers["Location"], headers={"Authorization": "Bearer s3cret"}, timeout=10)
        out.append(str(r.status_code))
        print("|".join(out))
        """
        let output = try await PythonPeers.run(script, [String(server.localAddress.port)])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines)
            == "200:hello, world|200:hello, world|200:hello, world|200:1000:a/b:True|201:/live/whip/session-1:http://player.example:reffo|200")
        #expect(server.statistics.connectionsAccepted == 2)
    }

    @Test("Our client against python's http.server: GET, POST, PATCH, DELETE; Content-Length, chunked and close-delimited bodies; keep-alive reuse; a timeout",
          .enabled(if: PythonPeers.isRunnable("http.server")))
    func clientAgainstPython() async throws {
        let port = TestPorts.reserve()
        let script = """
        import http.server, os, signal, sys, threading
        # Ends on SIGTERM or SIGINT whatever the signal dispositions it inherited, and after 60 s in any case.
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda *a: os._exit(0))
        threading.Timer(60, lambda: os._exit(0)).start()
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def reply(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n)
                if self.path == "/chunked":
                    self.send_response(200); self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
                    for part in [b"Wiki", b"pedia", b" in ", b"chunks"]:
                        self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(part), part))
                    self.wfile.write(b"0\\r\\n\\r\\n"); return
                if self.path == "/close":
                    self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                    self.wfile.write(b"until close"); self.close_connection = True; return
                if self.path == "/slow":
                    import time; time.sleep(3)
                text = f"{self.command} {self.path} {len(body)} {self.client_address[1]}".encode()
                self.send_response(201 if self.command == "POST" else 200)
                self.send_header("Content-Length", str(len(text))); self.end_headers(); self.wfile.write(text)
            do_GET = do_POST = do_PATCH = do_DELETE = reply
        s = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
        print("ready", flush=True)
        s.serve_forever()
        """
        let directory = try ExternalTool.temporaryDirectory()
        let peer = try PeerProcess(PythonPeers.python, ["-c", script, String(port)], logsIn: directory)
        defer { peer.terminate() }
        #expect(await Readiness.waitForTCP(port: port, seconds: 15))
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let client = HTTPClient(on: loop, timeout: .seconds(2))
        defer { client.close() }
        let base = "http://127.0.0.1:\(port)"; let get = try await client.send(.get, to: "\(base)/a")
        let post = try await client.send(.post, to: "\(base)/b", body: [UInt8](repeating: 7, count: 3000))
        let patch = try await client.send(.patch, to: "\(base)/c", body: Array("a=candidate".utf8))
        let delete = try await client.send(.delete, to: "\(base)/d")
        let texts = [get, post, patch, delete].map { String(decoding: $0.body, as: UTF8.self).split(separator: " ") }
        #expect(texts.map { $0.prefix(3).joined(separator: " ") } == ["GET /a 0", "POST /b 3000", "PATCH /c 11", "DELETE /d 0"])
        #expect(post.status.code == 201)
        // Keep-alive: the four requests came from one client port.
        #expect(Set(texts.map { $0.last ?? "" }).count == 1)
        let chunked = try await client.send(.get, to: "\(base)/chunked")
        #expect(String(decoding: chunked.body, as: UTF8.self) == "Wikipedia in chunks")
        let closing = try await client.send(.get, to: "\(base)/close")
        #expect(String(decoding: closing.body, as: UTF8.self) == "until close")
        let after = try await client.send(.get, to: "\(base)/after")
        #expect(after.status.code == 200)
        await #expect(throws: HTTPClientError.self) { try await client.send(.get, to: "\(base)/slow") }
        #expect(peer.isRunning)
        await peer.stop()
    }

    @Test("Our client over https (RFC 9110 §4.2.2) against python's http.server behind TLS with a self-signed certificate made here: trusted, GET/POST/DELETE on one kept-alive TLS connection; untrusted, the certificate is rejected by name",
          .enabled(if: PythonPeers.isRunnable("http.server", "ssl")))
    func clientOverTLS() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let certificate = try SelfSignedCertificate(name: "https", in: directory)
        let script = """
        import http.server, os, signal, ssl, sys, threading
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda *a: os._exit(0))
        threading.Timer(60, lambda: os._exit(0)).start()
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def reply(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                text = f"{self.command} {self.path} {len(body)} {self.headers.get('Host')} {self.client_address[1]}".encode()
                self.send_response(201 if self.command == "POST" else 200)
                self.send_header("Content-Length", str(len(text))); self.end_headers(); self.wfile.write(text)
            do_GET = do_POST = do_DELETE = reply
        s = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        s.socket = context.wrap_socket(s.socket, server_side=True)
        print("ready", flush=True)
        s.serve_forever()
        """
        let peer = try PeerProcess(PythonPeers.python, ["-c", script, String(port), certificate.certificate, certificate.key], logsIn: directory)
        defer { peer.terminate() }
        #expect(await Readiness.waitForTCP(port: port, seconds: 15))
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let base = "https://127.0.0.1:\(port)"
        let untrusted = HTTPClient(on: loop, timeout: .seconds(5))
        defer { untrusted.close() }
        do {
            _ = try await untrusted.send(.get, to: "\(base)/a")
            Issue.record("an untrusted self-signed certificate was accepted")
        } catch {
            print("https, untrusted: \(error)")
            let failure: HTTPClientError = error
            if TLSConnection.isAvailable {
                guard case .tls(.certificateRejected(let reason, _)) = failure else { throw failure }
                #expect(reason.contains("self-signed") || reason.contains("self signed"), "\(reason)")
            } else {
                guard case .tlsUnavailable = failure else { throw failure }
                #expect("\(failure)".contains("OpenSSL trait"))
            }
        }
        guard TLSConnection.isAvailable else { return }
        let client = HTTPClient(on: loop, timeout: .seconds(5), trust: .certificateFile(certificate.certificate))
        defer { client.close() }
        let get = try await client.send(.get, to: "\(base)/a")
        let post = try await client.send(.post, to: "\(base)/whip", body: [UInt8](repeating: 7, count: 3000))
        let delete = try await client.send(.delete, to: "\(base)/whip/1")
        let texts = [get, post, delete].map { String(decoding: $0.body, as: UTF8.self).split(separator: " ") }
        print("https, trusted: \(texts.map { $0.joined(separator: " ") })")
        #expect(texts.map { $0.prefix(4).joined(separator: " ") }
                == ["GET /a 0 127.0.0.1:\(port)", "POST /whip 3000 127.0.0.1:\(port)", "DELETE /whip/1 0 127.0.0.1:\(port)"])
        #expect(post.status.code == 201)
        #expect(Set(texts.map { $0.last ?? "" }).count == 1, "one kept-alive TLS connection")
        #expect(peer.isRunning)
        await peer.stop()
    }

    @Test("Our client against our server: WHIP-shaped POST, Location resolved, DELETE with a token")
    func clientAgainstServer() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try makeServer(loop: loop, file: "/nonexistent")
        defer { server.stop() }
        let client = HTTPClient(on: loop)
        defer { client.close() }
        let url = try HTTPURL(parsing: "http://127.0.0.1:\(server.localAddress.port)/live/whip")
        let created = try await client.send(.post, to: url.description, body: Array("offer".utf8), headers: ["Content-Type": "application/sdp"])
        #expect(created.status == .created && String(decoding: created.body, as: UTF8.self) == "reffo")
        let session = try url.resolving(try #require(created.headers["Location"]))
        let refused = try await client.send(.delete, to: session.description)
        #expect(refused.status.code == 401)
        let deleted = try await client.send(.delete, to: session.description, headers: ["Authorization": "Bearer s3cret"])
        #expect(deleted.status.code == 200)
        #expect(server.statistics.connectionsAccepted == 1)
    }
}
