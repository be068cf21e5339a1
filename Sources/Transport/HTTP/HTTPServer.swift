import POSIX
import Synchronization

/// An HTTP/1.1 server (RFC 9110, RFC 9112) for signalling and small files: routes by method and path prefix,
/// keep-alive and pipelining, CORS with the `OPTIONS` preflight, `Authorization: Bearer` checks, bounded requests.
///
/// Each connection is served by its own task: one that sends garbage, an over-long line or too many fields
/// (414/431/413/400) or sends too slowly (408 after ``HTTPServerConfiguration/requestTimeout``) is answered and
/// closed alone; the others never wait for it.
///
/// ```swift
/// let server = try HTTPServer(configuration: HTTPServerConfiguration(address: .loopback(.ipv4, port: 8080)), on: loop)
/// server.addRoute(HTTPRoute(.post, "/live/whip") { request in
///     HTTPResponse(status: .created, headers: ["Location": "/live/whip/1", "Content-Type": "application/sdp"], body: answer)
/// })
/// server.start()
/// ```
public final class HTTPServer: Sendable {
    /// What has happened on the server so far.
    public struct Statistics: Hashable, Sendable {
        /// Connections accepted.
        public var connectionsAccepted = 0
        /// Connections refused (503) because the server was full.
        public var connectionsRefused = 0
        /// Requests answered (any status).
        public var requestsAnswered = 0
        /// Connections closed for a malformed or over-large request (answered with its 4xx/5xx).
        public var malformedRequests = 0
        /// Connections closed because a request did not arrive in time (408) or a kept-alive one stayed idle.
        public var timeouts = 0
        /// Connections open now.
        public var openConnections = 0

        /// Every count at zero.
        public init() {}
    }

    struct State: Sendable {
        var routes: [HTTPRoute] = []
        var connections: [ObjectIdentifier: TCPConnection] = [:]
        /// The connections between reading a request and writing its response.
        var answering: Set<ObjectIdentifier> = []
        var tasks: [Task<Void, Never>] = []
        var isStarted = false
        var isStopped = false
        var statistics = Statistics()
    }

    /// The configuration.
    public let configuration: HTTPServerConfiguration
    /// The loop it runs on.
    public let loop: EventLoop
    /// Where it listens (with the port chosen for port 0).
    public let localAddress: SocketAddress
    let listener: TCPListener
    let state = Mutex(State())

    /// Binds the port; call ``start()`` to serve.
    /// - Parameters:
    ///   - configuration: where to listen and what to allow.
    ///   - loop: the event loop.
    /// - Throws: ``TransportError/system(_:)`` when the port is taken.
    public init(configuration: HTTPServerConfiguration, on loop: EventLoop) throws(TransportError) {
        self.configuration = configuration
        self.loop = loop
        listener = try TCPListener(bindingTo: configuration.address, on: loop)
        localAddress = listener.localAddress
    }

    /// Adds a route; among routes whose prefix matches, the longest prefix wins.
    /// - Parameter route: the route.
    public func addRoute(_ route: HTTPRoute) {
        state.withLock { $0.routes.append(route) }
    }

    /// Removes every route of a method and prefix.
    /// - Parameters:
    ///   - method: the method.
    ///   - pathPrefix: the prefix.
    public func removeRoutes(_ method: HTTPMethod, _ pathPrefix: String) {
        let prefix = HTTPRoute.normalized(pathPrefix)
        state.withLock { $0.routes.removeAll { $0.method == method && $0.pathPrefix == prefix } }
    }

