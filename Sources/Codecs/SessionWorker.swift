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
}
