#if FFmpeg
import MediaCore

/// Carries the caller's timestamps through a codec that counts in its own integer ticks.
///
/// Every picture handed to libavcodec gets the next tick (0, 1, 2 …: the codec's time base is one
/// frame), and the caller's pts and duration are remembered under it. What comes out is mapped back
/// exactly, in the caller's timescale; a tick the caller never gave (the negative decode times an
/// encoder with B-frames starts with) is extrapolated from the first picture's time and duration.
struct FFmpegTimestampMap: Sendable {
    /// The caller's times of one picture.
    struct Entry: Sendable, Hashable {
        /// Presentation time.
        var pts: MediaTime
        /// Display duration.
        var duration: MediaTime
    }

    /// The times of ticks `base ..< nextTick`; `nil` for a tick already forgotten.
    private var entries: [Entry?] = []
    /// The tick of `entries[0]`.
    private var base: Int64 = 0
    /// The tick the next picture gets.
    private(set) var nextTick: Int64 = 0
    private var origin: MediaTime?
    private var step: MediaTime

    /// Creates a map.
    /// - Parameter fallbackStep: the time of one tick when the first picture has no duration
    ///   (the inverse of the expected frame rate).
    init(fallbackStep: MediaTime) {
        self.step = fallbackStep
        entries.reserveCapacity(64)
    }

    /// The number of ticks whose times are still held (forgotten ones in the middle included).
    var count: Int { entries.count }

    /// Remembers a picture's times.
    /// - Parameters:
    ///   - pts: its presentation time.
    ///   - duration: its duration.
    /// - Returns: the tick to give the codec.
    mutating func register(pts: MediaTime, duration: MediaTime) -> Int64 {
        let tick = nextTick
        nextTick += 1
        if origin == nil {
            origin = pts
            if duration.value > 0 { step = duration }
        }
        if entries.isEmpty { base = tick }
        entries.append(Entry(pts: pts, duration: duration))
        return tick
    }

    /// The caller's times for a tick.
    /// - Parameter tick: a tick the codec returned.
    /// - Returns: the remembered entry, or one extrapolated from the first picture.
    func entry(for tick: Int64) -> Entry {
        let index = tick &- base
        if index >= 0, index < Int64(entries.count), let entry = entries[Int(index)] { return entry }
        return Entry(pts: extrapolatedTime(for: tick), duration: step)
    }

    /// Forgets every tick below `tick` (a decode time the codec has passed: none of them can come back).
    /// - Parameter tick: the lowest tick still needed.
    mutating func forget(below tick: Int64) {
        let drop = min(tick &- base, Int64(entries.count))
        guard drop > 0 else { return }
        entries.removeFirst(Int(drop))
        base += drop
    }

    /// Forgets one tick.
    /// - Parameter tick: the tick.
    mutating func forget(_ tick: Int64) {
        let index = tick &- base
        guard index >= 0, index < Int64(entries.count) else { return }
        entries[Int(index)] = nil
        var leading = 0
        while leading < entries.count, entries[leading] == nil { leading += 1 }
        if leading > 0 {
            entries.removeFirst(leading)
            base += Int64(leading)
        }
    }

    /// Forgets everything but keeps counting ticks.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        base = nextTick
    }

    private func extrapolatedTime(for tick: Int64) -> MediaTime {
        guard let origin else { return MediaTime(value: tick &* step.value, timescale: step.timescale) }
        let unit = step.converted(to: origin.timescale)
        let (product, overflow) = unit.value.multipliedReportingOverflow(by: tick)
        guard !overflow else { return origin }
        return MediaTime(value: origin.value &+ product, timescale: origin.timescale)
    }
}
#endif
