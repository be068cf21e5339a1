import Foundation
import Synchronization
import Testing

/// The suites whose proofs hang on wall-clock time too closely to share a loaded machine with the rest of a parallel
/// `swift test` (a throttled link whose rate is measured over seconds, for example). They carry the trait
/// ``Testing/Trait/runsAlone``: they run only where `STREAMKIT_SERIAL_SUITES=1` — `scripts/test.sh` sets it for the
/// pass that runs them one test at a time — and are otherwise skipped, counted, and named in one line when the test
/// process ends.
public enum SerialSuites {
    /// The environment variable that turns them on.
    public static let environmentVariable = "STREAMKIT_SERIAL_SUITES"

    /// Whether they run in this process.
    public static var areOn: Bool { ProcessInfo.processInfo.environment[environmentVariable] == "1" }

    /// The tests (and suites) skipped so far.
    private static let skipped = Mutex(0)

    /// Decides whether a test that must run alone runs: yes if the switch is on; else it is counted (and the
    /// count printed in one line when the process ends) and skipped.
    /// - Returns: whether the test should run.
    static func shouldRun() -> Bool {
        if areOn { return true }
        let isFirst = skipped.withLock { count in
            count += 1
            return count == 1
        }
        if isFirst { atexit { SerialSuites.printSummary() } }
        return false
    }

    /// Prints the one line that says how many tests were skipped, and how to run them.
    private static func printSummary() {
        let count = skipped.withLock { $0 }
        guard count > 0 else { return }
        let line = "note: skipped \(count) test\(count == 1 ? "" : "s") (functions and suites) that measure real time and run only "
            + "alone: set \(environmentVariable)=1 and run them with --no-parallel, as scripts/test.sh does\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

extension Trait where Self == ConditionTrait {
    /// The test measures real time too closely to run beside other suites: it runs only with
    /// `STREAMKIT_SERIAL_SUITES=1`, and is otherwise skipped and counted in one closing line. See ``SerialSuites``.
    public static var runsAlone: Self {
        .enabled { SerialSuites.shouldRun() }
    }
}
