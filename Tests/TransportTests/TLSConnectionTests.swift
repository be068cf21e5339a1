import Foundation
import POSIX
import Testing
import TestSupport
import Transport

/// TLS over our TCP connection against `openssl s_server` (its `-rev` mode answers each line reversed), with a
/// self-signed certificate made by the test. Each test has a port of its own (``TestPorts``).
@Suite("TLS client over TCPConnection (openssl s_server)", .needsRealTime)
struct TLSConnectionTests {
    /// Starts `openssl s_server -rev` on `port` and waits until it listens.
    static func startServer(port: UInt16, certificate: SelfSignedCertificate, in directory: URL) async throws -> PeerProcess {
        let server = try PeerProcess("openssl", [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.certificate, "-key", certificate.key, "-rev",
        ], logsIn: directory)
        let deadline = ContinuousClock.now + .seconds(10)
        while !server.standardOutput.contains("ACCEPT"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(server.standardOutput.contains("ACCEPT"), "s_server did not start: \(server.standardError)")
        return server
    }

    #if OpenSSL
    @Test("Handshake with the certificate as the trust anchor, then an echo round trip and close_notify")
    func handshakeAndEcho() async throws {
        let port = TestPorts.reserve()
        try #require(ExternalTool.isRunnable("openssl"))
        let directory = try ExternalTool.temporaryDirectory()
        let certificate = try SelfSignedCertificate(name: "server", in: directory)
        let server = try await Self.startServer(port: port, certificate: certificate, in: directory)
        defer { server.terminate() }
        let loop = try EventLoop()
        defer { loop.shutdown() }

        let tcp = try await TCPConnection.connect(to: .loopback(.ipv4, port: port), on: loop)
        let tls = try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(
            serverName: "localhost", trust: .certificateFile(certificate.certificate)))
        #expect(tls.protocolVersion.hasPrefix("TLSv1."))
        // 50 lines, written one by one and read back in pieces of any size (s_server reverses each line).
        let lines = (0..<50).map { "line \($0): " + String(repeating: "streamkit over tls ", count: 5) }
        for line in lines { try await tls.write(Array((line + "\n").utf8)) }
        var received: [UInt8] = []
        while received.filter({ $0 == UInt8(ascii: "\n") }).count < lines.count {
            let part = try await tls.read(maximumCount: 4096)
            if part.isEmpty { break }
            received += part
        }
        let replies = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(replies == lines.map { String($0.reversed()) })
        await tls.shutdown()
        #expect(tcp.isClosed)
    }

    @Test("The address as server name is checked against the certificate's IP SAN")
    func addressAsServerName() async throws {
        let port = TestPorts.reserve()
        try #require(ExternalTool.isRunnable("openssl"))
        let directory = try ExternalTool.temporaryDirectory()
        let certificate = try SelfSignedCertificate(name: "server", in: directory)
        let server = try await Self.startServer(port: port, certificate: certificate, in: directory)
        defer { server.terminate() }
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let tcp = try await TCPConnection.connect(to: .loopback(.ipv4, port: port), on: loop)
        let tls = try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(
            serverName: "127.0.0.1", trust: .certificateFile(certificate.certificate)))
        try await tls.write(Array("abc\n".utf8))
        #expect(String(decoding: try await tls.read(maximumCount: 100), as: UTF8.self) == "cba\n")
        tls.close()
    }

    @Test("A certificate nobody trusts, a wrong host name and the system roots are refused, naming why")
    func refusals() async throws {
        let port = TestPorts.reserve()
        try #require(ExternalTool.isRunnable("openssl"))
        let directory = try ExternalTool.temporaryDirectory()
        let certificate = try SelfSignedCertificate(name: "server", in: directory)
        let other = try SelfSignedCertificate(name: "other", in: directory)
        let server = try await Self.startServer(port: port, certificate: certificate, in: directory)
        defer { server.terminate() }
        let loop = try EventLoop()
        defer { loop.shutdown() }

        func attempt(_ configuration: TLSConfiguration) async throws -> TLSError? {
            let tcp = try await TCPConnection.connect(to: .loopback(.ipv4, port: port), on: loop)
            do {
                let tls = try await TLSConnection.connect(over: tcp, configuration: configuration)
                tls.close()
                return nil
            } catch {
                #expect(tcp.isClosed)
                return error
            }
        }
        // Another self-signed certificate as the only trust anchor.
        let untrusted = try await attempt(TLSConfiguration(serverName: "localhost", trust: .certificateFile(other.certificate)))
        guard case let .certificateRejected(reason, code)? = untrusted else {
            Issue.record("expected a rejected certificate, got \(String(describing: untrusted))")
            return
        }
        #expect(code == 18 || code == 20, "\(reason)")  // self-signed / unable to get local issuer
        // The right certificate, the wrong name.
        let wrongHost = try await attempt(TLSConfiguration(serverName: "wrong.example", trust: .certificateFile(certificate.certificate)))
        #expect(wrongHost == .certificateRejected(reason: "hostname mismatch", code: 62), "\(String(describing: wrongHost))")
        // Verification on by default: the system's roots do not know a certificate made a second ago.
        let system = try await attempt(TLSConfiguration(serverName: "localhost"))
        guard case .certificateRejected? = system else {
            Issue.record("expected the system roots to refuse, got \(String(describing: system))")
            return
        }
        // A trust file that does not exist.
        let missing = try await attempt(TLSConfiguration(serverName: "localhost", trust: .certificateFile(directory.path + "/none.pem")))
        guard case .trustFileUnreadable? = missing else {
            Issue.record("expected an unreadable trust file, got \(String(describing: missing))")
            return
        }
        // Unverified accepts it (the explicit opt-out).
        #expect(try await attempt(TLSConfiguration(serverName: "wrong.example", trust: .unverified)) == nil)
    }

    @Test("A server that closes the connection mid-handshake is a handshake failure")
    func truncation() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        async let served: Void = {
            let connection = try await listener.accept()
            _ = try await connection.read()  // the ClientHello
            connection.close()
        }()
        let tcp = try await TCPConnection.connect(to: listener.localAddress, on: loop)
        await #expect(throws: TLSError.handshakeFailed(reason: "the server closed the connection during the handshake")) {
            _ = try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(serverName: "localhost"))
        }
        try await served
    }
    #else
    @Test("Without the OpenSSL trait, TLS fails with a clear 'built without TLS'")
    func unavailable() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        let tcp = try await TCPConnection.connect(to: listener.localAddress, on: loop)
        await #expect(throws: TLSError.unavailable) {
            _ = try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(serverName: "localhost"))
        }
        #expect(tcp.isClosed)
        #expect(TLSError.unavailable.description.contains("built without TLS"))
    }
    #endif
}
