import Foundation

/// Blocking work — waiting for a process to exit, a `poll` loop on a socket — run on a thread of its own, so that
/// it holds none of the threads of Swift's cooperative pool. The pool has one thread per core (two on a small CI
/// machine); a test that blocks one of them for seconds starves every other test's timers and event-loop
/// callbacks in the same process, which then time out for no fault of their own.
public enum OffPool {
    /// Runs `work` on a new thread and waits for it without blocking the caller's thread.
    /// - Parameter work: the blocking work.
    /// - Returns: what it returns.
    /// - Throws: what it throws.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result(catching: work)) }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }
}
