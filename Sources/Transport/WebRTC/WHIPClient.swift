import POSIX
import RTP
import Synchronization

/// A WHIP client (RFC 9725): publishes H.264 and Opus to a WHIP endpoint over WebRTC.
///
/// ``publish(to:on:options:)`` binds a UDP port on the address the kernel routes to the endpoint from (or the one
/// given), makes our offer (``WebRTCPublishOffer``: sendonly, BUNDLE, rtcp-mux, `a=setup:actpass`, our host
/// candidate, no trickle), POSTs it (`Content-Type: application/sdp`, `Authorization: Bearer` when a token is given,
/// §4.2, §4.5), reads the `201 Created` answer (``WebRTCPublishAnswer``) and its `Location` (resolved against the
/// endpoint's URL), and starts a ``WebRTCClientSession`` (full ICE, controlling; DTLS; SRTP). ``stop()`` closes the
/// session and DELETEs the resource (§4.3). An `https://` endpoint (what §4.1 asks for) gets every request — the POST
/// and the DELETE — over TLS, its certificate checked against ``Options/tlsTrust`` (trait `OpenSSL`).
///
/// ```swift
/// let whip = try await WHIPClient.publish(to: "https://whip.example/ingest", on: loop)
/// try await whip.session.waitUntilConnected()
/// whip.session.send(packets, kind: .video, isKeyFrame: true)
/// await whip.stop()
/// ```
public final class WHIPClient: Sendable {
    /// How to publish.
    public struct Options: Sendable {
        /// The bearer token (RFC 9725 §4.5), or `nil`.
        public var bearerToken: String?
        /// The address to bind the media port to (its host candidate); `nil`: the address the kernel routes to the
        /// endpoint from, any port.
        public var localAddress: SocketAddress?
        /// The H.264 profiles offered, preferred first; empty offers no video.
        public var h264Profiles: [SDPH264Parameters.ProfileLevelID]
        /// Whether Opus is offered.
        public var offersAudio: Bool
        /// The session's timings and bounds.
        public var session: WebRTCPeerSession.Configuration
        /// The longest one HTTP exchange may take.
        public var httpTimeout: Duration
        /// The certificates an `https://` endpoint may present: the system's certificate authorities unless given
        /// (``TLSTrust/certificateFile(_:)`` for a private CA or a self-signed endpoint, `--ca-file` on the command line).
        public var tlsTrust: TLSTrust

        /// Options.
        /// - Parameters:
        ///   - bearerToken: the token, or `nil`.
        ///   - localAddress: the media address, or `nil` for the route's source address.
        ///   - h264Profiles: the H.264 profiles (default 42e01f, then High 640c1f).
        ///   - offersAudio: whether to offer Opus (default yes).
        ///   - session: the session's timings.
        ///   - httpTimeout: the HTTP time-out (default 10 s).
        ///   - tlsTrust: the certificates an `https://` endpoint may present (the system's unless given).
        public init(bearerToken: String? = nil, localAddress: SocketAddress? = nil,
                    h264Profiles: [SDPH264Parameters.ProfileLevelID] = [WebRTCPublishOffer.constrainedBaseline, WebRTCPublishOffer.high],
                    offersAudio: Bool = true, session: WebRTCPeerSession.Configuration = WebRTCPeerSession.Configuration(),
                    httpTimeout: Duration = .seconds(10), tlsTrust: TLSTrust = .systemRoots) {
            self.tlsTrust = tlsTrust
            self.bearerToken = bearerToken
            self.localAddress = localAddress
            self.h264Profiles = h264Profiles
            self.offersAudio = offersAudio
            self.session = session
            self.httpTimeout = httpTimeout
        }
    }

    /// The endpoint's URL.
    public let endpoint: String
    /// The session resource's URL (the `Location`, absolute).
    public let resource: String
    /// The offer we sent.
    public let offer: WebRTCPublishOffer
    /// The answer we got.
    public let answer: WebRTCPublishAnswer
    /// The WebRTC session.
    public let session: WebRTCClientSession
    /// How long the POST took (request sent → answer read).
    public let signallingTime: Duration

    private let client: HTTPClient
    private let options: Options
    private let deleted = Mutex(false)

    private init(endpoint: String, resource: String, offer: WebRTCPublishOffer, answer: WebRTCPublishAnswer, session: WebRTCClientSession,
                 signallingTime: Duration, client: HTTPClient, options: Options) {
        self.endpoint = endpoint
        self.resource = resource
        self.offer = offer
        self.answer = answer
        self.session = session
        self.signallingTime = signallingTime
        self.client = client
        self.options = options
    }

