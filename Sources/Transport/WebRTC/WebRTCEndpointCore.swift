import POSIX
import RTP
import Synchronization

/// What ``WHIPEndpoint`` and ``WHEPEndpoint`` share (RFC 9725 §4.2–§4.5, draft-ietf-wish-whep): the sessions by
/// resource id, the routes (POST, DELETE and PATCH under the path), `405` for anything but POST at the path and
/// DELETE at a resource, `415` for an offer that is not `application/sdp`, `503` beyond the session cap, `400` for
/// an offer that does not parse or a session that cannot be made from it, `201 Created` with the answer and
/// `Location: PATH/ID`, `404` for the DELETE of an unknown resource, and the endpoint's own bearer-token check.
/// Each endpoint says how a session is made from an offer and what its sessions are called.
final class WebRTCEndpointCore: Sendable {
    /// How an endpoint makes a session: from the offer, its id and what it calls when it closes; or why not.
    typealias SessionMaker = @Sendable (_ offer: WebRTCOffer, _ id: String, _ onClose: @escaping @Sendable (String) -> Void)
        throws(WebRTCSessionError) -> WebRTCPeerSession

    /// The endpoint's path, for example `/live/whip`.
    let path: String
    /// The most sessions at once.
    let maximumSessions: Int
    /// The bearer token every request must present (RFC 9725 §4.5), if any.
    let token: String?
    /// Whether the routes need the server's bearer token (``HTTPServerConfiguration/bearerTokenValidator``).
    let requiresServerAuthorization: Bool

    /// The sessions by resource id, and how many POSTs hold a place under the cap while their session is being made.
    private struct Sessions: ~Copyable {
        var byID: [String: WebRTCPeerSession] = [:]
        var reserved = 0
    }

    private let peers: String
    private let state = Mutex(Sessions())
    private let counter = Atomic<Int>(0)
    private let makeSession: SessionMaker
    private let refusal: @Sendable (WebRTCPeerSession) -> String?
    private let onSession: @Sendable (WebRTCPeerSession) -> Void

    /// A core.
    /// - Parameters:
    ///   - path: the path (a leading `/` is added if missing).
    ///   - maximumSessions: the most sessions at once (at least 1).
    ///   - token: the bearer token of the endpoint's own check (`nil` or empty: none).
    ///   - requiresServerAuthorization: whether the routes need the server's bearer token.
    ///   - peers: what the sessions' peers are called in the `503` text ("publishers", "viewers").
    ///   - makeSession: makes a session from an offer.
    ///   - refusal: why a session made is refused after all (`400` with that text; the session is closed), or `nil`.
    ///   - onSession: called with each new session, before its answer is sent.
    init(path: String, maximumSessions: Int, token: String?, requiresServerAuthorization: Bool, peers: String,
         makeSession: @escaping SessionMaker, refusal: @escaping @Sendable (WebRTCPeerSession) -> String? = { _ in nil },
         onSession: @escaping @Sendable (WebRTCPeerSession) -> Void) {
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.maximumSessions = max(1, maximumSessions)
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.requiresServerAuthorization = requiresServerAuthorization
        self.peers = peers
        self.makeSession = makeSession
        self.refusal = refusal
        self.onSession = onSession
    }

    /// The sessions open now.
    var sessions: [WebRTCPeerSession] { state.withLock { Array($0.byID.values) } }

    /// Adds the routes to a server (POST, DELETE and PATCH under ``path``), answered by `respond`.
    /// - Parameters:
    ///   - server: the server.
    ///   - respond: the endpoint's public answer (what tests and the fuzzer call too).
    func mount(on server: HTTPServer, respond: @escaping @Sendable (HTTPServerRequest) -> HTTPResponse) {
        for method in [HTTPMethod.post, .delete, .patch] {
            server.addRoute(HTTPRoute(method, path, requiresAuthorization: requiresServerAuthorization) { request in respond(request) })
        }
    }

