import POSIX
import RTP
import Synchronization

/// A WHIP endpoint (RFC 9725, WebRTC-HTTP Ingestion Protocol) mounted on an ``HTTPServer``: publishers — FFmpeg's
/// `-f whip`, OBS, browsers — POST their offer and send H.264 and Opus into a receiving ``WebRTCPeerSession``.
///
/// - `POST PATH` with an SDP offer (`Content-Type: application/sdp`, RFC 9725 §4.2) whose sections send
///   (`sendonly` or `sendrecv`) makes a session and answers `201 Created` with the SDP answer — `recvonly`, H.264
///   packetization-mode 1, Opus 48000/2, rtx where offered, BUNDLE, rtcp-mux, ICE-lite, `a=setup:passive` (we the DTLS
///   server) for an offer of `actpass` or `active`, `a=setup:active` (we the DTLS client: RFC 5763 §5, RFC 8842 §5.3)
///   for one of `passive`, as FFmpeg's `-f whip` offers by default — and
///   `Location: PATH/ID`, the session's resource (§4.3);
/// - `DELETE PATH/ID` ends that session (`200`, §4.3); an unknown one is `404`;
/// - `PATCH PATH/ID` (trickle ICE, ICE restart) is `405`: the answer carries its one host candidate and
///   `a=end-of-candidates`, and an ICE-lite server needs none of the publisher's (§4.4 allows refusing PATCH);
/// - with a ``token``, every request must carry `Authorization: Bearer TOKEN` (§4.5, RFC 6750 §2.1) or it is `401`
///   with `WWW-Authenticate: Bearer`; `OPTIONS` and CORS are the server's.
///
/// A bad offer is `400` with the reason, a wrong content type `415`, an offer that sends nothing we take `400`, and
/// more publishers than ``maximumSessions`` `503`. Each session is handed to `onSession` before its answer goes out;
/// its media comes out of ``WebRTCPeerSession/receivedMedia``.
public final class WHIPEndpoint: Sendable {
    /// The endpoint's path, for example `/live/whip`.
    public let path: String
    /// The address each session binds its UDP port on (port 0: any).
    public let mediaAddress: SocketAddress
    /// The most publishers at once.
    public let maximumSessions: Int
    /// The bearer token publishers must present, if any.
    public let token: String?
    /// The sessions' timings and the receivers' bounds.
    public let configuration: WebRTCPeerSession.Configuration

    private let certificate: DTLSCertificate
    private let loop: EventLoop
    private let sessionsByID = Mutex<[String: WebRTCPeerSession]>([:])
    private let counter = Atomic<Int>(0)
    private let onSession: @Sendable (WebRTCPeerSession) -> Void

    /// An endpoint (not yet mounted).
    /// - Parameters:
    ///   - path: the path, for example `/live/whip`.
    ///   - mediaAddress: where sessions bind their UDP ports.
    ///   - loop: the event loop of the sessions' sockets.
    ///   - certificate: the DTLS certificate of every session.
    ///   - token: the bearer token publishers must present (`nil`: none).
    ///   - maximumSessions: the most publishers at once (default 1: one stream per path).
    ///   - configuration: the sessions' timings and bounds.
    ///   - onSession: called with each new session, before its answer is sent.
    public init(path: String, mediaAddress: SocketAddress, on loop: EventLoop, certificate: DTLSCertificate, token: String? = nil,
                maximumSessions: Int = 1, configuration: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration(),
                onSession: @escaping @Sendable (WebRTCPeerSession) -> Void) {
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.mediaAddress = mediaAddress
        self.loop = loop
        self.certificate = certificate
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.maximumSessions = max(1, maximumSessions)
        self.configuration = configuration
        self.onSession = onSession
    }

    /// The sessions open now.
    public var sessions: [WebRTCPeerSession] { sessionsByID.withLock { Array($0.values) } }

    /// Adds the routes to a server (POST, DELETE and PATCH under ``path``).
    /// - Parameter server: the server.
    public func mount(on server: HTTPServer) {
        for method in [HTTPMethod.post, .delete, .patch] {
            server.addRoute(HTTPRoute(method, path) { [self] request in self.respond(to: request) })
        }
    }

