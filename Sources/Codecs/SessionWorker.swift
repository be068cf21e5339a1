import Dispatch

/// The serial worker thread of one session: engine work runs here, never on the caller's executor,
/// one job at a time in the order submitted.
struct SessionWorker: Sendable {
    private let queue: DispatchQueue

    /// Creates a worker.
    /// - Parameter label: the queue's name, for debuggers.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs a job on the worker and waits for it without blocking the caller's thread.
    /// - Parameter job: the work.
    /// - Returns: what the job returns.
    /// - Throws: what the job throws.
    func run<Value: Sendable>(_ job: @escaping @Sendable () throws(CodecError) -> Value) async throws(CodecError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, CodecError>, Never>) in
            queue.async {
                do throws(CodecError) {
                    continuation.resume(returning: .success(try job()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs a job that cannot fail on the worker and waits for it without blocking the caller's thread.
    /// - Parameter job: the work.
    /// - Returns: what the job returns.
    func perform<Value: Sendable>(_ job: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            queue.async { continuation.resume(returning: job()) }
        }
    }
}

/// A value only the jobs of one ``SessionWorker`` touch (an engine, which is not `Sendable`): the
/// worker's serial queue is its lock, so callers never wait for an engine call to read the session's
/// counters.
final class WorkerConfined<Value>: @unchecked Sendable {
    /// The value; read and written only inside jobs of the owning worker.
    var value: Value

    /// Wraps a value.
    /// - Parameter value: the value, handed over to the worker.
    init(_ value: Value) {
        self.value = value
    }
}
