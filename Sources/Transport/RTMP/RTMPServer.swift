import POSIX
import Synchronization

/// An RTMP server (Adobe RTMP specification 1.0) for live streams: publishers (ffmpeg, OBS, ``RTMPClient``) push to
/// `rtmp://host:port/app/streamKey`, players pull the same path; the configuration's authorization checks each
/// stream key. It accepts the plain and the digest (Flash Player 9) handshake.
///
/// A peer that sends something malformed or over a limit (a chunk size of 2^31, a message past 16 MiB, an AMF0
/// object nested 10 000 deep, a chunk stream never opened) loses its connection alone, with an event that names the
/// error; each player has a bounded queue and is dropped when it falls behind. Late players get `onMetaData` and the
/// sequence headers first, then video from the next key frame.
///
/// ```swift
/// let loop = try EventLoop()
/// let server = try RTMPServer(configuration: .allowing(["live/secret"], address: .loopback(.ipv4, port: 1935)), on: loop)
/// server.start()
/// for await message in server.subscribe(to: "live/secret") { … }   // what a publisher sends (ingest)
/// let source = server.publishLocally(at: "live/camera")               // or serve a stream of our own
/// source?.send(RTMPMessage(type: .video, streamID: 1, timestamp: 0, payload: tagBody))
/// server.stop()
/// ```
public final class RTMPServer: Sendable {
    private struct State {
        var streams: [String: RTMPServerStream] = [:]
        var sessions: [ObjectIdentifier: RTMPServerSession] = [:]
        var handshaking = 0
        var acceptTask: Task<Void, Never>?
        var isStopped = false
        /// Who waits in ``RTMPServer/waitUntilNoConnections(atMost:)``, by number.
        var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits whose time ran out before they were stored.
        var expiredWaiters: Set<Int> = []
        var nextWaiter = 0

        /// Takes every waiter once no connection is open (or the server stopped), to be resumed outside the lock.
        mutating func idleWaitersToResume() -> [CheckedContinuation<Void, Never>] {
            guard sessions.isEmpty || isStopped else { return [] }
            defer { idleWaiters = [:] }
            return Array(idleWaiters.values)
        }
    }

    /// The configuration.
    public let configuration: RTMPServerConfiguration
    /// Where it listens (with the port chosen for port 0).
    public let localAddress: SocketAddress
    /// What happens, in order (the newest 1024 are kept while nobody reads); ends at ``stop()``.
    public let events: AsyncStream<RTMPServerEvent>
    private let eventSink: AsyncStream<RTMPServerEvent>.Continuation
    private let listener: TCPListener
    private let state = Mutex(State())

