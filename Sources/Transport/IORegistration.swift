import POSIX
import Synchronization

/// One descriptor watched by an ``EventLoop``: at most one task waiting to read and one waiting to write.
///
/// The descriptor is registered `EPOLLONESHOT`: each wait arms it for what its waiters want, the loop thread
/// resumes them when `epoll` reports readiness (or an error or hang-up, which wakes both), and re-arms it
/// while a waiter remains. Level-triggered, so a readiness that arrives between `EAGAIN` and the arming is not
/// lost.
final class IORegistration: Sendable {
    /// Which way a task waits.
    enum Direction: Sendable {
        case read, write
    }

    /// How a wait ended.
    enum Wake: Sendable {
        case ready
        case failed(TransportError)
    }

    private struct State {
        var reader: CheckedContinuation<Wake, Never>?
        var writer: CheckedContinuation<Wake, Never>?
        var failure: TransportError?

        var interest: EpollEvents {
            var events: EpollEvents = [.oneShot]
            if reader != nil { events.insert(.readable) }
            if writer != nil { events.insert(.writable) }
            return events
        }
    }

    let token: UInt64
    let descriptor: FileDescriptor
    private let loop: EventLoop
    private let state = Mutex(State())

    init(token: UInt64, descriptor: FileDescriptor, loop: EventLoop) {
        self.token = token
        self.descriptor = descriptor
        self.loop = loop
    }

    /// Suspends until the descriptor is ready for `direction`.
    /// - Parameter direction: reading or writing.
    /// - Throws: ``TransportError/closed``, ``TransportError/cancelled``, ``TransportError/busy(operation:)``,
    ///   ``TransportError/loopStopped``, or ``TransportError/system(_:)`` when arming fails.
    func wait(for direction: Direction) async throws(TransportError) {
        let wake: Wake = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let outcome = state.withLock { state -> (Wake?, EpollEvents?) in
                    if let failure = state.failure { return (.failed(failure), nil) }
                    if Task.isCancelled { return (.failed(.cancelled), nil) }
                    switch direction {
                    case .read:
                        guard state.reader == nil else { return (.failed(.busy(operation: "read")), nil) }
                        state.reader = continuation
                    case .write:
                        guard state.writer == nil else { return (.failed(.busy(operation: "write")), nil) }
                        state.writer = continuation
                    }
                    return (nil, state.interest)
                }
                if let immediate = outcome.0 {
                    continuation.resume(returning: immediate)
                } else if let interest = outcome.1 {
                    arm(interest)
                }
            }
        } onCancel: {
            take(direction)?.resume(returning: .failed(.cancelled))
        }
        if case let .failed(error) = wake { throw error }
    }

    private func take(_ direction: Direction) -> CheckedContinuation<Wake, Never>? {
        state.withLock { state in
            switch direction {
            case .read:
                defer { state.reader = nil }
                return state.reader
            case .write:
                defer { state.writer = nil }
                return state.writer
            }
        }
    }

    private func arm(_ interest: EpollEvents) {
        do {
            try loop.epoll.modify(descriptor, events: interest, token: token)
        } catch {
            cancelWaiters(with: .system(error), permanently: false)
        }
    }

    /// On the loop thread: `epoll` reported `events`.
    func handle(_ events: EpollEvents) {
        let broken = !events.isDisjoint(with: [.error, .hangUp])
        let (reader, writer, rest) = state.withLock { state in
            var reader: CheckedContinuation<Wake, Never>?
            var writer: CheckedContinuation<Wake, Never>?
            if broken || events.contains(.readable) || events.contains(.readHangUp) {
                reader = state.reader
                state.reader = nil
            }
            if broken || events.contains(.writable) {
                writer = state.writer
                state.writer = nil
            }
            return (reader, writer, state.interest)
        }
        reader?.resume(returning: .ready)
        writer?.resume(returning: .ready)
        if rest != [.oneShot] { arm(rest) }
    }

    /// Ends both waits with `error`; with `permanently`, every later wait fails with it too.
    func cancelWaiters(with error: TransportError, permanently: Bool = true) {
        let (reader, writer) = state.withLock { state in
            defer {
                state.reader = nil
                state.writer = nil
                if permanently, state.failure == nil { state.failure = error }
            }
            return (state.reader, state.writer)
        }
        reader?.resume(returning: .failed(error))
        writer?.resume(returning: .failed(error))
    }

    /// Stops watching the descriptor and fails the waiters with ``TransportError/closed``. Call before closing it.
    func close() {
        cancelWaiters(with: .closed)
        loop.unregister(self)
    }
}
