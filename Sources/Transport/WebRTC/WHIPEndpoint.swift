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
    public var path: String { core.path }
    /// The address each session binds its UDP port on (port 0: any).
    public let mediaAddress: SocketAddress
    /// The most publishers at once.
    public var maximumSessions: Int { core.maximumSessions }
    /// The bearer token publishers must present, if any.
    public var token: String? { core.token }
    /// The sessions' timings and the receivers' bounds.
    public let configuration: WebRTCPeerSession.Configuration

    private let core: WebRTCEndpointCore

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
        self.mediaAddress = mediaAddress
        self.configuration = configuration
        core = WebRTCEndpointCore(path: path, maximumSessions: maximumSessions, token: token, requiresServerAuthorization: false, peers: "publishers",
                                  makeSession: { offer, id, onClose throws(WebRTCSessionError) in
            try WebRTCPeerSession(offer: offer, id: id, bindingTo: mediaAddress, on: loop, certificate: certificate, sendingSSRCs: [:],
                                  h264Profiles: Self.h264Profiles, configuration: configuration, receiving: true, onClose: onClose)
        }, refusal: { session in
            session.receiverStatistics?.tracks.isEmpty == false ? nil : "the offer sends no H.264 (packetization-mode 1) or Opus"
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
    /// connection): the token is checked, then POST makes a session, DELETE ends one, anything else is `405`.
    /// - Parameter request: the request, its path relative to ``path`` in `remainingPath`.
    /// - Returns: the response.
    public func respond(to request: HTTPServerRequest) -> HTTPResponse { core.respond(to: request) }

    /// The H.264 profiles taken from a publisher, preferred first: whatever it sends is recorded, not decoded here, so
    /// Baseline without constraint_set1 (FFmpeg's `-f whip` offers `42000d`), Main and High are taken as well as
    /// Constrained Baseline.
    static let h264Profiles: [WebRTCAnswerOptions.H264Profile] = [.constrainedBaseline, .init(profileIDC: 0x42, constrained: false), .main, .high]
}