    /// Binds the port; call ``start()`` to accept.
    /// - Parameters:
    ///   - configuration: where to listen, what to allow.
    ///   - loop: the event loop.
    /// - Throws: ``TransportError/system(_:)`` when the port is taken.
    public init(configuration: RTMPServerConfiguration, on loop: EventLoop) throws(TransportError) {
        self.configuration = configuration
        listener = try TCPListener(bindingTo: configuration.address, on: loop, sendBufferCapacity: configuration.sendBufferCapacity)
        localAddress = listener.localAddress
        (events, eventSink) = AsyncStream.makeStream(of: RTMPServerEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// Starts accepting connections.
    public func start() {
        let task = Task { [self] in
            while true {
                let tcp: TCPConnection
                do throws(TransportError) { tcp = try await listener.accept() } catch { return }
                let admitted = state.withLock { state -> Bool in
                    guard !state.isStopped, state.sessions.count + state.handshaking < configuration.maximumConnections else { return false }
                    state.handshaking += 1
                    return true
                }
                guard admitted else {
                    tcp.close()
                    continue
                }
                Task { await self.serve(tcp) }
            }
        }
        state.withLock { $0.acceptTask = task }
    }

    private func serve(_ tcp: TCPConnection) async {
        let connection: RTMPConnection
        do throws(RTMPError) {
            connection = try await RTMPConnection.handshake(over: tcp, as: .server, limits: configuration.limits)
        } catch {
            state.withLock { $0.handshaking -= 1 }
            tcp.close()
            report(.failed(tcp.remoteAddress, error))
            return
        }
        let session = RTMPServerSession(connection: connection, remoteAddress: tcp.remoteAddress, server: self)
        let stopped = state.withLock { state -> Bool in
            state.handshaking -= 1
            guard !state.isStopped else { return true }
            state.sessions[ObjectIdentifier(session)] = session
            return false
        }
        guard !stopped else {
            connection.close()
            return
        }
        report(.connected(tcp.remoteAddress, digest: connection.peerUsedDigestHandshake))
        connection.start(onMessage: { message in await session.handle(message) }, onClose: { [self] error in
            session.closed(error)
            let idle = state.withLock { state in
                _ = state.sessions.removeValue(forKey: ObjectIdentifier(session))
                return state.idleWaitersToResume()
            }
            for waiter in idle { waiter.resume() }
        })
    }

    /// The stream at a path, made on first use.
    func stream(at path: String) -> RTMPServerStream {
        state.withLock { state in
            if let stream = state.streams[path] { return stream }
            let stream = RTMPServerStream(path: path)
            state.streams[path] = stream
            return stream
        }
    }

    func report(_ event: RTMPServerEvent) {
        eventSink.yield(event)
    }

    /// What publishers send to a path, for a local consumer (an ingest that records): `onMetaData` and the sequence
    /// headers received so far, then every message from the next video key frame on. It ends when the publisher
    /// leaves (or at ``stop()``); subscribe before the publisher comes to get everything.
    /// - Parameters:
    ///   - path: `app/streamKey`.
    ///   - capacity: how many messages it holds for a reader that is behind (past it they are dropped).
    /// - Returns: the messages (audio, video, `onMetaData` data messages), with the publisher's timestamps.
    public func subscribe(to path: String, capacity: Int = 8192) -> AsyncStream<RTMPMessage> {
        stream(at: path).subscribe(capacity: capacity)
    }

    /// Claims a path for a stream of our own (`serve --rtmp-port`): players of the path get what it sends.
    /// - Parameter path: `app/streamKey`.
    /// - Returns: the source, or `nil` when a publisher already has the path.
    public func publishLocally(at path: String) -> RTMPLocalPublication? {
        let publication = RTMPLocalPublication(stream: stream(at: path))
        return publication.claim() ? publication : nil
    }

    /// Whether some publisher (remote or local) publishes at a path now.
    /// - Parameter path: `app/streamKey`.
    /// - Returns: whether it is published.
    public func isPublished(_ path: String) -> Bool {
        state.withLock { $0.streams[path]?.isPublished ?? false }
    }

    /// How many connections are open (after their handshake).
    public var connectionCount: Int { state.withLock { $0.sessions.count } }

    /// Waits until no connection is open — every player has read the end of its stream and left — or `limit` has
    /// passed, whichever comes first. The connections' ends resume it; nothing polls.
    /// - Parameter limit: the longest wait.
    public func waitUntilNoConnections(atMost limit: Duration) async {
        let number = state.withLock { state -> Int? in
            guard !state.sessions.isEmpty, !state.isStopped else { return nil }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let number else { return }
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.idleWaiters.removeValue(forKey: number) else {
                    state.expiredWaiters.insert(number)
                    return nil
                }
                return waiter
            }
            waiter?.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.sessions.isEmpty || state.isStopped || state.expiredWaiters.remove(number) != nil { return true }
                state.idleWaiters[number] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
        state.withLock { _ = $0.expiredWaiters.remove(number) }
    }

    /// Stops: no more connections, every connection closed, subscriptions and ``events`` end. Calling it again does
    /// nothing.
    public func stop() {
        let (sessions, streams, task, idle) = state.withLock {
            state -> ([RTMPServerSession], [RTMPServerStream], Task<Void, Never>?, [CheckedContinuation<Void, Never>]) in
            guard !state.isStopped else { return ([], [], nil, []) }
            state.isStopped = true
            defer { state.sessions = [:] }
            return (Array(state.sessions.values), Array(state.streams.values), state.acceptTask, state.idleWaitersToResume())
        }
        for waiter in idle { waiter.resume() }
        listener.close()
        task?.cancel()
        for session in sessions { session.connection.close() }
        for stream in streams { stream.close() }
        eventSink.finish()
    }
}
