import Synchronization

/// A continuation that may be resumed from several places (a timer, a cancellation, a close) of which only the
/// first counts.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// Resumes with `value` if nobody has resumed yet.
    /// - Parameter value: the result.
    func resume(_ value: Value) {
        let taken = continuation.withLock { stored -> CheckedContinuation<Value, Never>? in
            defer { stored = nil }
            return stored
        }
        taken?.resume(returning: value)
    }
}
