import Foundation

/// The blocking side of a device-backed source: a private serial dispatch queue that all device access runs
/// on, and a lock-protected stop flag that the blocking read loop polls. ``V4L2Camera`` and ``ALSAMicrophone``
/// share it; each keeps its own read loop and its own way of closing the device.
final class DeviceQueue: Sendable {
    private let queue: DispatchQueue
    private let stopped = LockedValue(false)

    /// Creates the queue.
    /// - Parameter label: the dispatch queue's label.
    init(label: String) {
        self.queue = DispatchQueue(label: label)
    }

    /// Whether a stop was requested (by `stop(closing:)`, by cancellation, or by a failed read).
    var isStopped: Bool { stopped.current }

    /// Sets the stop flag; the read loop notices it at its next poll.
    func requestStop() {
        stopped.withLock { $0 = true }
    }

    /// Runs one blocking read on the queue and waits for it. A task cancelled before or during the wait
    /// requests a stop, so the read returns promptly.
    /// - Parameter read: the read; runs on the queue.
    /// - Returns: what the read delivered.
    /// - Throws: the read's error.
    func perform<Value: Sendable>(_ read: @escaping @Sendable () -> Result<Value, CaptureError>) async throws(CaptureError) -> Value {
        if Task.isCancelled { requestStop() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, CaptureError>, Never>) in
                queue.async { continuation.resume(returning: read()) }
            }
        } onCancel: {
            self.requestStop()
        }
        return try result.get()
    }

    /// Requests a stop, then runs `close` on the queue (after any read in progress) and waits for it.
    /// - Parameter close: closes the device; runs on the queue.
    func stop(closing close: @escaping @Sendable () -> Void) async {
        requestStop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                close()
                continuation.resume()
            }
        }
    }
}
