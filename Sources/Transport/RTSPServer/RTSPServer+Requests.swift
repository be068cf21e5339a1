import POSIX

/// Answering requests (RFC 2326 §10): one function per method, each returning the response and whether to close.
extension RTSPServer {
    static let supportedMethods: [RTSPMethod] = [.options, .describe, .setup, .play, .pause, .teardown, .getParameter, .setParameter]

    /// The response to one request on a connection (with its `CSeq` echoed and the `Server` header).
    func respond(to request: RTSPRequest, on connection: TCPConnection) -> RTSPResponse {
        var response = answer(request, on: connection)
        response.headers.set("Server", configuration.serverName)
        if let cseq = request.cseq { response.headers.set("CSeq", String(cseq)) }
        return response
    }

    private func answer(_ request: RTSPRequest, on connection: TCPConnection) -> RTSPResponse {
        // RFC 2326 §12.17: every request carries CSeq; without a usable one the request is bad.
        guard request.cseq != nil else { return RTSPResponse(status: .badRequest) }
        guard Self.supportedMethods.contains(request.method) else {
            if request.method == .announce || request.method == .record || request.method == .redirect {
                return RTSPResponse(status: .methodNotAllowed, headers: ["Allow": RTSPMethod.publicHeaderValue(Self.supportedMethods)])
            }
            return RTSPResponse(status: .notImplemented, headers: ["Public": RTSPMethod.publicHeaderValue(Self.supportedMethods)])
        }
        if request.method == .options {
            touchSession(request)
            return RTSPResponse(status: .ok, headers: ["Public": RTSPMethod.publicHeaderValue(Self.supportedMethods)])
        }
        if let authenticator = configuration.authenticator {
            let verdict = authenticator.verify(request.headers["Authorization"], method: request.method)
            if verdict != .accepted {
                var response = RTSPResponse(status: .unauthorized)
                for challenge in authenticator.challengeHeaderValues(stale: verdict == .staleNonce) {
                    response.headers.append("WWW-Authenticate", challenge)
                }
                return response
            }
        }
        let path: String
        do {
            path = try RTSPRequestPath.path(of: request.uri)
        } catch {
            return RTSPResponse(status: .badRequest)
        }
        switch request.method {
        case .describe: return describe(request, path: path)
        case .setup: return setup(request, path: path, on: connection)
        case .play: return play(request)
        case .pause: return pause(request)
        case .teardown: return teardown(request)
        default: return keepAlive(request)
        }
    }

    /// The stream at a path, and the remainder after its path (a track control, or empty).
    private func resolve(_ path: String) -> (RTSPLiveStream, String)? {
        state.withLock { state in
            if let stream = state.streams[path] { return (stream, "") }
            var best: (RTSPLiveStream, String)?
            for (streamPath, stream) in state.streams where path.hasPrefix(streamPath + "/") || streamPath.isEmpty {
                let rest = streamPath.isEmpty ? path : String(path.dropFirst(streamPath.count + 1))
                if let (current, _) = best, current.path.count >= streamPath.count { continue }
                best = (stream, rest)
            }
            return best
        }
    }

    private func contentBase(_ request: RTSPRequest) -> String {
        var base = request.uri
        if let query = base.firstIndex(where: { $0 == "?" }) { base = String(base[..<query]) }
        return base.hasSuffix("/") ? base : base + "/"
    }

    // MARK: DESCRIBE (RFC 2326 §10.2)

    private func describe(_ request: RTSPRequest, path: String) -> RTSPResponse {
        guard let (stream, rest) = resolve(path), rest.isEmpty else { return RTSPResponse(status: .notFound) }
        return RTSPResponse(status: .ok, headers: ["Content-Type": "application/sdp", "Content-Base": contentBase(request)],
                            body: Array(stream.sessionDescription.utf8))
    }

    // MARK: SETUP (RFC 2326 §10.4)