    /// Removes the routes from a server.
    /// - Parameter server: the server.
    public func unmount(from server: HTTPServer) {
        server.removeRoutes(.post, path)
        server.removeRoutes(.delete, path)
        server.removeRoutes(.patch, path)
    }

    /// Closes every session.
    public func closeAll() {
        for session in sessions { session.close() }
    }

    /// Answers a request under ``path`` (what the routes call; tests and the fuzzer call it without an HTTP
    /// connection): the token is checked, then POST makes a session, DELETE ends one, anything else is `405`.
    /// - Parameter request: the request, its path relative to ``path`` in `remainingPath`.
    /// - Returns: the response.
    public func respond(to request: HTTPServerRequest) -> HTTPResponse {
        if let token, !Self.presents(token, request.request.headers["Authorization"]) {
            return HTTPResponse(status: .unauthorized, headers: ["WWW-Authenticate": "Bearer"])
        }
        switch request.request.method {
        case .post: return post(request)
        case .delete: return delete(request)
        default: return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": request.remainingPath.isEmpty ? "POST" : "DELETE"])
        }
    }

    /// Whether an `Authorization` header is `Bearer TOKEN` (RFC 6750 §2.1; the scheme is case-insensitive), compared
    /// in time independent of where the first difference is.
    private static func presents(_ token: String, _ header: String?) -> Bool {
        guard let header else { return false }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let given = Array(parts[1].trimmingCharacters(in: " \t").utf8), expected = Array(token.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in given.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }

    private func post(_ request: HTTPServerRequest) -> HTTPResponse {
        guard request.remainingPath.isEmpty else { return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "DELETE"]) }
        let type = request.request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() }
        guard type == "application/sdp" else { return Self.text("the offer must be application/sdp", status: .unsupportedMediaType) }
        guard sessionsByID.withLock({ $0.count }) < maximumSessions else { return Self.text("too many publishers", status: .serviceUnavailable) }
        let text = String(decoding: request.request.body, as: UTF8.self)
        let offer: WebRTCOffer
        do { offer = try WebRTCOffer(parsing: text) } catch { return Self.text("offer: \(error)", status: .badRequest) }
        let id = "\(counter.wrappingAdd(1, ordering: .relaxed).newValue)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let session: WebRTCPeerSession
        do {
            session = try WebRTCPeerSession(offer: offer, id: id, bindingTo: mediaAddress, on: loop, certificate: certificate, sendingSSRCs: [:],
                                            h264Profiles: Self.h264Profiles, configuration: configuration, receiving: true) { [weak self] id in
                _ = self?.sessionsByID.withLock { $0.removeValue(forKey: id) }
            }
        } catch {
            switch error {
            case .offer, .missingOfferAttribute, .setupRole: return Self.text("\(error)", status: .badRequest)
            case .dtls(.malformedFingerprint): return Self.text("\(error)", status: .badRequest)
            default: return Self.text("\(error)", status: .internalServerError)
            }
        }
        guard let received = session.receiverStatistics, !received.tracks.isEmpty else {
            session.close()
            return Self.text("the offer sends no H.264 (packetization-mode 1) or Opus", status: .badRequest)
        }
        sessionsByID.withLock { $0[id] = session }
        onSession(session)
        return HTTPResponse(status: .created, headers: ["Content-Type": "application/sdp", "Location": "\(path)/\(id)"],
                            body: Array(session.answer.utf8))
    }

    private func delete(_ request: HTTPServerRequest) -> HTTPResponse {
        let id = request.remainingPath
        guard !id.isEmpty, let session = sessionsByID.withLock({ $0.removeValue(forKey: id) }) else { return HTTPResponse(status: .notFound) }
        session.close()
        return HTTPResponse(status: .ok)
    }

    /// The H.264 profiles taken from a publisher, preferred first: whatever it sends is recorded, not decoded here, so
    /// Baseline without constraint_set1 (FFmpeg's `-f whip` offers `42000d`), Main and High are taken as well as
    /// Constrained Baseline.
    static let h264Profiles: [WebRTCAnswerOptions.H264Profile] = [.constrainedBaseline, .init(profileIDC: 0x42, constrained: false), .main, .high]

    private static func text(_ message: String, status: HTTPStatus) -> HTTPResponse {
        .bytes(Array((message + "\n").utf8), contentType: "text/plain; charset=utf-8", status: status)
    }
}
