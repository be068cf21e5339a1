import POSIX
import Synchronization

/// An RTSP 1.0 server (RFC 2326) for live streams: OPTIONS, DESCRIBE, SETUP (UDP unicast or TCP interleaved),
/// PLAY, PAUSE, TEARDOWN, and GET_PARAMETER / SET_PARAMETER as keep-alives; optional Digest authentication.
///
/// The caller adds a stream with its SDP (``addStream(path:sdp:)``) and publishes that stream's RTP and RTCP packets
/// (``RTSPLiveStream/publishRTP(_:track:timestamp:)``); every client playing it gets them. Each client has a bounded
/// send queue: one that stops reading is dropped without slowing the others, and a session not heard from for the
/// timeout is torn down. A malformed request is answered with its 4xx/5xx status and that client alone is closed.
///
/// ```swift
/// let loop = try EventLoop()
/// let server = try RTSPServer(configuration: RTSPServerConfiguration(address: .any(.ipv4, port: 8554)), on: loop)
/// let stream = server.addStream(path: "live", sdp: sdp)
/// server.start()
/// stream.publishRTP(packet, track: 0, timestamp: timestamp)   // for every packet
/// server.stop()
/// ```
public final class RTSPServer: Sendable {
    /// What has happened on the server so far.
    public struct Statistics: Hashable, Sendable, CustomStringConvertible {
        /// RTSP connections accepted.
        public var connectionsAccepted = 0
        /// Connections refused because the server was full.
        public var connectionsRefused = 0
        /// Connections closed because what they sent was not RTSP (or was over a cap).
        public var malformedStreams = 0
        /// Requests answered with a 4xx or 5xx status.
        public var requestsRefused = 0
        /// Sessions torn down because their client went silent.
        public var sessionsTimedOut = 0
        /// Interleaved frames on channels no session of that connection uses (dropped).
        public var unknownChannelFrames = 0
        /// Connections open now.
        public var openConnections = 0
        /// Sessions now.
        public var sessions = 0

        /// Creates statistics with every count at zero.
        public init() {}

        /// A sentence a person reads: "3 connections (1 refused: the server was full), 2 requests refused, …".
        public var description: String {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            var parts = [count(connectionsAccepted, "connection")]
            if connectionsRefused > 0 { parts.append("\(connectionsRefused) refused because the server was full") }
            if malformedStreams > 0 { parts.append("\(count(malformedStreams, "connection")) closed for sending what is not RTSP") }
            if requestsRefused > 0 { parts.append("\(count(requestsRefused, "request")) refused") }
            if sessionsTimedOut > 0 { parts.append("\(count(sessionsTimedOut, "session")) timed out") }
            if unknownChannelFrames > 0 { parts.append("\(count(unknownChannelFrames, "interleaved frame")) on unknown channels dropped") }
            if openConnections > 0 || sessions > 0 {
                parts.append("\(openConnections) open, \(count(sessions, "session")) now")
            }
            return parts.joined(separator: ", ")
        }
    }

    struct State: Sendable {
        var streams: [String: RTSPLiveStream] = [:]
        var sessions: [String: RTSPServerSession] = [:]
        var connections: [ObjectIdentifier: TCPConnection] = [:]
        var tasks: [Task<Void, Never>] = []
        var sweep: EventLoop.ScheduledTimer?
        var isStarted = false
        var isStopped = false
        var statistics = Statistics()
    }

    /// The configuration.
    public let configuration: RTSPServerConfiguration
    /// The loop the server runs on.
    public let loop: EventLoop
    /// Where RTSP listens (with the port chosen for port 0).
    public let localAddress: SocketAddress
    /// The server's UDP RTP and RTCP ports (the `server_port` of its Transport headers).
    public let serverPorts: ClosedRange<UInt16>
    /// What happens to clients, in order, for one reading task (the newest 1024 are kept while nobody reads); it
    /// finishes at ``stop()``.
    public let events: AsyncStream<RTSPServerEvent>
    let eventSink: AsyncStream<RTSPServerEvent>.Continuation
    let listener: TCPListener
    let rtpSocket: UDPSocket
    let rtcpSocket: UDPSocket
    let state = Mutex(State())