    /// A snapshot of the counters.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.openConnections = state.connections.count
            return statistics
        }
    }

    /// Starts accepting connections (calling it again does nothing).
    public func start() {
        let begin = state.withLock { state -> Bool in
            guard !state.isStarted, !state.isStopped else { return false }
            state.isStarted = true
            return true
        }
        guard begin else { return }
        let accepting = Task { [self] in await acceptLoop() }
        state.withLock { $0.tasks.append(accepting) }
    }

    /// Stops once the responses being written have gone (at most `grace`): the listener closes at once, and so do
    /// the connections waiting for a request; a connection whose handler is answering — a WHIP `DELETE` that ends the
    /// very stream the server belongs to, say — writes its response and then closes.
    /// - Parameter grace: the longest wait for those responses.
    public func stop(draining grace: Duration) async {
        let idle = state.withLock { state -> [TCPConnection] in
            state.isStopped = true
            return state.connections.filter { !state.answering.contains($0.key) }.map(\.value)
        }
        listener.close()
        for connection in idle { connection.close() }
        let deadline = ContinuousClock.now + grace
        while state.withLock({ !$0.answering.isEmpty }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        stop()
    }

    /// Stops: closes the listener and every connection.
    public func stop() {
        let (connections, tasks) = state.withLock { state -> ([TCPConnection], [Task<Void, Never>]) in
            state.isStopped = true
            defer {
                state.connections.removeAll()
                state.answering.removeAll()
                state.tasks.removeAll()
            }
            return (Array(state.connections.values), state.tasks)
        }
        listener.close()
        for connection in connections { connection.close() }
        for task in tasks { task.cancel() }
    }

    // MARK: connections

    private func acceptLoop() async {
        while true {
            let connection: TCPConnection
            do {
                connection = try await listener.accept()
            } catch {
                if case .system = error, !state.withLock({ $0.isStopped }) {
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
                var refusal = HTTPResponse(status: .serviceUnavailable, headers: ["Connection": "close"])
                refusal.headers.set("Server", configuration.serverName)
                _ = try? refusal.serialized().withUnsafeBytes { try connection.enqueue($0) }
                try? connection.socket.shutdown(.write)
                connection.close()
                continue
            }
            Task { [self] in await serve(connection) }
        }
    }

    /// The watchdog of one connection: a timer that closes it when a phase (idle, or a request arriving) lasts too
    /// long. Each arming cancels the previous timer.
    private final class Watchdog: Sendable {
        let timer = Mutex<EventLoop.ScheduledTimer?>(nil)
        let fired = Atomic<Bool>(false)

        func arm(_ loop: EventLoop, after delay: Duration, _ action: @escaping @Sendable () -> Void) {
            let new = loop.schedule(after: delay) { [self] in
                fired.store(true, ordering: .sequentiallyConsistent)
                action()
            }
            timer.withLock { old in
                old?.cancel()
                old = new
            }
        }

        func disarm() {
            timer.withLock { old in
                old?.cancel()
                old = nil
            }
        }
    }

    private func serve(_ connection: TCPConnection) async {
        var parser = HTTPRequestParser(limits: configuration.limits)
        let watchdog = Watchdog()
        let peer = connection.remoteAddress
        let serverName = configuration.serverName
        defer {
            watchdog.disarm()
            connection.close()
            state.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
        }
        // Idle until the first byte of a request; then the request must arrive within the request timeout.
        watchdog.arm(loop, after: configuration.idleTimeout) { connection.close() }
        var midRequest = false
        var continued = false
        while true {
            let bytes: [UInt8]
            do {
                bytes = try await connection.read()
            } catch {
                if watchdog.fired.load(ordering: .sequentiallyConsistent) { state.withLock { $0.statistics.timeouts += 1 } }
                return
            }
            if bytes.isEmpty { return }
            parser.append(bytes)
            if !midRequest {
                midRequest = true
                let timeout = HTTPResponse(status: .requestTimeout, headers: ["Connection": "close", "Server": serverName])
                watchdog.arm(loop, after: configuration.requestTimeout) {
                    _ = try? timeout.serialized().withUnsafeBytes { try connection.enqueue($0) }
                    try? connection.socket.shutdown(.write)
                    connection.close()
                }
            }
            while true {
                let request: HTTPRequest?
                do {
                    request = try parser.next()
                } catch {
                    watchdog.disarm()
                    state.withLock {
                        $0.statistics.malformedRequests += 1
                        $0.statistics.requestsAnswered += 1
                    }
                    var response = HTTPResponse(status: error.status, headers: ["Connection": "close"])
                    finish(&response, origin: nil)
                    _ = try? response.serialized().withUnsafeBytes { try connection.enqueue($0) }
                    try? await connection.waitUntilBuffered(atMost: 0)
                    try? connection.socket.shutdown(.write)
                    return
                }
                guard let request else {
                    if parser.expectsContinue, !continued {
                        continued = true
                        try? await connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    }
                    break
                }
                continued = false
                let id = ObjectIdentifier(connection)
                guard state.withLock({ state -> Bool in
                    guard !state.isStopped else { return false }
                    state.answering.insert(id)
                    return true
                }) else { return }
                var response = await respond(to: request, peer: peer)
                let stopping = state.withLock { $0.isStopped }
                let keepAlive = request.keepsAlive && response.keepsAlive && !stopping
                if !keepAlive { response.headers.set("Connection", "close") }
                state.withLock { $0.statistics.requestsAnswered += 1 }
                defer { state.withLock { _ = $0.answering.remove(id) } }
                do {
                    try await connection.write(response.serialized(includingBody: request.method != .head))
                } catch {
                    return
                }
                if !keepAlive {
                    try? await connection.waitUntilBuffered(atMost: 0)
                    try? connection.socket.shutdown(.write)
                    return
                }
            }
            if parser.bufferedByteCount == 0 {
                midRequest = false
                watchdog.arm(loop, after: configuration.idleTimeout) { connection.close() }
            }
        }
    }

    // MARK: requests

    /// Routes a request: the CORS preflight, the longest matching prefix, 405 with `Allow` when only the method is
    /// wrong, 404 otherwise; the bearer check of a route that asks for it.
    func respond(to request: HTTPRequest, peer: SocketAddress) async -> HTTPResponse {
        let origin = request.headers["Origin"]
        let path = request.path
        let routes = state.withLock { $0.routes }
        let matching = routes.compactMap { route in route.remainder(of: path).map { (route, $0) } }
        if request.method == .options {
            var response: HTTPResponse
            if let origin, request.headers["Access-Control-Request-Method"] != nil, let cors = configuration.cors {
                response = cors.preflightResponse(origin: origin)
                finish(&response, origin: nil)
                return response
            }
            let allowed = Set(matching.map(\.0.method.rawValue) + (matching.contains { $0.0.method == .get } ? ["HEAD"] : []) + ["OPTIONS"])
            response = HTTPResponse(status: .noContent, headers: ["Allow": allowed.sorted().joined(separator: ", ")])
            finish(&response, origin: origin)
            return response
        }
        let method = request.method == .head ? HTTPMethod.get : request.method
        let candidates = matching.filter { $0.0.method == method }
        guard let (route, remainder) = candidates.max(by: { $0.0.pathPrefix.count < $1.0.pathPrefix.count }) else {
            var response: HTTPResponse
            if matching.isEmpty {
                response = HTTPResponse(status: .notFound)
            } else {
                let allowed = Set(matching.map(\.0.method.rawValue) + ["OPTIONS"])
                response = HTTPResponse(status: .methodNotAllowed, headers: ["Allow": allowed.sorted().joined(separator: ", ")])
            }
            finish(&response, origin: origin)
            return response
        }
        if route.requiresAuthorization, let validator = configuration.bearerTokenValidator,
           !validator(HTTPRoute.bearerToken(request.headers["Authorization"]), request) {
            var response = HTTPResponse(status: .unauthorized, headers: ["WWW-Authenticate": "Bearer"])
            finish(&response, origin: origin)
            return response
        }
        var response = await route.handler(HTTPServerRequest(request: request, peer: peer, remainingPath: remainder))
        finish(&response, origin: origin)
        return response
    }

    /// Adds `Server` and, for a cross-origin request, the CORS fields.
    private func finish(_ response: inout HTTPResponse, origin: String?) {
        if response.headers["Server"] == nil { response.headers.set("Server", configuration.serverName) }
        if let origin, let cors = configuration.cors { cors.decorate(&response.headers, origin: origin) }
    }
}
