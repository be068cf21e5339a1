import Foundation
import StreamKit
import Testing
import TestSupport

/// The WHIP resource's request path (RFC 9725 §4): the offers FFmpeg 9's `-f whip` and Chromium really send
/// (Tests/WebNetTests/Fixtures), the answer's fields, and the status codes a publisher relies on.
@Suite("WHIP endpoint: POST, DELETE, the bearer token and their status codes")
struct WHIPEndpointTests {
    static func offer(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WebNetTests/Fixtures/\(name).sdp")
        return Array(try Data(contentsOf: url))
    }

    static func request(_ method: HTTPMethod, _ rest: String = "", type: String? = "application/sdp", authorization: String? = nil,
                        body: [UInt8] = []) -> HTTPServerRequest {
        var headers: HTTPHeaders = type.map { ["Content-Type": $0] } ?? HTTPHeaders()
        if let authorization { headers.set("Authorization", authorization) }
        return HTTPServerRequest(request: HTTPRequest(method: method, target: "/live/whip" + (rest.isEmpty ? "" : "/" + rest), headers: headers, body: body),
                                 peer: .loopback(.ipv4, port: 9), remainingPath: rest)
    }

    #if OpenSSL
    @Test("FFmpeg's and Chromium's sendonly offers get 201 and a recvonly ICE-lite answer (H.264, Opus, rtx where offered); DELETE ends the session")
    func postAndDelete() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let certificate = try DTLSCertificate()
        let endpoint = WHIPEndpoint(path: "/live/whip", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: certificate,
                                    token: "s3cret", maximumSessions: 2) { _ in }
        defer { endpoint.closeAll() }
        for name in ["ffmpeg9-whip-sendonly", "chromium-sendonly"] {
            let response = endpoint.respond(to: Self.request(.post, authorization: "Bearer s3cret", body: try Self.offer(name)))
            #expect(response.status.code == 201, "\(name): \(String(decoding: response.body, as: UTF8.self))")
            let location = try #require(response.headers["Location"])
            #expect(location.hasPrefix("/live/whip/"))
            let offer = try WebRTCOffer(parsing: String(decoding: try Self.offer(name), as: UTF8.self))
            let answer = try WebRTCOffer(parsing: String(decoding: response.body, as: UTF8.self))
            #expect(answer.isICELite)
            #expect(answer.bundle == offer.bundle.filter { mid in answer.media.contains { $0.mid == mid && $0.candidates.first != nil } })
            let session = try #require(endpoint.sessions.first { location.hasSuffix("/" + $0.id) })
            let accepted = answer.media.filter { !$0.candidates.isEmpty }
            #expect(Set(accepted.map(\.kind)) == ["audio", "video"], "\(name)")
            for section in accepted {
                #expect(section.direction == "recvonly")
                #expect(section.setup == "passive")
                #expect(section.rtcpMux)
                #expect(section.fingerprint == certificate.fingerprint.sdpValue)
                #expect(section.candidates.map(\.port) == [session.localAddress.port])
                let codec = try #require(section.codecs.first)
                let offered = try #require(offer.media.first { $0.mid == section.mid }?.codec(codec.payloadType), "the offer's payload type")
                #expect(codec.name == offered.name)
                #expect(section.kind == "video" ? codec.name == "H264" && codec.h264?.packetizationMode == 1 : codec.name == "OPUS")
                let offeredRTX = offer.media.first { $0.mid == section.mid }?.retransmissionPayloadType(for: codec.payloadType)
                #expect(section.retransmissionPayloadType(for: codec.payloadType) == offeredRTX, "rtx where offered")
            }
            #expect(session.receiverStatistics?.tracks.count == 2)
        }
        #expect(endpoint.respond(to: Self.request(.post, authorization: "Bearer s3cret", body: try Self.offer("chromium-sendonly"))).status.code == 503)
        let id = try #require(endpoint.sessions.first?.id)
        let session = try #require(endpoint.sessions.first { $0.id == id })
        #expect(endpoint.respond(to: Self.request(.delete, id, authorization: "Bearer s3cret")).status.code == 200)
        #expect(session.isClosed)
        #expect(endpoint.respond(to: Self.request(.delete, id, authorization: "Bearer s3cret")).status.code == 404)
        #expect(endpoint.respond(to: Self.request(.patch, id, authorization: "Bearer s3cret")).status.code == 405)
    }

    @Test("a=setup picks our DTLS role (RFC 5763 §5): active → we answer passive (server); passive (FFmpeg's default) → active (client); actpass → the configured role; holdconn → 400")
    func dtlsRoles() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let text = String(decoding: try Self.offer("ffmpeg9-whip-sendonly"), as: UTF8.self)
        for (actpass, cases) in [(DTLSRole.server, [("active", "passive", DTLSRole.server), ("passive", "active", .client), ("actpass", "passive", .server)]),
                                 (.client, [("actpass", "active", .client), ("active", "passive", .server)])] {
            var configuration = WebRTCPeerSession.Configuration()
            configuration.actpassRole = actpass
            let endpoint = WHIPEndpoint(path: "/live/whip", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: try DTLSCertificate(),
                                        maximumSessions: 8, configuration: configuration) { _ in }
            defer { endpoint.closeAll() }
            for (offered, answered, role) in cases {
                let offer = Array(text.replacingOccurrences(of: "a=setup:active", with: "a=setup:\(offered)").utf8)
                let response = endpoint.respond(to: Self.request(.post, body: offer))
                #expect(response.status.code == 201, "\(offered): \(String(decoding: response.body, as: UTF8.self))")
                let answer = try WebRTCOffer(parsing: String(decoding: response.body, as: UTF8.self))
                #expect(answer.media.filter { !$0.candidates.isEmpty }.map(\.setup) == ["passive", "passive"].map { _ in answered },
                        "offer \(offered), actpass → \(actpass)")
                let location = try #require(response.headers["Location"])
                #expect(endpoint.sessions.first { location.hasSuffix("/" + $0.id) }?.role == role)
            }
            let holdconn = Array(text.replacingOccurrences(of: "a=setup:active", with: "a=setup:holdconn").utf8)
            let refused = endpoint.respond(to: Self.request(.post, body: holdconn))
            #expect(refused.status.code == 400, "\(String(decoding: refused.body, as: UTF8.self))")
        }
    }

    @Test("no token or a wrong one is 401 with WWW-Authenticate: Bearer; a wrong type 415; a bad or receive-only offer 400")
    func refusals() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let endpoint = WHIPEndpoint(path: "/live/whip", mediaAddress: .loopback(.ipv4, port: 0), on: loop, certificate: try DTLSCertificate(),
                                    token: "s3cret") { _ in }
        defer { endpoint.closeAll() }
        let offer = try Self.offer("ffmpeg9-whip-sendonly")
        for authorization in [nil, "Bearer wrong!", "Basic czNjcmV0", "Bearer s3cre", "Bearer"] {
            let response = endpoint.respond(to: Self.request(.post, authorization: authorization, body: offer))
            #expect(response.status.code == 401, "\(authorization ?? "none")")
            #expect(response.headers["WWW-Authenticate"] == "Bearer")
        }
        #expect(endpoint.sessions.isEmpty)
        #expect(endpoint.respond(to: Self.request(.post, type: "text/plain", authorization: "Bearer s3cret", body: offer)).status.code == 415)
        #expect(endpoint.respond(to: Self.request(.post, authorization: "Bearer s3cret", body: Array("v=0\r\nm=video".utf8))).status.code == 400)
        #expect(endpoint.respond(to: Self.request(.post, authorization: "bearer s3cret", body: try Self.offer("chromium-recvonly"))).status.code == 400,
                "an offer that only receives sends nothing to ingest")
        #expect(endpoint.sessions.isEmpty)
        #expect(endpoint.respond(to: Self.request(.post, authorization: "bearer s3cret", body: offer)).status.code == 201)
    }
    #endif
}
