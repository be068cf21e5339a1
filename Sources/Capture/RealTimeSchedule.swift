import MediaCore

/// The timetable of a paced source: slot `n` falls at `start + n * period`, computed exactly from the rational
/// period (no accumulated rounding), and the slot due at any instant.
struct RealTimeSchedule: Sendable {
    /// When slot 0 falls.
    let start: ContinuousClock.Instant
    /// The period as a rational number of seconds (`value / timescale`); `value` is positive and at most `Int32.max`.
    let period: MediaTime

    /// The instant slot `index` falls at.
    /// - Parameter index: a slot number (≥ 0).
    /// - Returns: `start + index * period`, exact to the nanosecond.
    func instant(of index: Int64) -> ContinuousClock.Instant {
        let (units, overflow) = index.multipliedReportingOverflow(by: period.value)
        guard !overflow, units >= 0 else { return start + .seconds(Int64(Int32.max)) }
        let timescale = Int64(period.timescale)
        // Whole seconds, then the remaining fraction of a second (below 1, so the product fits).
        let seconds = units / timescale, remainder = units % timescale
        return start + .seconds(seconds) + .nanoseconds(remainder * 1_000_000_000 / timescale)
    }

    /// The last slot that has fallen by `now`: `floor((now - start) / period)`, or 0 before the start.
    /// - Parameter now: an instant.
    /// - Returns: the slot number.
    func dueIndex(at now: ContinuousClock.Instant) -> Int64 {
        let elapsed = now - start
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return 0 }
        // floor(ns * timescale / (value * 1e9)), in 128-bit arithmetic.
        let numerator = nanoseconds.multipliedFullWidth(by: Int64(period.timescale))
        let divisor = period.value &* 1_000_000_000
        guard divisor > 0, numerator.high < divisor / 2 else { return Int64.max }
        return divisor.dividingFullWidth(numerator).quotient
    }
}
