import Synchronization

/// A value behind a lock, for the few settings a Sendable class changes after its creation.
final class MutexBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    /// Creates the box.
    /// - Parameter value: the first value.
    init(_ value: Value) { storage = Mutex(value) }

    /// The value.
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
