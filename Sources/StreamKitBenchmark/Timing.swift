// Timing helpers of the benchmarks: monotonic clock, best of N rounds.
import Foundation

/// Monotonic seconds.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Seconds of CPU time used by the calling thread: time while another process has the core is not
/// counted, which keeps in-process ratios steady on a shared, loaded machine.
func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Seconds of CPU time used by the whole process, every thread of it.
func processCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// The best of `rounds` timings of `body`.
/// - Parameters:
///   - rounds: how many times to run `body`.
///   - clock: the clock (wall-clock ``now()`` by default, or ``threadCPUTime()``).
///   - body: the work.
func best(_ rounds: Int, clock: () -> Double = now, _ body: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<rounds {
        let start = clock()
        try body()
        fastest = min(fastest, clock() - start)
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
