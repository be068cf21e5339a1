import Foundation

/// A value shared between threads, guarded by a lock: the device-backed sources keep their stop flag and
/// counters here, because their blocking work runs on a dispatch queue, outside Swift's actors.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// Creates the box.
    /// - Parameter value: the initial value.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    /// - Parameter body: reads or changes the value.
    /// - Returns: what `body` returns.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    /// The current value.
    var current: Value { withLock { $0 } }
}
