/// When a wait that may be interrupted must end: the time left is worked out again on each retry, so a
/// signal does not stretch a 100 ms `poll` to 200 ms.
struct WaitDeadline {
    private let end: ContinuousClock.Instant?

    /// A deadline `timeout` from now, or none (`nil`: wait for ever).
    /// - Parameter timeout: the longest wait; zero or negative does not wait.
    init(_ timeout: Duration?) {
        end = timeout.map { ContinuousClock.now.advanced(by: $0) }
    }

    /// The time left in whole milliseconds, rounded up, as `poll`/`epoll_wait` take it: -1 for ever, 0 once
    /// passed.
    var remainingMilliseconds: Int32 {
        guard let end else { return -1 }
        let left = ContinuousClock.now.duration(to: end)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int32.max }
        let total = milliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}
