#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock (`clock_gettime(CLOCK_REALTIME)`): the date and time of day, for timestamps that name
/// a moment (an HLS `EXT-X-PROGRAM-DATE-TIME`), never for measuring durations.
public enum RealTimeClock {
    /// The time since the Unix epoch (1970-01-01T00:00:00Z), in milliseconds.
    /// - Returns: milliseconds since the epoch (negative before 1970).
    public static func millisecondsSinceEpoch() -> Int64 {
        var now = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
