import CodecInterface

/// A leaky bucket that keeps one data-rate limit: it fills by each picture's bytes and drains at
/// `rate` bytes per second, and may never hold more than `capacity`.
///
/// With `capacity + rate · seconds ≤ bytes`, no window of `seconds` can hold more than `bytes`: the
/// pictures inside a window add their sizes to the bucket, which drains at most `rate · seconds`
/// meanwhile and never goes over `capacity` (the VBV argument of Annex C, turned into a sliding window).
struct RateControlBuffer: Sendable {
    /// The limit kept.
    let limit: DataRateLimit
    /// Drain in bytes per second.
    let rate: Double
    /// The most the bucket holds, in bytes.
    let capacity: Double
    /// What it holds after the last picture.
    private(set) var fullness = 0.0
    /// The last picture's time, in seconds.
    private(set) var lastTime: Double?

    /// Creates a bucket for a limit.
    /// - Parameters:
    ///   - limit: at most `bytes` in any `seconds`.
    ///   - averageBytesPerSecond: the average the stream aims at (nil: constant QP). The drain is set a
    ///     little above it, within half and nine tenths of the limit's own rate; the rest of the limit
    ///     is room for large pictures.
    init(limit: DataRateLimit, averageBytesPerSecond: Double?) {
        self.limit = limit
        let limitRate = Double(limit.bytes) / limit.seconds
        let wanted = (averageBytesPerSecond ?? 0) * 1.2
        rate = min(max(wanted, 0.5 * limitRate), 0.9 * limitRate)
        capacity = Double(limit.bytes) - rate * limit.seconds
    }

    /// What the bucket holds just before a picture at `time` arrives.
    /// - Parameter time: the picture's time in seconds.
    /// - Returns: bytes.
    func fullness(at time: Double) -> Double {
        guard let lastTime else { return 0 }
        return max(0, fullness - rate * max(0, time - lastTime))
    }

    /// The most bytes a picture at `time` may take.
    /// - Parameter time: the picture's time in seconds.
    /// - Returns: bytes.
    func room(at time: Double) -> Double { capacity - fullness(at: time) }

    /// Adds a picture.
    /// - Parameters:
    ///   - bytes: its size.
    ///   - time: its time in seconds.
    mutating func add(_ bytes: Int, at time: Double) {
        fullness = fullness(at: time) + Double(bytes)
        lastTime = max(time, lastTime ?? time)
    }
}
