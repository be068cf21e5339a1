import Foundation
import StreamKit
import Synchronization
import Testing
import TestSupport

/// The WHEP resource's request path (draft-ietf-wish-whep §4): the status codes and fields a player relies on, with
/// the offers Chromium and aiortc really send (Tests/WebNetTests/Fixtures, written by scripts/webrtc-offer-fixtures.sh).
@Suite("WHEP endpoint: POST, DELETE, PATCH and their status codes")
struct WHEPEndpointTests {
    static func offer(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WebNetTests/Fixtures/\(name).sdp")
        return Array(try Data(contentsOf: url))
    }

    static func request(_ method: HTTPMethod, _ rest: String = "", type: String? = "application/sdp", body: [UInt8] = []) -> HTTPServerRequest {
        let headers: HTTPHeaders = type.map { ["Content-Type": $0] } ?? HTTPHeaders()
        return HTTPServerRequest(request: HTTPRequest(method: method, target: "/live/whep" + (rest.isEmpty ? "" : "/" + rest), headers: headers, body: body),
                                 peer: .loopback(.ipv4, port: 9), remainingPath: rest)
    }

    #if OpenSSL
    @Test("Chromium's and aiortc's offers get 201, an ICE-lite passive answer with our fingerprint and port, and a Location that DELETE ends")
    func postAndDelete() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let certificate = try DTLSCertificate()
        let endpoint = WHEPEndpoint(path: "/live/whep", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: certificate,
                                    sendingSSRCs: [.video: 0x1111, .audio: 0x2222], retransmissionSSRCs: [.video: 0x3333],
                                    maximumSessions: 2) { _ in }
        defer { endpoint.closeAll() }
        for name in ["chromium-recvonly", "aiortc-recvonly"] {
            let response = endpoint.respond(to: Self.request(.post, body: try Self.offer(name)))
            #expect(response.status.code == 201, "\(name): \(String(decoding: response.body, as: UTF8.self))")
            #expect(response.headers["Content-Type"] == "application/sdp")
            let location = try #require(response.headers["Location"])
            #expect(location.hasPrefix("/live/whep/"))
            let answer = try WebRTCOffer(parsing: String(decoding: response.body, as: UTF8.self))
            #expect(answer.isICELite)
            let session = try #require(endpoint.sessions.first { location.hasSuffix("/" + $0.id) })
            for section in answer.media where section.codecs.first != nil && section.candidates.first?.port != 0 {
                #expect(section.setup == "passive")
                #expect(section.fingerprint == certificate.fingerprint.sdpValue)
                #expect(section.candidates.map(\.port) == [session.localAddress.port])
                #expect(section.direction == "sendonly")
            }
            let video = try #require(session.track(.video))
            #expect(answer.media.contains { $0.kind == "video" && $0.codecs.first?.payloadType == video.payloadType })
            #expect(video.retransmissionPayloadType != nil, "\(name) offers rtx")
            #expect(answer.description.text.contains("a=ssrc-group:FID \(0x1111) \(0x3333)"))
        }
        #expect(endpoint.respond(to: Self.request(.post, body: try Self.offer("chromium-recvonly"))).status.code == 503, "two at most")
        let id = try #require(endpoint.sessions.first?.id)
        let session = try #require(endpoint.sessions.first)
        #expect(endpoint.respond(to: Self.request(.delete, id)).status.code == 200)
        #expect(session.isClosed)
        #expect(endpoint.respond(to: Self.request(.delete, id)).status.code == 404)
        #expect(endpoint.respond(to: Self.request(.patch, id)).status.code == 405)
        #expect(endpoint.sessions.count == 1)
    }

    @Test("A wrong content type is 415; SDP without H.264 or Opus, without a fingerprint or not SDP at all is 400")
    func refusals() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let endpoint = WHEPEndpoint(path: "/live/whep", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: try DTLSCertificate(),
                                    sendingSSRCs: [.video: 1]) { _ in }
        let chromium = String(decoding: try Self.offer("chromium-recvonly"), as: UTF8.self)
        #expect(endpoint.respond(to: Self.request(.post, type: "text/plain", body: Array(chromium.utf8))).status.code == 415)
        #expect(endpoint.respond(to: Self.request(.post, type: nil, body: Array(chromium.utf8))).status.code == 415)
        #expect(endpoint.respond(to: Self.request(.post, body: Array("hello".utf8))).status.code == 400)
        let noFingerprint = chromium.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").filter { !$0.hasPrefix("a=fingerprint") }.joined(separator: "\n")
        #expect(endpoint.respond(to: Self.request(.post, body: Array(noFingerprint.utf8))).status.code == 400)
        let noCodec = chromium.replacingOccurrences(of: "H264", with: "H999").replacingOccurrences(of: "opus", with: "opas")
        #expect(endpoint.respond(to: Self.request(.post, body: Array(noCodec.utf8))).status.code == 400)
        #expect(endpoint.sessions.isEmpty)
    }

    /// The status codes the racing POSTs got.
    final class Statuses: Sendable {
        let codes = Mutex<[Int]>([])
    }

    @Test("Sixteen POSTs at once, from sixteen threads, with room for three sessions: exactly three 201s and thirteen 503s (the cap is checked and taken under one lock)",
          arguments: 1...3)
    func concurrentPostsKeepTheCap(round: Int) throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let endpoint = WHEPEndpoint(path: "/live/whep", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: try DTLSCertificate(),
                                    sendingSSRCs: [.video: 1], maximumSessions: 3) { _ in }
        defer { endpoint.closeAll() }
        let offer = try Self.offer("chromium-recvonly")
        let statuses = Statuses()
        let started = DispatchGroup(), finished = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for _ in 0..<16 {
            started.enter()
            finished.enter()
            Thread.detachNewThread {
                started.leave()
                gate.wait()
                let code = endpoint.respond(to: Self.request(.post, body: offer)).status.code
                statuses.codes.withLock { $0.append(code) }
                finished.leave()
            }
        }
        started.wait()
        for _ in 0..<16 { gate.signal() }
        finished.wait()
        let codes = statuses.codes.withLock { $0 }
        print("WHEP concurrent POSTs, round \(round): \(codes.filter { $0 == 201 }.count) × 201, \(codes.filter { $0 == 503 }.count) × 503")
        #expect(codes.filter { $0 == 201 }.count == 3, "\(codes)")
        #expect(codes.filter { $0 == 503 }.count == 13, "\(codes)")
        #expect(endpoint.sessions.count == 3)
        // A place comes back when a session ends.
        let id = try #require(endpoint.sessions.first?.id)
        #expect(endpoint.respond(to: Self.request(.delete, id)).status.code == 200)
        #expect(endpoint.respond(to: Self.request(.post, body: offer)).status.code == 201)
        #expect(endpoint.respond(to: Self.request(.post, body: offer)).status.code == 503)
    }
    @Test("The stream's profile decides the viewer's payload type (RFC 6184 §8.2.2): Chromium's offer is answered 42e01f for Constrained Baseline, f4001f (a profile whose decoders take High) for High, and the session sends on it")
    func answerFollowsTheStreamsProfile() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let endpoint = WHEPEndpoint(path: "/live/whep", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: try DTLSCertificate(),
                                    sendingSSRCs: [.video: 1], maximumSessions: 4) { _ in }
        defer { endpoint.closeAll() }
        var chosen: [String] = []
        for sent in [SDPH264Parameters.ProfileLevelID(profileIDC: 0x42, constraints: 0xC0, levelIDC: 0x1E),
                     SDPH264Parameters.ProfileLevelID(profileIDC: 0x64, constraints: 0x00, levelIDC: 0x28)] {
            endpoint.sentH264 = sent
            let response = endpoint.respond(to: Self.request(.post, body: try Self.offer("chromium-recvonly")))
            #expect(response.status.code == 201)
            let answer = try WebRTCOffer(parsing: String(decoding: response.body, as: UTF8.self))
            let video = try #require(answer.media.first { $0.kind == "video" }?.codecs.first)
            let location = try #require(response.headers["Location"])
            let session = try #require(endpoint.sessions.first { location.hasSuffix("/" + $0.id) })
            #expect(session.track(.video)?.payloadType == video.payloadType)
            chosen.append("\(sent.text) → \(video.payloadType) \(video.h264?.profileLevelID?.text ?? "")")
        }
        print("WHEP answers by stream profile: \(chosen)")
        #expect(chosen == ["42c01e → 108 42e01f", "640028 → 41 f4001f"])
    }
    #else
    @Test("Without OpenSSL a WHEP destination cannot be made: DTLSError.unavailable")
    func unavailable() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        #expect(throws: DTLSError.unavailable) { _ = try WHEPDestination(server: server) }
    }
    #endif
}
