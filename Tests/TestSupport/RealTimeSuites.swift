import Foundation
import Synchronization
import Testing

/// The suites that need real time: network peers, event-loop timers, paced capture sources, rates measured over
/// seconds. In one test process they share Swift's cooperative pool — one thread per core, two on a small machine —
/// with the CPU-bound suites (the native encoder in a debug build holds a thread for tens of seconds without a
/// suspension point), and there their timers, handshakes and peers' deadlines starve. They run only where
/// `STREAMKIT_REAL_TIME_SUITES=1`: `scripts/test.sh` runs them in a process of their own, at once (each test on ports
/// of its own, ``TestPorts``), and those marked ``Testing/Trait/runsAlone`` one test at a time after that. Elsewhere
/// — a plain `swift test` — they are skipped, counted, and named in one line when the test process ends.
public enum RealTimeSuites {
    /// The environment variable that turns them on.
    public static let environmentVariable = "STREAMKIT_REAL_TIME_SUITES"

    /// Whether they run in this process.
    public static var areOn: Bool { ProcessInfo.processInfo.environment[environmentVariable] == "1" }

    /// The tests (and suites) skipped so far.
    private static let skipped = Mutex(0)

    /// Decides whether a test that needs real time runs: yes if the switch is on; else it is counted (and the count
    /// printed in one line when the process ends) and skipped.
    /// - Returns: whether the test should run.
    static func shouldRun() -> Bool {
        if areOn { return true }
        let isFirst = skipped.withLock { count in
            count += 1
            return count == 1
        }
        if isFirst { atexit { RealTimeSuites.printSummary() } }
        return false
    }

    /// Prints the one line that says how many tests were skipped, and how to run them.
    private static func printSummary() {
        let count = skipped.withLock { $0 }
        guard count > 0 else { return }
        let line = "note: skipped \(count) test\(count == 1 ? "" : "s") (functions and suites) that need real time (network peers, "
            + "timers, paced sources): set \(environmentVariable)=1 to run them, as scripts/test.sh does in a process of their own\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

extension Trait where Self == ConditionTrait {
    /// The suite needs real time (network peers, timers, pacing): it runs only with `STREAMKIT_REAL_TIME_SUITES=1`,
    /// beside the other such suites, and is otherwise skipped and counted in one closing line. See ``RealTimeSuites``.
    public static var needsRealTime: Self {
        .enabled { RealTimeSuites.shouldRun() }
    }

    /// The suite measures real time too closely even to share the machine with the other real-time suites: like
    /// ``needsRealTime`` it runs only with `STREAMKIT_REAL_TIME_SUITES=1`, and `scripts/test.sh` runs it one test at
    /// a time, after the others. See ``RealTimeSuites``.
    public static var runsAlone: Self {
        .enabled { RealTimeSuites.shouldRun() }
    }
}
