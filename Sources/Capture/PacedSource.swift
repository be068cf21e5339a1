import MediaCore

/// A hardware-free source paced by a ``RealTimeSchedule``: an actor that starts its schedule at the first
/// pull, sleeps toward each slot in short steps so a stop is noticed promptly, and ends for good once it is
/// stopped or the pulling task is cancelled. ``SyntheticCamera`` and ``SyntheticMicrophone`` share this logic.
///
/// The requirements are the conforming actor's own state; the extension methods are isolated to it.
protocol PacedSource: Actor {
    /// The clock the schedule runs on.
    var clock: ContinuousClock { get }
    /// The timetable, `nil` until the first real-time pull.
    var schedule: RealTimeSchedule? { get set }
    /// Set by `stop()`, by cancellation, and by a cancelled wait; never cleared.
    var isStopped: Bool { get set }
}

extension PacedSource {
    /// Notes a cancelled pulling task as a stop, then says whether the source may still deliver.
    /// - Returns: `false` once the source is stopped.
    func isRunning() -> Bool {
        if Task.isCancelled { isStopped = true }
        return !isStopped
    }

    /// The schedule, started at `now` with `period` on the first call and kept from then on.
    /// - Parameters:
    ///   - period: the slot period.
    ///   - now: the current instant.
    /// - Returns: the schedule.
    func startSchedule(period: MediaTime, at now: ContinuousClock.Instant) -> RealTimeSchedule {
        let schedule = self.schedule ?? RealTimeSchedule(start: now, period: period)
        self.schedule = schedule
        return schedule
    }

    /// Sleeps until `deadline` in steps of at most 20 ms so a stop is noticed promptly.
    /// - Returns: `false` if the source was stopped or the task cancelled meanwhile.
    func waitUntil(_ deadline: ContinuousClock.Instant) async -> Bool {
        while !isStopped {
            // Cancellation wins over a deadline that passed while this task waited for a thread: a cancelled
            // wait never hands out one more block.
            if Task.isCancelled {
                isStopped = true
                break
            }
            let now = clock.now
            if now >= deadline { return true }
            do {
                try await Task.sleep(until: min(deadline, now + .milliseconds(20)), clock: clock)
            } catch {
                isStopped = true
            }
        }
        return false
    }
}
