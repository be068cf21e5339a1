import POSIX
import RTP
import Synchronization

/// A WHEP endpoint (draft-ietf-wish-whep, the playback sibling of WHIP, RFC 9725) mounted on an ``HTTPServer``:
///
/// - `POST PATH` with an SDP offer (`Content-Type: application/sdp`) makes a ``WebRTCPeerSession`` and answers
///   `201 Created` with the SDP answer and `Location: PATH/ID` (the session's resource);
/// - `DELETE PATH/ID` ends that session (`200`), an unknown one is `404`;
/// - `PATCH PATH/ID` (trickle ICE, ICE restart) is `405`: the answer is ICE-lite with its one host candidate and
///   `a=end-of-candidates`, and the viewer's checks need no candidates of its own in advance;
/// - `OPTIONS` and CORS are the server's (``HTTPServerConfiguration/cors``, which exposes `Location`), and so is the
///   bearer-token check (``HTTPServerConfiguration/bearerTokenValidator``) when `requiresAuthorization` is set.
///
/// A bad offer is `400` with the reason, a wrong content type `415`, and more viewers than ``maximumSessions`` `503`.
/// Each session calls `onSession` once it is made; the owner (``WHEPDestination`` in `Live`) sends media to it.
public final class WHEPEndpoint: Sendable {
    /// The endpoint's path, for example `/live/whep`.
    public let path: String
    /// The address each session binds its UDP port on (port 0: any).
    public let mediaAddress: SocketAddress
    /// The most sessions at once.
    public let maximumSessions: Int
    /// Whether the server's bearer-token check applies.
    public let requiresAuthorization: Bool
    /// Our SSRC per kind, the same in every session (each session has its own SRTP keys and sequence numbers).
    public let sendingSSRCs: [WebRTCMediaKind: UInt32]
    /// Our rtx SSRC per kind.
    public let retransmissionSSRCs: [WebRTCMediaKind: UInt32]
    /// The sessions' timings.
    public let configuration: WebRTCPeerSession.Configuration

    private let certificate: DTLSCertificate
    private let loop: EventLoop
    private let sessionsByID = Mutex<[String: WebRTCPeerSession]>([:])
    private let counter = Atomic<Int>(0)
    private let onSession: @Sendable (WebRTCPeerSession) -> Void

    /// An endpoint (not yet mounted).
    /// - Parameters:
    ///   - path: the path, for example `/live/whep`.
    ///   - mediaAddress: where sessions bind their UDP ports.
    ///   - loop: the event loop of the sessions' sockets (the server's own, for example).
    ///   - certificate: the DTLS certificate of every session.
    ///   - sendingSSRCs: our SSRC per kind.
    ///   - retransmissionSSRCs: our rtx SSRC per kind.
    ///   - maximumSessions: the most viewers (default 64).
    ///   - requiresAuthorization: whether POST and DELETE need the server's bearer token.
    ///   - configuration: the sessions' timings.
    ///   - onSession: called with each new session, before its answer is sent.
    public init(path: String, mediaAddress: SocketAddress, on loop: EventLoop, certificate: DTLSCertificate, sendingSSRCs: [WebRTCMediaKind: UInt32],
                retransmissionSSRCs: [WebRTCMediaKind: UInt32] = [:], maximumSessions: Int = 64, requiresAuthorization: Bool = false,
                configuration: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration(),
                onSession: @escaping @Sendable (WebRTCPeerSession) -> Void) {
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.mediaAddress = mediaAddress
        self.loop = loop
        self.certificate = certificate
        self.sendingSSRCs = sendingSSRCs
        self.retransmissionSSRCs = retransmissionSSRCs
        self.maximumSessions = max(1, maximumSessions)
        self.requiresAuthorization = requiresAuthorization
        self.configuration = configuration
        self.onSession = onSession
    }

    /// The sessions open now.
    public var sessions: [WebRTCPeerSession] { sessionsByID.withLock { Array($0.values) } }

    /// Adds the routes to a server (POST, DELETE and PATCH under ``path``).
    /// - Parameter server: the server.
    public func mount(on server: HTTPServer) {
        for method in [HTTPMethod.post, .delete, .patch] {
            server.addRoute(HTTPRoute(method, path, requiresAuthorization: requiresAuthorization) { [self] request in
                self.respond(to: request)
            })
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
    /// connection): POST makes a session, DELETE ends one, anything else is `405`.
    /// - Parameter request: the request, its path relative to ``path`` in `remainingPath`.
    /// - Returns: the response.
    public func respond(to request: HTTPServerRequest) -> HTTPResponse {
        switch request.request.method {
        case .post: return post(request)
        case .delete: return delete(request)
        default: return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": request.remainingPath.isEmpty ? "POST" : "DELETE"])
        }
    }

    private func post(_ request: HTTPServerRequest) -> HTTPResponse {
        guard request.remainingPath.isEmpty else { return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "DELETE"]) }
        let type = request.request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() }
        guard type == "application/sdp" else { return Self.text("the offer must be application/sdp", status: .unsupportedMediaType) }
        guard sessionsByID.withLock({ $0.count }) < maximumSessions else { return Self.text("too many viewers", status: .serviceUnavailable) }
        let text = String(decoding: request.request.body, as: UTF8.self)
        let offer: WebRTCOffer
        do { offer = try WebRTCOffer(parsing: text) } catch { return Self.text("offer: \(error)", status: .badRequest) }
        let id = "\(counter.wrappingAdd(1, ordering: .relaxed).newValue)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let session: WebRTCPeerSession
        do {
            session = try WebRTCPeerSession(offer: offer, id: id, bindingTo: mediaAddress, on: loop, certificate: certificate,
                                            sendingSSRCs: sendingSSRCs, retransmissionSSRCs: retransmissionSSRCs,
                                            configuration: configuration) { [weak self] id in
                _ = self?.sessionsByID.withLock { $0.removeValue(forKey: id) }
            }
        } catch {
            switch error {
            case .offer, .missingOfferAttribute, .setupRole: return Self.text("\(error)", status: .badRequest)
            case .dtls(.malformedFingerprint): return Self.text("\(error)", status: .badRequest)
            default: return Self.text("\(error)", status: .internalServerError)
            }
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

    private static func text(_ message: String, status: HTTPStatus) -> HTTPResponse {
        .bytes(Array((message + "\n").utf8), contentType: "text/plain; charset=utf-8", status: status)
    }
}
