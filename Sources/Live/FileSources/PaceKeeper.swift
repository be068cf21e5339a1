import MediaCore

/// Waits until a frame's time has come, for a source paced ``Pacing/realTime``: the first frame's time is "now",
/// each later one waits for its distance from the first. With ``Pacing/asFastAsPossible`` it never waits.
struct PaceKeeper: Sendable {
    /// The pacing.
    let pacing: Pacing
    private var start: ContinuousClock.Instant?
    private var origin: MediaTime?

    /// A keeper.
    /// - Parameter pacing: real time or as fast as possible.
    init(pacing: Pacing) {
        self.pacing = pacing
    }

    /// The instant a frame of time `time` is due, measured from the first time given; `nil` when not paced.
    /// - Parameter time: the frame's time (decode time for encoded media, capture time for pictures and sound).
    /// - Returns: when to hand the frame out, or `nil` for at once.
    mutating func deadline(for time: MediaTime) -> ContinuousClock.Instant? {
        guard pacing == .realTime else { return nil }
        let start = self.start ?? ContinuousClock.now
        let origin = self.origin ?? time
        self.start = start
        self.origin = origin
        return start.advanced(by: .seconds(max(0, (time - origin).seconds)))
    }

    /// Sleeps until `deadline` (at once for `nil`).
    /// - Parameter deadline: from ``deadline(for:)``.
    /// - Returns: `false` when the waiting task was cancelled.
    static func sleep(until deadline: ContinuousClock.Instant?) async -> Bool {
        guard let deadline else { return !Task.isCancelled }
        do {
            try await Task.sleep(until: deadline, clock: .continuous)
            return true
        } catch {
            return false
        }
    }
}
