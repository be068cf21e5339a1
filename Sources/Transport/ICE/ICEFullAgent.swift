import POSIX
import Synchronization

/// A full ICE agent (RFC 8445), controlling unless a role conflict says otherwise, on one UDP port shared with DTLS
/// and SRTP (RFC 7983): what a WHIP client runs against the endpoint's candidates. ``ICECheckList`` holds the logic
/// (checks, retransmissions, answers to the peer's checks, regular nomination, consent freshness); this type gives it
/// the socket, a receive task and a timer (every ``tickInterval``).
///
/// ```swift
/// let agent = ICEFullAgent(socket: socket, checkList: ICECheckList(local: ours, remote: theirs, localAddress: socket.localAddress,
///                                                                  remoteCandidates: candidates)) { kind, bytes, sender in … }
/// agent.start()
/// for await event in agent.events { if case let .selected(peer) = event { … } }
/// ```
public final class ICEFullAgent: Sendable {
    /// The handler of DTLS and RTP/RTCP datagrams from checked addresses: their kind, bytes and sender.
    public typealias DatagramHandler = @Sendable (MultiplexedPacketKind, [UInt8], SocketAddress) -> Void

    private struct State: Sendable {
        var checks: ICECheckList
        var tasks: [Task<Void, Never>] = []
        var isStarted = false
        var isStopped = false
    }

    /// The socket, bound to the host candidate's address.
    public let socket: UDPSocket
    /// How often the timers run.
    public let tickInterval: Duration
    /// What happens, for one reading task (the newest 256 are kept while nobody reads); it finishes at ``stop()``.
    public let events: AsyncStream<ICEFullAgentEvent>
    private let eventSink: AsyncStream<ICEFullAgentEvent>.Continuation
    private let datagrams: DatagramHandler
    private let state: Mutex<State>

    /// An agent.
    /// - Parameters:
    ///   - socket: the bound UDP socket (the caller's: ``stop()`` leaves it open).
    ///   - checkList: the check list, made with the peer's credentials and candidates.
    ///   - tickInterval: how often timers run (default 10 ms, a fifth of Ta).
    ///   - datagrams: the handler of DTLS and RTP/RTCP datagrams from checked addresses.
    public init(socket: UDPSocket, checkList: ICECheckList, tickInterval: Duration = .milliseconds(10), datagrams: @escaping DatagramHandler) {
        self.socket = socket
        self.tickInterval = tickInterval
        self.datagrams = datagrams
        state = Mutex(State(checks: checkList))
        (events, eventSink) = AsyncStream.makeStream(of: ICEFullAgentEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// The selected pair's remote address, once nominated.
    public var selectedAddress: SocketAddress? { state.withLock { $0.checks.selected } }

    /// Whether we are controlling now.
    public var isControlling: Bool { state.withLock { $0.checks.isControlling } }

    /// A snapshot of the counters.
    public var statistics: ICECheckList.Statistics { state.withLock { $0.checks.statistics } }

    /// A snapshot of the pairs.
    public var pairs: [ICECandidatePair] { state.withLock { $0.checks.pairs } }

    /// Starts checking and answering (calling it again does nothing).
    public func start() {
        let outputs = state.withLock { state -> [ICECheckList.Output] in
            guard !state.isStarted, !state.isStopped else { return [] }
            state.isStarted = true
            state.tasks = [Task { [self] in await receiveLoop() }, Task { [self] in await timerLoop() }]
            return state.checks.start(now: .now)
        }
        perform(outputs)
    }

    /// Stops: the tasks end and ``events`` finishes; the socket stays open.
    public func stop() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.isStopped = true
            defer { state.tasks = [] }
            return state.tasks
        }
        for task in tasks { task.cancel() }
        eventSink.finish()
    }

    /// Sends a datagram (DTLS or SRTP) to the selected pair's address (before nomination completes, the best valid
    /// pair's: ``ICECheckList/sendAddress``).
    /// - Parameter bytes: the datagram.
    /// - Returns: `false` before any check succeeded, or when the socket's buffer is full.
    /// - Throws: ``TransportError`` from the socket.
    @discardableResult
    public func send(_ bytes: [UInt8]) throws(TransportError) -> Bool {
        guard let destination = state.withLock({ $0.checks.sendAddress }) else { return false }
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(TransportError) -> Bool in try socket.trySend(buffer, to: destination) }
        }
        return try result.get()
    }

    private func perform(_ outputs: [ICECheckList.Output]) {
        for output in outputs {
            switch output {
            case let .send(bytes, address):
                _ = try? bytes.withUnsafeBytes { buffer throws(TransportError) in try socket.trySend(buffer, to: address) }
            case let .event(event):
                eventSink.yield(event)
            case let .deliver(kind, bytes, sender):
                datagrams(kind, bytes, sender)
            }
        }
    }

    private func receiveLoop() async {
        while !Task.isCancelled {
            let datagram: UDPSocket.Datagram
            do {
                datagram = try await socket.receive(maximumCount: 2048)
            } catch {
                if case .system = error, !socket.socket.descriptor.isClosed { continue }
                return
            }
            let outputs = state.withLock { state -> [ICECheckList.Output] in
                state.isStopped ? [] : state.checks.receive(datagram.bytes, from: datagram.sender, now: .now)
            }
            perform(outputs)
        }
    }

    private func timerLoop() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: tickInterval)
            let outputs = state.withLock { state -> [ICECheckList.Output] in
                state.isStopped ? [] : state.checks.tick(now: .now)
            }
            perform(outputs)
        }
    }
}
