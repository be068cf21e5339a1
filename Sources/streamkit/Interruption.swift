import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM become a flag the recording loops poll, so files are finished and closed
/// instead of cut off.
enum Interruption {
    private static let flag = Atomic<Bool>(false)
    private static let handlers = Mutex<[@Sendable () -> Void]>([])
    /// Written once by ``install()`` on the main thread before any task runs; only kept alive here.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Whether the user asked to stop.
    static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Calls `handler` when the user asks to stop (at once if they already have), for a pipeline to stop.
    /// - Parameter handler: what to do, for example `pipeline.stop()`.
    static func onRequest(_ handler: @escaping @Sendable () -> Void) {
        handlers.withLock { $0.append(handler) }
        if isRequested { handler() }
    }

    /// Starts catching SIGINT and SIGTERM.
    static func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                flag.store(true, ordering: .relaxed)
                for handler in handlers.withLock({ $0 }) { handler() }
            }
            source.resume()
            sources.append(source)
        }
    }
}
