#if OpenSSL
import Foundation
import NetworkIO
import SRTP
import Testing
import TestSupport

/// DTLS-SRTP (RFC 5764) through our ``DTLSEngine`` against `openssl s_server` / `s_client` over UDP on 127.0.0.1 and
/// against itself: the exported keys equal what OpenSSL prints, a wrong fingerprint fails clearly, lost flights are
/// retransmitted on the timer.
@Suite(.enabled(if: ExternalTool.isRunnable("openssl"), "openssl is not installed"))
struct DTLSEngineTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dtls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The SHA-256 fingerprint of a PEM certificate, as openssl computes it.
    static func fingerprint(ofPEM path: String) throws -> DTLSFingerprint {
        let output = try ExternalTool.check("openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", path])
        let value = try #require(output.text.split(separator: "=").last).trimmingCharacters(in: .whitespacesAndNewlines)
        return try DTLSFingerprint(sdp: "sha-256 \(value)")
    }

    /// Runs the engine over the socket until the handshake completes or fails, retransmitting on its timer.
    static func handshake(_ engine: DTLSEngine, over socket: LoopbackUDP, seconds: Double = 10) throws -> DTLSSRTPKeys {
        try engine.start()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            for datagram in engine.takeOutgoingDatagrams() { socket.send(datagram) }
            if let keys = engine.srtpKeys { return keys }
            let wait = engine.retransmissionTimeout.map { Int32(min(200, max(1, $0.components.seconds * 1000
                + $0.components.attoseconds / 1_000_000_000_000_000))) } ?? 200
            if let datagram = socket.receive(milliseconds: wait) {
                _ = try engine.feed(datagram)
            } else {
                try engine.handleTimeout()
            }
        }
        for datagram in engine.takeOutgoingDatagrams() { socket.send(datagram) }
        if let keys = engine.srtpKeys { return keys }
        throw TestFailure("no handshake within \(seconds) s")
    }

    static let profiles: [(SRTPProtectionProfile, String)] = [
        (.aes128CounterModeHMACSHA1_80, "SRTP_AES128_CM_SHA1_80"), (.aeadAES128GCM, "SRTP_AEAD_AES_128_GCM"),
    ]

    /// Our client (a=setup:active) against `openssl s_server -dtls1_2 -use_srtp …`: the exported keying material is
    /// what s_server prints, and it splits into the profile's keys.
    @Test(arguments: [0, 1])
    func clientAgainstOpenSSLServer(profileIndex: Int) throws {
        let (profile, name) = Self.profiles[profileIndex]
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let serverCertificate = try SelfSignedCertificate(name: "server", in: directory)
        let length = 2 * (profile.keyLength + profile.saltLength)
        let socket = try LoopbackUDP()
        let port = TestPorts.reserve()
        let server = try OpenSSLPeer(["s_server", "-dtls1_2", "-accept", "127.0.0.1:\(port)", "-cert", serverCertificate.certificate,
                                      "-key", serverCertificate.key, "-verify", "1", "-use_srtp", name,
                                      "-keymatexport", "EXTRACTOR-dtls_srtp", "-keymatexportlen", "\(length)"], in: directory)
        #expect(server.waitFor("ACCEPT", seconds: 10), "\(server.output)")
        socket.connect(to: port)
        let engine = try DTLSEngine(role: .client, certificate: DTLSCertificate(),
                                    remoteFingerprint: Self.fingerprint(ofPEM: serverCertificate.certificate))
        let keys = try Self.handshake(engine, over: socket)
        #expect(server.waitFor("Keying material:", seconds: 5), "\(server.output)")
        #expect(keys.profile == profile)
        #expect(Hex.string(keys.exported) == server.keyingMaterial, "\(server.output)")
        #expect(keys.client.masterKey == Array(keys.exported[0..<16]))
        #expect(keys.server.masterSalt == Array(keys.exported[32 + profile.saltLength..<32 + 2 * profile.saltLength]))
        #expect(keys.local == keys.client)
        #expect(server.output.contains("SRTP Extension negotiated, profile=\(name)"))
    }

    /// Our server (a=setup:passive) against `openssl s_client -dtls1_2 -use_srtp …` with a client certificate.
    @Test(arguments: [0, 1])
    func serverAgainstOpenSSLClient(profileIndex: Int) throws {
        let (profile, name) = Self.profiles[profileIndex]
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clientCertificate = try SelfSignedCertificate(name: "client", in: directory)
        let length = 2 * (profile.keyLength + profile.saltLength)
        let socket = try LoopbackUDP()
        let engine = try DTLSEngine(role: .server, certificate: DTLSCertificate(),
                                    remoteFingerprint: Self.fingerprint(ofPEM: clientCertificate.certificate))
        let client = try OpenSSLPeer(["s_client", "-dtls1_2", "-connect", "127.0.0.1:\(socket.port)",
                                      "-cert", clientCertificate.certificate, "-key", clientCertificate.key, "-use_srtp", name,
                                      "-keymatexport", "EXTRACTOR-dtls_srtp", "-keymatexportlen", "\(length)"], in: directory)
        let keys = try Self.handshake(engine, over: socket)
        #expect(client.waitFor("Keying material:", seconds: 5), "\(client.output)")
        #expect(keys.profile == profile)
        #expect(Hex.string(keys.exported) == client.keyingMaterial, "\(client.output)")
        #expect(keys.local == keys.server)
        #expect(keys.remote == keys.client)
    }

    /// A server whose certificate is not the one of the SDP: the handshake fails with `fingerprintMismatch`, naming
    /// both fingerprints.
    @Test func wrongFingerprintFails() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let serverCertificate = try SelfSignedCertificate(name: "server", in: directory)
        let actual = try Self.fingerprint(ofPEM: serverCertificate.certificate)
        var wrongBytes = actual.bytes
        wrongBytes[31] ^= 0xFF
        let wrong = try DTLSFingerprint(sha256: wrongBytes)
        let socket = try LoopbackUDP()
        let port = TestPorts.reserve()
        let server = try OpenSSLPeer(["s_server", "-dtls1_2", "-accept", "127.0.0.1:\(port)", "-cert", serverCertificate.certificate,
                                      "-key", serverCertificate.key, "-use_srtp", "SRTP_AES128_CM_SHA1_80"], in: directory)
        #expect(server.waitFor("ACCEPT", seconds: 10))
        socket.connect(to: port)
        let engine = try DTLSEngine(role: .client, certificate: DTLSCertificate(), remoteFingerprint: wrong)
        #expect(throws: DTLSError.fingerprintMismatch(expected: wrong, actual: actual)) {
            _ = try Self.handshake(engine, over: socket)
        }
        #expect(engine.srtpKeys == nil)
    }

    /// Two of our engines in memory: the client's first flights are lost twice and come again on the timer; both
    /// sides agree on GCM and on the keys; SRTP protected with one side's local keys unprotects with the other's
    /// remote keys.
    @Test func inMemoryPairWithLostFlights() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let client = try DTLSEngine(role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint)
        let server = try DTLSEngine(role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint)
        try client.start()
        var lost = 0
        var retransmissions = 0
        for _ in 0..<50 where client.srtpKeys == nil || server.srtpKeys == nil {
            let fromClient = client.takeOutgoingDatagrams()
            if !fromClient.isEmpty, lost < 2 {
                lost += 1  // drop this flight
                #expect(client.retransmissionTimeout != nil)
                // OpenSSL's timer is wall-clock: wait it out (1 s initially, doubling).
                let remaining = client.retransmissionTimeout ?? .seconds(1)
                Thread.sleep(forTimeInterval: Double(remaining.components.seconds)
                    + Double(remaining.components.attoseconds) / 1e18 + 0.05)
                if try client.handleTimeout() { retransmissions += 1 }
                continue
            }
            for datagram in fromClient { _ = try server.feed(datagram) }
            for datagram in server.takeOutgoingDatagrams() { _ = try client.feed(datagram) }
        }
        #expect(retransmissions == 2)
        let clientKeys = try #require(client.srtpKeys)
        let serverKeys = try #require(server.srtpKeys)
        #expect(clientKeys.profile == .aeadAES128GCM)
        #expect(clientKeys.exported == serverKeys.exported)
        let protector = try SRTPContext(material: clientKeys.local)
        let unprotector = try SRTPContext(material: serverKeys.remote)
        var packet: [UInt8] = [0x80, 96, 0, 1, 0, 0, 0, 0, 1, 2, 3, 4] + Array(repeating: 9, count: 100)
        let original = packet
        try protector.protectRTP(&packet)
        try unprotector.unprotectRTP(&packet)
        #expect(packet == original)
        // Application data both ways after the handshake.
        try client.send([1, 2, 3])
        var events: [DTLSEvent] = []
        for datagram in client.takeOutgoingDatagrams() { events += try server.feed(datagram) }
        #expect(events == [.applicationData([1, 2, 3])])
    }

    /// ``DTLSEngine/startHandshake()`` returns the client's first flight and nothing for a server;
    /// ``DTLSEngine/retransmissionsDue(within:)`` returns nothing while the timer (1 s at first) is far off, the
    /// ClientHello again once it has expired, and nothing after the handshake.
    @Test func startHandshakeAndRetransmissionsDue() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let client = try DTLSEngine(role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint)
        let server = try DTLSEngine(role: .server, certificate: serverCertificate, remoteFingerprint: clientCertificate.fingerprint)
        let hello = try client.startHandshake()
        #expect(!hello.isEmpty)
        #expect(try server.startHandshake().isEmpty)
        #expect(try client.retransmissionsDue(within: .milliseconds(50)).isEmpty)
        // OpenSSL's timer is wall-clock: wait it out (a flight goes again only once it has expired).
        let remaining = client.retransmissionTimeout ?? .seconds(1)
        Thread.sleep(forTimeInterval: Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18 + 0.05)
        let again = try client.retransmissionsDue(within: .milliseconds(50))
        print("DTLS: first flight \(hello.map(\.count)) bytes, retransmitted \(again.map(\.count)) bytes")
        #expect(again.map(\.count) == hello.map(\.count))
        for datagram in again { _ = try server.feed(datagram) }
        for _ in 0..<10 where client.srtpKeys == nil || server.srtpKeys == nil {
            for datagram in server.takeOutgoingDatagrams() { _ = try client.feed(datagram) }
            for datagram in client.takeOutgoingDatagrams() { _ = try server.feed(datagram) }
        }
        #expect(client.srtpKeys != nil && server.srtpKeys != nil)
        #expect(try client.retransmissionsDue(within: .seconds(60)).isEmpty)
    }

    /// Our client against our server that expects another client certificate: the server fails with
    /// `fingerprintMismatch`, and the client hears the alert and fails too.
    @Test func inMemoryMismatchFailsBothSides() throws {
        let clientCertificate = try DTLSCertificate()
        let serverCertificate = try DTLSCertificate()
        let other = try DTLSCertificate()
        let client = try DTLSEngine(role: .client, certificate: clientCertificate, remoteFingerprint: serverCertificate.fingerprint)
        let server = try DTLSEngine(role: .server, certificate: serverCertificate, remoteFingerprint: other.fingerprint)
        try client.start()
        var serverError: DTLSError?
        var clientError: DTLSError?
        for _ in 0..<10 where serverError == nil || clientError == nil {
            for datagram in client.takeOutgoingDatagrams() where serverError == nil {
                do { _ = try server.feed(datagram) } catch { serverError = error }
            }
            for datagram in server.takeOutgoingDatagrams() where clientError == nil {
                do { _ = try client.feed(datagram) } catch { clientError = error }
            }
        }
        #expect(serverError == .fingerprintMismatch(expected: other.fingerprint, actual: clientCertificate.fingerprint))
        #expect(clientError != nil)
        #expect(server.srtpKeys == nil)
    }

    /// SDP fingerprints: our certificate's round-trips through its SDP text; malformed ones are refused with a reason.
    @Test func fingerprintSDPForm() throws {
        let certificate = try DTLSCertificate()
        let text = certificate.fingerprint.sdpValue
        #expect(text.hasPrefix("sha-256 "))
        #expect(text.count == "sha-256 ".count + 32 * 3 - 1)
        #expect(try DTLSFingerprint(sdp: text) == certificate.fingerprint)
        #expect(try DTLSFingerprint(sdp: "SHA-256 " + text.dropFirst(8).lowercased()) == certificate.fingerprint)
        #expect(throws: DTLSError.self) { try DTLSFingerprint(sdp: "sha-1 AB:CD") }
        #expect(throws: DTLSError.self) { try DTLSFingerprint(sdp: "sha-256 " + text.dropFirst(11)) }
    }
}
#endif