    /// Binds the RTSP port and the UDP pair; call ``start()`` to serve.
    /// - Parameters:
    ///   - configuration: where to listen and what to allow.
    ///   - loop: the event loop to run on.
    /// - Throws: ``TransportError/system(_:)`` when a port is taken.
    public init(configuration: RTSPServerConfiguration, on loop: EventLoop) throws(TransportError) {
        self.configuration = configuration
        self.loop = loop
        (events, eventSink) = AsyncStream.makeStream(of: RTSPServerEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let pair = try Self.bindPair(family: configuration.address.family, host: configuration.address, port: configuration.rtpPort, loop: loop)
        rtpSocket = pair.0
        rtcpSocket = pair.1
        serverPorts = pair.0.localAddress.port...pair.1.localAddress.port
        do {
            listener = try TCPListener(bindingTo: configuration.address, on: loop, sendBufferCapacity: configuration.clientQueueCapacity)
        } catch {
            rtpSocket.close()
            rtcpSocket.close()
            throw error
        }
        localAddress = listener.localAddress
    }

    private static func bindPair(family: SocketAddress.Family, host: SocketAddress, port: UInt16,
                                 loop: EventLoop) throws(TransportError) -> (UDPSocket, UDPSocket) {
        func address(_ port: UInt16) -> SocketAddress {
            (try? SocketAddress(host: host.host, port: port)) ?? .any(family, port: port)
        }
        if port != 0 {
            let rtp = try UDPSocket(bindingTo: address(port), on: loop)
            do {
                return (rtp, try UDPSocket(bindingTo: address(port &+ 1), on: loop))
            } catch {
                rtp.close()
                throw error
            }
        }
        var lastError = TransportError.closed
        for _ in 0..<32 {
            let rtp = try UDPSocket(bindingTo: address(0), on: loop)
            let chosen = rtp.localAddress.port
            if chosen % 2 == 0, chosen < UInt16.max, let rtcp = try? UDPSocket(bindingTo: address(chosen + 1), on: loop) {
                return (rtp, rtcp)
            }
            lastError = .system(SystemError("bind", errno: .addressInUse, subject: address(chosen + 1).description))
            rtp.close()
        }
        throw lastError
    }

    /// Adds (or replaces) a live stream at a path.
    /// - Parameters:
    ///   - path: the path, for example `live` (`rtsp://host:port/live`); surrounding slashes are ignored.
    ///   - sdp: its session description (RFC 4566); media sections without `a=control:` get `trackID=N`.
    /// - Returns: the stream, to publish its packets.
    @discardableResult
    public func addStream(path: String, sdp: String) -> RTSPLiveStream {
        let clean = path.split(separator: "/").joined(separator: "/")
        let sink = eventSink
        let stream = RTSPLiveStream(path: clean, sdp: sdp, rtpSocket: rtpSocket, rtcpSocket: rtcpSocket) { sink.yield($0) }
        let replaced = state.withLock { state in
            defer { state.streams[clean] = stream }
            return state.streams[clean]
        }
        if let replaced { tearDownSessions { $0.stream === replaced } }
        return stream
    }

    /// Removes a stream; its sessions are torn down.
    /// - Parameter path: its path.
    public func removeStream(path: String) {
        let clean = path.split(separator: "/").joined(separator: "/")
        guard let removed = state.withLock({ $0.streams.removeValue(forKey: clean) }) else { return }
        tearDownSessions { $0.stream === removed }
    }

    /// The stream at a path, if any.
    /// - Parameter path: its path.
    /// - Returns: the stream.
    public func stream(at path: String) -> RTSPLiveStream? {
        let clean = path.split(separator: "/").joined(separator: "/")
        return state.withLock { $0.streams[clean] }
    }

    /// A snapshot of the counters.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.openConnections = state.connections.count
            statistics.sessions = state.sessions.count
            return statistics
        }
    }

    /// Starts accepting clients (calling it again does nothing).
    public func start() {
        let begin = state.withLock { state -> Bool in
            guard !state.isStarted, !state.isStopped else { return false }
            state.isStarted = true
            return true
        }
        guard begin else { return }
        let accepting = Task { [self] in await acceptLoop() }
        let rtcp = Task { [self] in await listen(on: rtcpSocket) }
        let rtp = Task { [self] in await listen(on: rtpSocket) }
        state.withLock { $0.tasks += [accepting, rtcp, rtp] }
        scheduleSweep()
    }

    /// Stops: closes the listener, every connection and the UDP sockets, and ends every session.
    public func stop() {
        let (connections, tasks, sweep) = state.withLock { state -> ([TCPConnection], [Task<Void, Never>], EventLoop.ScheduledTimer?) in
            state.isStopped = true
            defer {
                state.connections.removeAll()
                state.tasks.removeAll()
                state.sessions.removeAll()
            }
            return (Array(state.connections.values), state.tasks, state.sweep)
        }
        sweep?.cancel()
        eventSink.finish()
        listener.close()
        for connection in connections { connection.close() }
        rtpSocket.close()
        rtcpSocket.close()
        for task in tasks { task.cancel() }
        for stream in state.withLock({ Array($0.streams.values) }) {
            stream.state.withLock { $0.subscribers.removeAll() }
        }
    }

    // MARK: connections

    private func acceptLoop() async {
        while true {
            let connection: TCPConnection
            do {
                connection = try await listener.accept()
            } catch {
                if case .system = error, !state.withLock({ $0.isStopped }) {
                    // EMFILE and the like: wait a little rather than spin.
                    try? await loop.sleep(for: .milliseconds(50))
                    continue
                }
                return
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.isStopped else { return false }
                guard state.connections.count < configuration.maximumConnections else {
                    state.statistics.connectionsRefused += 1
                    return false
                }
                state.statistics.connectionsAccepted += 1
                state.connections[ObjectIdentifier(connection)] = connection
                return true
            }
            guard admitted else {
                eventSink.yield(.connectionRefused(peer: connection.remoteAddress))
                let refusal = RTSPResponse(status: .serviceUnavailable, headers: ["Server": configuration.serverName])
                _ = try? refusal.serialized().withUnsafeBytes { try connection.enqueue($0) }
                try? connection.socket.shutdown(.write)
                connection.close()
                continue
            }
            if let size = configuration.socketSendBufferSize { try? connection.socket.setOption(.sendBufferSize, to: size) }
            Task { [self] in await serve(connection) }
        }
    }

    private func serve(_ connection: TCPConnection) async {
        var parser = RTSPStreamParser(limits: configuration.limits)
        defer { closed(connection) }
        var buffer = [UInt8]()
        while true {
            do {
                buffer = try await connection.read()
            } catch {
                return
            }
            if buffer.isEmpty { return }
            parser.append(buffer)
            while true {
                let item: RTSPStreamItem?
                do {
                    item = try parser.next()
                } catch {
                    state.withLock { $0.statistics.malformedStreams += 1 }
                    eventSink.yield(.malformedStream(peer: connection.remoteAddress, error: error))
                    var response = RTSPResponse(status: error.status, headers: ["Server": configuration.serverName])
                    response.headers.append("Connection", "close")
                    _ = try? response.serialized().withUnsafeBytes { try connection.enqueue($0) }
                    try? connection.socket.shutdown(.write)
                    return
                }
                guard let item else { break }
                switch item {
                case let .request(request):
                    let response = respond(to: request, on: connection)
                    if response.status.code >= 400 { state.withLock { $0.statistics.requestsRefused += 1 } }
                    do {
                        try await connection.write(response.serialized())
                    } catch {
                        return
                    }
                case let .interleaved(frame):
                    heard(frame.channel, on: connection)
                case .response:
                    continue
                }
            }
        }
    }

    /// The connection ended (peer closed, error, or dropped): its sessions end with it.
    private func closed(_ connection: TCPConnection) {
        connection.close()
        state.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
        tearDownSessions { $0.connection === connection }
    }

    private func heard(_ channel: UInt8, on connection: TCPConnection) {
        state.withLock { state in
            var known = false
            for (identifier, session) in state.sessions where session.connection === connection {
                let uses = session.deliveries.contains { delivery in
                    if case let .interleaved(rtp, rtcp, _)? = delivery { return rtp == channel || rtcp == channel }
                    return false
                }
                if uses {
                    known = true
                    state.sessions[identifier]?.lastHeard = .now
                }
            }
            if !known { state.statistics.unknownChannelFrames += 1 }
        }
    }

    /// Drains a UDP socket; RTCP (or a NAT-opening packet) from a client's ports keeps its session alive.
    private func listen(on socket: UDPSocket) async {
        while true {
            guard let datagram = try? await socket.receive(maximumCount: 2048) else {
                if socket.socket.descriptor.isClosed || Task.isCancelled { return }
                continue
            }
            state.withLock { state in
                for (identifier, session) in state.sessions where session.owns(rtcpAddress: datagram.sender) {
                    state.sessions[identifier]?.lastHeard = .now
                }
            }
        }
    }

    // MARK: sessions

    func tearDownSessions(where predicate: (RTSPServerSession) -> Bool) {
        let ended = state.withLock { state -> [RTSPServerSession] in
            let ended = state.sessions.values.filter(predicate)
            for session in ended { state.sessions.removeValue(forKey: session.identifier) }
            return ended
        }
        for session in ended {
            session.stream.unsubscribe(sessionID: session.identifier)
            eventSink.yield(.sessionEnded(session: session.identifier))
        }
    }

    private func scheduleSweep() {
        let interval = max(Duration.milliseconds(100), configuration.sessionTimeout / 4)
        let timer = loop.schedule(after: interval) { [weak self] in
            guard let self else { return }
            self.sweepSilentSessions()
            if !self.state.withLock({ $0.isStopped }) { self.scheduleSweep() }
        }
        state.withLock { $0.sweep = timer }
    }

    private func sweepSilentSessions() {
        let now = ContinuousClock.now
        let timeout = configuration.sessionTimeout
        let expired = state.withLock { state -> [RTSPServerSession] in
            let expired = state.sessions.values.filter { now - $0.lastHeard > timeout }
            for session in expired { state.sessions.removeValue(forKey: session.identifier) }
            state.statistics.sessionsTimedOut += expired.count
            return expired
        }
        for session in expired {
            session.stream.unsubscribe(sessionID: session.identifier)
            eventSink.yield(.sessionTimedOut(session: session.identifier, peer: session.connection.remoteAddress))
            // A client that never answers is dropped: its connection closes once it holds no other session.
            let others = state.withLock { state in state.sessions.values.contains { $0.connection === session.connection } }
            if !others { session.connection.close() }
        }
    }
}
