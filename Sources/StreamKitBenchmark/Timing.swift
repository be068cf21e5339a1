// Timing helpers of the benchmarks: monotonic clock, best of N rounds.
import Foundation

/// Monotonic seconds.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// The best of `rounds` timings of `body`.
func best(_ rounds: Int, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<rounds {
        let start = now()
        try body()
        fastest = min(fastest, now() - start)
    }
    return fastest
}

/// Writes `message` to standard error and exits with `code`.
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

/// Keeps results observable so the optimiser cannot drop the timed work.
nonisolated(unsafe) var sink = 0
