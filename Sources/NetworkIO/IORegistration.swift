import POSIX
import Synchronization

/// One descriptor watched by an ``EventLoop``: at most one task waiting to read and one waiting to write.
///
/// The descriptor is registered `EPOLLONESHOT`: each wait arms it for what its waiters want, the loop thread
/// resumes them when `epoll` reports readiness (or an error or hang-up, which wakes both), and re-arms it
/// while a waiter remains. Level-triggered, so a readiness that arrives between `EAGAIN` and the arming is not
/// lost. Every arming happens under the state's lock, with the interest computed there: arms made by a reader,
/// a writer and the loop thread at once are applied in the order of the state they saw, so the last one always
/// holds every waiter's interest (an older interest applied last would leave a waiter that is never woken).
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
                let outcome = state.withLock { state -> (Wake?, SystemError?) in
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
                    return (nil, arm(state.interest))
                }
                if let immediate = outcome.0 {
                    continuation.resume(returning: immediate)
                } else if let error = outcome.1 {
                    cancelWaiters(with: .system(error), permanently: false)
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

    /// Arms the descriptor for `interest`. Called with the state's lock held, so that armings follow one another
    /// in the order of the states they were computed from.
    /// - Returns: the error of `epoll_ctl`, for the caller to fail the waiters with once the lock is released.
    private func arm(_ interest: EpollEvents) -> SystemError? {
        do {
            try loop.epoll.modify(descriptor, events: interest, token: token)
            return nil
        } catch {
            return error
        }
    }

    /// On the loop thread: `epoll` reported `events`.
    func handle(_ events: EpollEvents) {
        let broken = !events.isDisjoint(with: [.error, .hangUp])
        let (reader, writer, armingError) = state.withLock { state in
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
            // Re-armed before the woken tasks run, so a wait they start next arms after this one.
            let rest = state.interest
            return (reader, writer, rest == [.oneShot] ? nil : arm(rest))
        }
        reader?.resume(returning: .ready)
        writer?.resume(returning: .ready)
        if let armingError { cancelWaiters(with: .system(armingError), permanently: false) }
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
