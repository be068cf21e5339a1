/// The state machine of ``BitRateAdaptation``: fed the queue's media time now and then, it answers with a new
/// target bitrate when one is due.
public struct BitRateController: Sendable {
    /// The rules.
    public let adaptation: BitRateAdaptation
    /// The target bitrate in force, bits per second.
    public private(set) var bitRate: Int
    private var lastChange: Double?
    private var drainedSince: Double?

    /// Creates a controller at the adaptation's initial bitrate.
    /// - Parameter adaptation: the rules.
    public init(adaptation: BitRateAdaptation) {
        self.adaptation = adaptation
        bitRate = adaptation.initialBitRate
    }

    /// Looks at the queue and decides.
    /// - Parameters:
    ///   - queuedSeconds: the media time waiting in the send queue.
    ///   - now: a monotonic time in seconds.
    /// - Returns: the new bitrate when it changes, else `nil`.
    public mutating func observe(queuedSeconds: Double, at now: Double) -> Int? {
        if queuedSeconds > adaptation.highWaterSeconds {
            drainedSince = nil
            guard bitRate > adaptation.minimumBitRate else { return nil }
            if let lastChange, now - lastChange < adaptation.stepDownInterval { return nil }
            let lowered = max(adaptation.minimumBitRate, Int(Double(bitRate) * adaptation.stepDownFactor))
            return change(to: lowered, at: now)
        }
        guard queuedSeconds < adaptation.lowWaterSeconds else {
            drainedSince = nil
            return nil
        }
        guard bitRate < adaptation.maximumBitRate else { return nil }
        let since = drainedSince ?? now
        drainedSince = since
        guard now - since >= adaptation.stepUpInterval, now - (lastChange ?? -.infinity) >= adaptation.stepUpInterval else { return nil }
        let raised = min(adaptation.maximumBitRate, max(bitRate + 1, Int(Double(bitRate) * adaptation.stepUpFactor)))
        drainedSince = now
        return change(to: raised, at: now)
    }

    private mutating func change(to newBitRate: Int, at now: Double) -> Int? {
        guard newBitRate != bitRate else { return nil }
        bitRate = newBitRate
        lastChange = now
        return newBitRate
    }
}
