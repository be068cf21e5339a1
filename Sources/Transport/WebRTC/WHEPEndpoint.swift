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
    public var path: String { core.path }
    /// The address each session binds its UDP port on (port 0: any).
    public let mediaAddress: SocketAddress
    /// The most sessions at once.
    public var maximumSessions: Int { core.maximumSessions }
    /// Whether the server's bearer-token check applies.
    public var requiresAuthorization: Bool { core.requiresServerAuthorization }
    /// Our SSRC per kind, the same in every session (each session has its own SRTP keys and sequence numbers).
    public let sendingSSRCs: [WebRTCMediaKind: UInt32]
    /// Our rtx SSRC per kind.
    public let retransmissionSSRCs: [WebRTCMediaKind: UInt32]
    /// The sessions' timings.
    public let configuration: WebRTCPeerSession.Configuration

    private let core: WebRTCEndpointCore
    private let sent: SentProfile

    /// The `profile-level-id` of the H.264 being sent (its SPS's), which each new viewer's answer picks its payload
    /// type by (RFC 6184 §8.2.2: a High stream goes out as the offer's High payload type); `nil` until the owner
    /// knows the stream (``WHEPDestination`` sets it when the stream opens and when its parameters change), and then
    /// the preference Constrained Baseline, High decides.
    public var sentH264: SDPH264Parameters.ProfileLevelID? {
        get { sent.value.withLock { $0 } }
        set { sent.value.withLock { $0 = newValue } }
    }

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
        self.mediaAddress = mediaAddress
        self.sendingSSRCs = sendingSSRCs
        self.retransmissionSSRCs = retransmissionSSRCs
        self.configuration = configuration
        let sent = SentProfile()
        self.sent = sent
        core = WebRTCEndpointCore(path: path, maximumSessions: maximumSessions, token: nil, requiresServerAuthorization: requiresAuthorization,
                                  peers: "viewers", makeSession: { offer, id, onClose throws(WebRTCSessionError) in
            try WebRTCPeerSession(offer: offer, id: id, bindingTo: mediaAddress, on: loop, certificate: certificate, sendingSSRCs: sendingSSRCs,
                                  retransmissionSSRCs: retransmissionSSRCs, sentH264: sent.value.withLock { $0 }, configuration: configuration,
                                  onClose: onClose)
        }, onSession: onSession)
    }

    /// The sessions open now.
    public var sessions: [WebRTCPeerSession] { core.sessions }

    /// Adds the routes to a server (POST, DELETE and PATCH under ``path``).
    /// - Parameter server: the server.
    public func mount(on server: HTTPServer) {
        core.mount(on: server) { [self] request in self.respond(to: request) }
    }

    /// Removes the routes from a server.
    /// - Parameter server: the server.
    public func unmount(from server: HTTPServer) { core.unmount(from: server) }

    /// Closes every session.
    public func closeAll() { core.closeAll() }

    /// Answers a request under ``path`` (what the routes call; tests and the fuzzer call it without an HTTP
    /// connection): POST makes a session, DELETE ends one, anything else is `405`.
    /// - Parameter request: the request, its path relative to ``path`` in `remainingPath`.
    /// - Returns: the response.
    public func respond(to request: HTTPServerRequest) -> HTTPResponse { core.respond(to: request) }
}

/// The H.264 profile-level-id a ``WHEPEndpoint`` sends, shared by the endpoint and its session maker.
private final class SentProfile: Sendable {
    let value = Mutex<SDPH264Parameters.ProfileLevelID?>(nil)
}
