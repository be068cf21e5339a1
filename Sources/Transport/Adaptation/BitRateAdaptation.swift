/// How a publisher moves its encoder's target bitrate with the state of its send queue: down in steps while
/// media piles up (the link is slower than the stream), up again in smaller steps once the queue has stayed
/// drained for a while.
public struct BitRateAdaptation: Sendable, Hashable {
    /// The bitrate the stream starts at, bits per second.
    public var initialBitRate: Int
    /// The lowest bitrate a step down reaches.
    public var minimumBitRate: Int
    /// The highest bitrate a step up reaches (the initial one unless set).
    public var maximumBitRate: Int
    /// Each step down multiplies the bitrate by this (0 < factor < 1).
    public var stepDownFactor: Double
    /// Each step up multiplies the bitrate by this (> 1).
    public var stepUpFactor: Double
    /// Media queued (seconds) above which the bitrate goes down.
    public var highWaterSeconds: Double
    /// Media queued (seconds) below which the link counts as keeping up.
    public var lowWaterSeconds: Double
    /// The shortest time between two steps down, in seconds (the encoder needs a moment to show the change).
    public var stepDownInterval: Double
    /// How long the queue must stay below ``lowWaterSeconds`` before each step up, in seconds.
    public var stepUpInterval: Double

    /// Creates an adaptation.
    /// - Parameters:
    ///   - initialBitRate: the starting bitrate, bits per second.
    ///   - minimumBitRate: the floor (default an eighth of the initial, at least 50 kbit/s).
    ///   - maximumBitRate: the ceiling (default the initial).
    ///   - stepDownFactor: the multiplier of a step down.
    ///   - stepUpFactor: the multiplier of a step up.
    ///   - highWaterSeconds: queued media that triggers a step down.
    ///   - lowWaterSeconds: queued media under which the link keeps up.
    ///   - stepDownInterval: the least time between steps down.
    ///   - stepUpInterval: how long the queue stays drained before each step up.
    public init(initialBitRate: Int, minimumBitRate: Int? = nil, maximumBitRate: Int? = nil, stepDownFactor: Double = 0.7,
                stepUpFactor: Double = 1.15, highWaterSeconds: Double = 0.5, lowWaterSeconds: Double = 0.15,
                stepDownInterval: Double = 0.5, stepUpInterval: Double = 1.5) {
        let initial = max(1, initialBitRate)
        self.initialBitRate = initial
        self.minimumBitRate = max(1, min(initial, minimumBitRate ?? max(50_000, initial / 8)))
        self.maximumBitRate = max(initial, maximumBitRate ?? initial)
        self.stepDownFactor = min(0.95, max(0.1, stepDownFactor))
        self.stepUpFactor = max(1.01, stepUpFactor)
        self.highWaterSeconds = highWaterSeconds
        self.lowWaterSeconds = min(lowWaterSeconds, highWaterSeconds)
        self.stepDownInterval = stepDownInterval
        self.stepUpInterval = stepUpInterval
    }
}
