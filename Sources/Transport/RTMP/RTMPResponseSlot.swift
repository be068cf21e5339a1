import Synchronization

/// Where one answer (a `_result`, an `onStatus`) lands: the first of the answer, a failure of the connection or a
/// timeout wins, whether it comes before or after the caller starts waiting.
final class RTMPResponseSlot<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, RTMPError>?
        var continuation: CheckedContinuation<Result<Value, RTMPError>, Never>?
        var isDone = false
    }

    private let state = Mutex(State())

    /// Delivers the outcome if none was delivered yet.
    /// - Parameter result: the answer or the failure.
    func fulfill(_ result: Result<Value, RTMPError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Value, RTMPError>, Never>? in
            guard !state.isDone else { return nil }
            state.isDone = true
            guard let continuation = state.continuation else {
                state.result = result
                return nil
            }
            state.continuation = nil
            return continuation
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the outcome, at most `timeout`.
    /// - Parameters:
    ///   - timeout: how long to wait.
    ///   - what: the command named in a ``RTMPError/timedOut(command:)``.
    /// - Returns: the answer.
    /// - Throws: the failure delivered, or ``RTMPError/timedOut(command:)``.
    func wait(timeout: Duration, for what: String) async throws(RTMPError) -> Value {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { fulfill(.failure(.timedOut(command: what))) }
        }
        defer { timer.cancel() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, RTMPError>, Never>) in
            let ready = state.withLock { state -> Result<Value, RTMPError>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }
}
