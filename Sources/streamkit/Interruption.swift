import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM become a flag the recording loops poll, so files are finished and closed
/// instead of cut off.
enum Interruption {
    private static let flag = Atomic<Bool>(false)
    /// Written once by ``install()`` on the main thread before any task runs; only kept alive here.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Whether the user asked to stop.
    static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Starts catching SIGINT and SIGTERM.
    static func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { flag.store(true, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
    }
}
