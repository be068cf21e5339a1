import POSIX
import Synchronization

/// One thread waiting on `epoll` for every socket of the transports, plus timers and jobs.
///
/// Sockets made on a loop (``TCPListener``, ``TCPConnection``, ``UDPSocket``) try each call at once and,
/// when it would block, suspend the calling task until `epoll` reports the descriptor ready; the loop thread
/// only resumes tasks and runs the short jobs and timers given to it — never user work that blocks. An
/// ``POSIX/EventNotifier`` wakes the wait when a job, a timer or a registration change arrives from
/// another thread.
///
/// ```swift
/// let loop = try EventLoop()
/// defer { loop.shutdown() }
/// let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 8554), on: loop)
/// let connection = try await listener.accept()
/// ```
public final class EventLoop: Sendable {
    struct Timer {
        var deadline: ContinuousClock.Instant
        var identifier: UInt64
        var job: @Sendable () -> Void
        /// Run instead of ``job`` when the loop shuts down first.
        var dropped: (@Sendable () -> Void)?
    }

    struct State {
        var jobs: [@Sendable () -> Void] = []
        var registrations: [UInt64: IORegistration] = [:]
        var timers: [Timer] = []
        var nextToken: UInt64 = 1
        var nextTimerIdentifier: UInt64 = 1
        var isShutDown = false
    }

    let epoll: Epoll
    private let notifier: EventNotifier
    let state = Mutex(State())
    private let thread = Mutex<LoopThread?>(nil)

    /// Starts a loop and its thread.
    /// - Throws: ``TransportError/system(_:)`` when `epoll`, the `eventfd` or the thread cannot be made.
    public init() throws(TransportError) {
        do {
            epoll = try Epoll()
            notifier = try EventNotifier()
            try epoll.add(notifier.descriptor, events: .readable, token: 0)
            let started = try LoopThread { [self] in self.run() }
            thread.withLock { $0 = started }
        } catch {
            throw .system(error)
        }
    }

    /// Whether ``shutdown()`` has been called.
    public var isShutDown: Bool {
        state.withLock { $0.isShutDown }
    }

    /// Runs a short job on the loop thread, soon. Jobs run in the order given.
    /// - Parameter job: the job; it must not block.
    /// - Returns: `false` when the loop is shut down (the job will not run).
    @discardableResult
    public func execute(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    /// Stops the loop: pending waits end with ``TransportError/loopStopped``, jobs and timers not yet run are
    /// dropped, and the thread ends (this call waits for it unless called on the loop thread). Sockets made on
    /// the loop should be closed first. Calling it again does nothing.
    public func shutdown() {
        let (registrations, timers) = state.withLock { state -> ([IORegistration], [Timer]) in
            guard !state.isShutDown else { return ([], []) }
            state.isShutDown = true
            state.jobs.removeAll()
            defer { state.timers.removeAll() }
            return (Array(state.registrations.values), state.timers)
        }
        for registration in registrations { registration.cancelWaiters(with: .loopStopped) }
        for timer in timers { timer.dropped?() }
        wake()
        let running = thread.withLock { thread -> LoopThread? in
            defer { thread = nil }
            return thread
        }
        if let running, !running.isCurrent { running.join() }
    }

    func wake() {
        try? notifier.notify()
    }

    // MARK: registrations

    func register(_ descriptor: FileDescriptor) throws(TransportError) -> IORegistration {
        let token: UInt64 = try state.withLock { (state) throws(TransportError) -> UInt64 in
            guard !state.isShutDown else { throw .loopStopped }
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        let registration = IORegistration(token: token, descriptor: descriptor, loop: self)
        do {
            try epoll.add(descriptor, events: .oneShot, token: token)
        } catch {
            throw .system(error)
        }
        state.withLock { $0.registrations[token] = registration }
        return registration
    }

    func unregister(_ registration: IORegistration) {
        state.withLock { _ = $0.registrations.removeValue(forKey: registration.token) }
        try? epoll.remove(registration.descriptor)
    }

    // MARK: the loop thread

    private func run() {
        var events: [Epoll.Event] = []
        events.reserveCapacity(64)
        while true {
            let timeout: Duration? = state.withLock { state in
                state.timers.first.map { ContinuousClock.now.duration(to: $0.deadline) }.map { max($0, .zero) }
            }
            do {
                try epoll.wait(into: &events, maximumCount: 64, timeout: timeout)
            } catch {
                break
            }
            for event in events {
                if event.token == 0 {
                    _ = try? notifier.reset()
                    continue
                }
                let registration = state.withLock { $0.registrations[event.token] }
                registration?.handle(event.events)
            }
            runDueTimers()
            let (jobs, stop) = state.withLock { state in
                defer { state.jobs.removeAll(keepingCapacity: true) }
                return (state.jobs, state.isShutDown)
            }
            for job in jobs { job() }
            if stop { break }
        }
    }

    private func runDueTimers() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [Timer] in
            let count = state.timers.prefix { $0.deadline <= now }.count
            guard count > 0 else { return [] }
            defer { state.timers.removeFirst(count) }
            return Array(state.timers.prefix(count))
        }
        for timer in due { timer.job() }
    }
}