    /// Publishes to an endpoint: offer, answer, and a session whose ICE has started (wait for
    /// ``WebRTCClientSession/waitUntilConnected()`` before sending).
    /// - Parameters:
    ///   - url: the endpoint, `http://HOST[:PORT]/PATH` or `https://…` (RFC 9725 §4.1: TLS, the certificate checked
    ///     against ``Options/tlsTrust``; trait `OpenSSL`).
    ///   - loop: the event loop of the HTTP connection and the UDP port.
    ///   - options: token, address, codecs, timings.
    /// - Returns: the client.
    /// - Throws: ``WHIPClientError``.
    public static func publish(to url: String, on loop: EventLoop, options: Options = Options()) async throws(WHIPClientError) -> WHIPClient {
        let parsed: HTTPURL
        do { parsed = try HTTPURL(parsing: url) } catch { throw .invalidURL(url, reason: "\(error)") }
        // RFC 9725 §4.1 wants HTTPS; without TLS in the build it is refused before any port is bound.
        if parsed.isSecure, !TLSConnection.isAvailable { throw .http(.tlsUnavailable(parsed.description)) }
        let local: SocketAddress
        if let given = options.localAddress { local = given } else { local = try routeSource(toward: parsed) }
        let socket: UDPSocket
        do { socket = try UDPSocket(bindingTo: local, on: loop) } catch { throw .transport(error) }
        let certificate: DTLSCertificate
        do { certificate = try DTLSCertificate() } catch {
            socket.close()
            throw .dtls(error)
        }
        let credentials = ICECredentials.random()
        let bound = socket.localAddress
        let candidate = WebRTCCandidate(foundation: "1", priority: 2_130_706_431, address: bound.host, port: bound.port)
        let offer = WebRTCPublishOffer(iceUserFragment: credentials.userFragment, icePassword: credentials.password,
                                       fingerprint: certificate.fingerprint.sdpValue, candidates: [candidate],
                                       h264Profiles: options.h264Profiles, offersAudio: options.offersAudio)
        var headers: HTTPHeaders = ["Content-Type": "application/sdp"]
        if let token = options.bearerToken { headers.set("Authorization", "Bearer \(token)") }
        let client = HTTPClient(on: loop, timeout: options.httpTimeout, trust: options.tlsTrust)
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await client.send(.post, to: url, body: Array(offer.description.text.utf8), headers: headers)
        } catch {
            socket.close()
            client.close()
            throw .http(error)
        }
        let signallingTime = ContinuousClock.now - start
        guard response.status.code == 201 else {
            socket.close()
            client.close()
            throw .refused(status: response.status.code, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        guard let location = response.headers["Location"], !location.isEmpty else {
            socket.close()
            client.close()
            throw .missingLocation
        }
        let answer: WebRTCPublishAnswer
        do { answer = try WebRTCPublishAnswer(parsing: String(decoding: response.body, as: UTF8.self), offer: offer) } catch {
            socket.close()
            _ = try? await client.send(.delete, to: resolve(location, against: parsed), headers: authorization(options))
            client.close()
            throw .answer(error)
        }
        let session: WebRTCClientSession
        do {
            session = try WebRTCClientSession(answer: answer, offer: offer, local: credentials, socket: socket, certificate: certificate,
                                              configuration: options.session)
        } catch {
            _ = try? await client.send(.delete, to: resolve(location, against: parsed), headers: authorization(options))
            client.close()
            throw error
        }
        return WHIPClient(endpoint: url, resource: resolve(location, against: parsed), offer: offer, answer: answer, session: session,
                          signallingTime: signallingTime, client: client, options: options)
    }

    /// Ends the publish: the session closes (RTCP BYE, DTLS close_notify) and the resource is deleted (RFC 9725 §4.3);
    /// calling it again does nothing.
    /// - Returns: the DELETE's status code, or `nil` when it failed or was already sent.
    @discardableResult
    public func stop() async -> Int? {
        session.close()
        let first = deleted.withLock { deleted -> Bool in
            defer { deleted = true }
            return !deleted
        }
        guard first else { return nil }
        let status = try? await client.send(.delete, to: resource, headers: Self.authorization(options)).status.code
        client.close()
        return status
    }

    private static func authorization(_ options: Options) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let token = options.bearerToken { headers.set("Authorization", "Bearer \(token)") }
        return headers
    }

    /// A `Location` made absolute (RFC 9110 §10.2.2: a URI reference resolved against the request's URL).
    /// A whole URL that does not parse is kept as it is (the request to it then fails with the reason).
    static func resolve(_ location: String, against base: HTTPURL) -> String {
        (try? base.resolving(location))?.description ?? location
    }

    /// The address the kernel would send to the endpoint from (a connected UDP socket's local address), any port.
    private static func routeSource(toward url: HTTPURL) throws(WHIPClientError) -> SocketAddress {
        let host = url.host.hasPrefix("[") && url.host.hasSuffix("]") ? String(url.host.dropFirst().dropLast()) : url.host
        let remote: SocketAddress
        do {
            remote = try SocketAddress(host: host == "localhost" ? "127.0.0.1" : host, port: url.port)
        } catch {
            throw .invalidURL(url.description, reason: "the host is not an IPv4 or IPv6 address (\(error))")
        }
        do {
            let probe = try Socket(.udp, family: remote.family)
            defer { try? probe.close() }
            _ = try probe.connect(to: remote)
            var source = try probe.localAddress()
            source.port = 0
            return source
        } catch {
            throw .transport(.system(error))
        }
    }
}
