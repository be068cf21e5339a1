import Live
import Synchronization

/// A source that tells a ``ReceiveWatchdog`` of each frame it gives out, so the watchdog hears arrivals as they come
/// instead of reading the source's counters at each check. The watchdog is given after the pipeline that reads the
/// source is made (its stop action ends that pipeline).
final class ArrivalNotingSource: EncodedMediaSource {
    private let source: any EncodedMediaSource
    private let watchdog = Mutex<ReceiveWatchdog?>(nil)

    /// Wraps a source.
    /// - Parameter source: the source read.
    init(_ source: any EncodedMediaSource) {
        self.source = source
    }

    /// Tells this watchdog of each frame from now on.
    /// - Parameter watchdog: the receive's watchdog.
    func report(to watchdog: ReceiveWatchdog) {
        self.watchdog.withLock { $0 = watchdog }
    }

    /// The source's name.
    var name: String { source.name }

    /// Opens the source.
    func open() async throws(LiveSourceError) -> LiveStreamDescription { try await source.open() }

    /// The source's next frame, noted as an arrival.
    func next() async throws(LiveSourceError) -> EncodedMedia? {
        let media = try await source.next()
        if media != nil { watchdog.withLock { $0 }?.noteArrival() }
        return media
    }

    /// Stops the source.
    func stop() async { await source.stop() }
}