    /// Removes the routes from a server.
    /// - Parameter server: the server.
    func unmount(from server: HTTPServer) {
        server.removeRoutes(.post, path)
        server.removeRoutes(.delete, path)
        server.removeRoutes(.patch, path)
    }

    /// Closes every session.
    func closeAll() {
        for session in sessions { session.close() }
    }

    /// Answers a request under ``path``: the token is checked (`401` with `WWW-Authenticate: Bearer`, RFC 6750 §3),
    /// then POST makes a session, DELETE ends one, anything else is `405`.
    /// - Parameter request: the request, its path relative to ``path`` in `remainingPath`.
    /// - Returns: the response.
    func respond(to request: HTTPServerRequest) -> HTTPResponse {
        if let token, !Self.presents(token, request.request.headers["Authorization"]) {
            return HTTPResponse(status: .unauthorized, headers: ["WWW-Authenticate": "Bearer"])
        }
        switch request.request.method {
        case .post: return post(request)
        case .delete: return delete(request)
        default: return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": request.remainingPath.isEmpty ? "POST" : "DELETE"])
        }
    }

    /// A `text/plain` response.
    /// - Parameters:
    ///   - message: the text (a newline is added).
    ///   - status: the status.
    /// - Returns: the response.
    static func text(_ message: String, status: HTTPStatus) -> HTTPResponse {
        .bytes(Array((message + "\n").utf8), contentType: "text/plain; charset=utf-8", status: status)
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

    /// POST at the path (RFC 9725 §4.2): the offer makes a session, answered `201` with `Location: PATH/ID`.
    private func post(_ request: HTTPServerRequest) -> HTTPResponse {
        guard request.remainingPath.isEmpty else { return HTTPResponse(status: .methodNotAllowed, headers: ["Allow": "DELETE"]) }
        let type = request.request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() }
        guard type == "application/sdp" else { return Self.text("the offer must be application/sdp", status: .unsupportedMediaType) }
        // The cap is checked and a place taken under one lock: two POSTs at once cannot both pass it with one place left.
        let admitted = state.withLock { state -> Bool in
            guard state.byID.count + state.reserved < maximumSessions else { return false }
            state.reserved += 1
            return true
        }
        guard admitted else { return Self.text("too many \(peers)", status: .serviceUnavailable) }
        let text = String(decoding: request.request.body, as: UTF8.self)
        let offer: WebRTCOffer
        do { offer = try WebRTCOffer(parsing: text) } catch {
            release()
            return Self.text("offer: \(error)", status: .badRequest)
        }
        let id = "\(counter.wrappingAdd(1, ordering: .relaxed).newValue)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let session: WebRTCPeerSession
        do {
            session = try makeSession(offer, id) { [weak self] id in
                _ = self?.state.withLock { $0.byID.removeValue(forKey: id) }
            }
        } catch {
            release()
            switch error {
            case .offer, .missingOfferAttribute, .setupRole, .dtls(.malformedFingerprint): return Self.text("\(error)", status: .badRequest)
            default: return Self.text("\(error)", status: .internalServerError)
            }
        }
        if let reason = refusal(session) {
            release()
            session.close()
            return Self.text(reason, status: .badRequest)
        }
        // The place taken becomes the session, in the same critical section.
        state.withLock { state in
            state.reserved -= 1
            state.byID[id] = session
        }
        onSession(session)
        return HTTPResponse(status: .created, headers: ["Content-Type": "application/sdp", "Location": "\(path)/\(id)"],
                            body: Array(session.answer.utf8))
    }

    /// Gives back a place taken under the cap by a POST that made no session.
    private func release() {
        state.withLock { $0.reserved -= 1 }
    }

    /// DELETE of a resource (RFC 9725 §4.3): its session ends.
    private func delete(_ request: HTTPServerRequest) -> HTTPResponse {
        let id = request.remainingPath
        guard !id.isEmpty, let session = state.withLock({ $0.byID.removeValue(forKey: id) }) else { return HTTPResponse(status: .notFound) }
        session.close()
        return HTTPResponse(status: .ok)
    }
}