    private func setup(_ request: RTSPRequest, path: String, on connection: TCPConnection) -> RTSPResponse {
        guard let (stream, control) = resolve(path) else { return RTSPResponse(status: .notFound) }
        let track: Int
        if control.isEmpty {
            guard stream.trackCount == 1 else { return RTSPResponse(status: .aggregateOperationNotAllowed) }
            track = 0
        } else if let index = stream.trackControls.firstIndex(where: { $0 == control || trackPath(of: $0) == path }) {
            track = index
        } else {
            return RTSPResponse(status: .notFound)
        }
        guard let transportValue = request.headers["Transport"],
              let offers = try? RTSPTransportHeader.parseList(transportValue) else { return RTSPResponse(status: .unsupportedTransport) }
        var chosen: (RTSPLiveStream.Delivery, RTSPTransportHeader)?
        for offer in offers where !offer.isMulticast && offer.profile == "RTP/AVP" {
            switch offer.lowerTransport {
            case .tcp:
                let channels = offer.interleavedChannels ?? UInt8(truncatingIfNeeded: 2 * track)...UInt8(truncatingIfNeeded: 2 * track + 1)
                var reply = RTSPTransportHeader(lowerTransport: .tcp, interleavedChannels: channels)
                reply.mode = nil
                chosen = (.interleaved(rtp: channels.lowerBound, rtcp: channels.upperBound, connection: connection), reply)
            case .udp:
                // Media goes to the host the request came from, never to a `destination=` (no reflection attacks).
                guard let ports = offer.clientPorts,
                      let rtp = try? SocketAddress(host: connection.remoteAddress.host, port: ports.lowerBound),
                      let rtcp = try? SocketAddress(host: connection.remoteAddress.host, port: ports.upperBound),
                      rtp.family == rtpSocket.localAddress.family else { continue }
                let reply = RTSPTransportHeader(lowerTransport: .udp, clientPorts: ports, serverPorts: serverPorts)
                chosen = (.udp(rtp: rtp, rtcp: rtcp), reply)
            }
            if chosen != nil { break }
        }
        guard let (delivery, reply) = chosen else { return RTSPResponse(status: .unsupportedTransport) }
        let requested = (try? request.headers["Session"].map(RTSPSessionHeader.init(parsing:))) ?? nil
        if request.headers["Session"] != nil, requested == nil { return RTSPResponse(status: .sessionNotFound) }
        let outcome: RTSPStatus? = state.withLock { state -> RTSPStatus? in
            if let requested {
                guard var session = state.sessions[requested.identifier] else { return .sessionNotFound }
                guard session.stream === stream else { return .aggregateOperationNotAllowed }
                guard !session.isPlaying else { return .methodNotValidInThisState }
                session.deliveries[track] = delivery
                session.lastHeard = .now
                state.sessions[requested.identifier] = session
                return nil
            }
            return .ok
        }
        var identifier = requested?.identifier ?? ""
        if let outcome {
            guard outcome == .ok else { return RTSPResponse(status: outcome) }
            identifier = Self.newSessionIdentifier()
            let full: Bool = state.withLock { state in
                guard state.sessions.count < configuration.maximumSessions else { return true }
                var session = RTSPServerSession(identifier: identifier, stream: stream, connection: connection)
                session.deliveries[track] = delivery
                state.sessions[identifier] = session
                return false
            }
            if full { return RTSPResponse(status: .notEnoughBandwidth) }
        }
        return RTSPResponse(status: .ok, headers: [
            "Transport": reply.headerValue,
            "Session": RTSPSessionHeader(identifier: identifier, timeout: configuration.timeoutSeconds).headerValue,
        ])
    }

    private func trackPath(of control: String) -> String? {
        guard control.lowercased().hasPrefix("rtsp://") else { return nil }
        return try? RTSPRequestPath.path(of: control)
    }

    static func newSessionIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return MD5.hex((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }).uppercased()
    }

    // MARK: PLAY, PAUSE, TEARDOWN (RFC 2326 §10.5–10.7)

    private enum SessionLookup {
        case found(RTSPServerSession)
        case refused(RTSPStatus)
    }

    private func session(of request: RTSPRequest) -> SessionLookup {
        guard let value = request.headers["Session"], let header = try? RTSPSessionHeader(parsing: value) else {
            return .refused(.sessionNotFound)
        }
        return state.withLock { state in
            guard var session = state.sessions[header.identifier] else { return .refused(.sessionNotFound) }
            session.lastHeard = .now
            state.sessions[header.identifier] = session
            return .found(session)
        }
    }

    private func play(_ request: RTSPRequest) -> RTSPResponse {
        let session: RTSPServerSession
        switch self.session(of: request) {
        case let .found(found): session = found
        case let .refused(status): return RTSPResponse(status: status)
        }
        guard session.deliveries.contains(where: { $0 != nil }) else { return RTSPResponse(status: .methodNotValidInThisState) }
        state.withLock { $0.sessions[session.identifier]?.isPlaying = true }
        let tracks = session.stream.trackStates()
        session.stream.subscribe(RTSPLiveStream.Subscriber(sessionID: session.identifier, deliveries: session.deliveries))
        eventSink.yield(.playing(session: session.identifier, path: session.stream.path, peer: session.connection.remoteAddress))
        var headers: RTSPHeaders = ["Session": session.identifier, "Range": RTSPRange(start: 0).headerValue]
        let base = contentBase(request)
        let entries = session.deliveries.indices.compactMap { index -> RTPInfoHeader.Entry? in
            guard session.deliveries[index] != nil, let sequence = tracks[index].lastSequenceNumber else { return nil }
            let control = session.stream.trackControls[index]
            let url = control.lowercased().hasPrefix("rtsp://") ? control : base + control
            return RTPInfoHeader.Entry(url: url, sequenceNumber: sequence &+ 1, rtpTime: tracks[index].lastTimestamp)
        }
        if !entries.isEmpty { headers.append("RTP-Info", RTPInfoHeader(entries: entries).headerValue) }
        return RTSPResponse(status: .ok, headers: headers)
    }

    private func pause(_ request: RTSPRequest) -> RTSPResponse {
        switch session(of: request) {
        case let .found(session):
            session.stream.unsubscribe(sessionID: session.identifier)
            state.withLock { $0.sessions[session.identifier]?.isPlaying = false }
            return RTSPResponse(status: .ok, headers: ["Session": session.identifier])
        case let .refused(status):
            return RTSPResponse(status: status)
        }
    }

    private func teardown(_ request: RTSPRequest) -> RTSPResponse {
        switch session(of: request) {
        case let .found(session):
            tearDownSessions { $0.identifier == session.identifier }
            return RTSPResponse(status: .ok, headers: ["Session": session.identifier])
        case let .refused(status):
            return RTSPResponse(status: status)
        }
    }

    // MARK: GET_PARAMETER, SET_PARAMETER (RFC 2326 §10.8–10.9): keep-alives

    private func keepAlive(_ request: RTSPRequest) -> RTSPResponse {
        guard request.headers["Session"] != nil else { return RTSPResponse(status: .ok) }
        switch session(of: request) {
        case let .found(session): return RTSPResponse(status: .ok, headers: ["Session": session.identifier])
        case let .refused(status): return RTSPResponse(status: status)
        }
    }

    private func touchSession(_ request: RTSPRequest) {
        if request.headers["Session"] != nil { _ = session(of: request) }
    }
}
