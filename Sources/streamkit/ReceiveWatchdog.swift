import Synchronization

/// Ends a receive on its time limit (`--duration`), after silence (`--idle`, counted from the first arrival) or on
/// Ctrl-C: it checks ten times a second and then calls its `stop` action, which ends the stream being read. It hears
/// arrivals from ``noteArrival()``, or by reading a running count (packets, frames) that it is given at each check.
final class ReceiveWatchdog: Sendable {
    private let lastArrival = Mutex<ContinuousClock.Instant?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts watching.
    /// - Parameters:
    ///   - seconds: the time limit from now, if any.
    ///   - idleSeconds: how long a silence after the first arrival ends the receive.
    ///   - arrivals: a running count of what arrived (a source's packets or frames), read at each check: a change is
    ///     an arrival. `nil`: the receive calls ``noteArrival()`` itself.
    ///   - stop: what ends the stream. The receive calls it again when it ends by itself, so it must be idempotent.
    init(seconds: Double?, idleSeconds: Double, arrivals: (@Sendable () -> Int)? = nil, stop: @escaping @Sendable () async -> Void) {
        let started = ContinuousClock.now
        let watched = Task { [self] in
            var counted = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                if let arrivals {
                    let count = arrivals()
                    if count != counted { noteArrival() }
                    counted = count
                }
                let now = ContinuousClock.now
                if Interruption.isRequested { break }
                if let seconds, now - started >= .seconds(seconds) { break }
                if let last = self.lastArrival.withLock({ $0 }), now - last >= .seconds(idleSeconds) { break }
            }
            await stop()
        }
        task.withLock { $0 = watched }
    }

    /// Notes that something arrived: the silence is counted from now.
    func noteArrival() {
        lastArrival.withLock { $0 = .now }
    }

    /// Stops watching (the receive ended by itself).
    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
