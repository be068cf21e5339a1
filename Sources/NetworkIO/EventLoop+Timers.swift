/// Timers: jobs the loop thread runs once a time has passed.
extension EventLoop {
    /// A timer started with ``EventLoop/schedule(after:_:)``; ``cancel()`` stops it if it has not run.
    public struct ScheduledTimer: Sendable, Hashable {
        let identifier: UInt64
        let loop: ObjectIdentifier
        private let cancelBody: @Sendable (UInt64) -> Bool

        init(identifier: UInt64, loop: EventLoop) {
            self.identifier = identifier
            self.loop = ObjectIdentifier(loop)
            cancelBody = { [weak loop] identifier in loop?.cancelTimer(identifier) ?? false }
        }

        /// Stops the timer.
        /// - Returns: `true` when it had not run yet (and now never will).
        @discardableResult
        public func cancel() -> Bool {
            cancelBody(identifier)
        }

        /// Timers are equal when they are the same timer of the same loop.
        /// - Parameters:
        ///   - left: a timer.
        ///   - right: another.
        /// - Returns: whether they are one timer.
        public static func == (left: ScheduledTimer, right: ScheduledTimer) -> Bool {
            left.identifier == right.identifier && left.loop == right.loop
        }

        /// Hashes the timer's identity.
        /// - Parameter hasher: the hasher.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(identifier)
            hasher.combine(loop)
        }
    }

    /// Runs a short job on the loop thread once `delay` has passed (timers due together run in the order of their
    /// deadlines).
    /// - Parameters:
    ///   - delay: how long from now; zero or less runs it on the next turn of the loop.
    ///   - job: the job; it must not block.
    /// - Returns: the timer (to cancel it), or `nil` when the loop is shut down.
    @discardableResult
    public func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledTimer? {
        schedule(after: delay, job, ifDropped: nil)
    }

    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void,
                  ifDropped dropped: (@Sendable () -> Void)?) -> ScheduledTimer? {
        let deadline = ContinuousClock.now.advanced(by: delay)
        let identifier: UInt64? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            let identifier = state.nextTimerIdentifier
            state.nextTimerIdentifier += 1
            let index = state.timers.firstIndex { $0.deadline > deadline } ?? state.timers.endIndex
            state.timers.insert(Timer(deadline: deadline, identifier: identifier, job: job, dropped: dropped), at: index)
            return identifier
        }
        guard let identifier else { return nil }
        wake()
        return ScheduledTimer(identifier: identifier, loop: self)
    }

    /// Suspends the calling task for `delay`, timed by this loop.
    /// - Parameter delay: how long.
    /// - Throws: ``TransportError/loopStopped`` when the loop is (or gets) shut down first.
    public func sleep(for delay: Duration) async throws(TransportError) {
        let finished: Bool = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            if schedule(after: delay, { once.resume(true) }, ifDropped: { once.resume(false) }) == nil { once.resume(false) }
        }
        if !finished { throw .loopStopped }
    }

    func cancelTimer(_ identifier: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.timers.firstIndex(where: { $0.identifier == identifier }) else { return false }
            state.timers.remove(at: index)
            return true
        }
    }
}
