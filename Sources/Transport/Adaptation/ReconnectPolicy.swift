/// How a publisher tries again after its connection drops: exponential backoff between attempts, up to a
/// ceiling, for a bounded number of attempts in a row.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait before the first attempt, in seconds.
    public var initialDelay: Double
    /// The longest wait between attempts, in seconds.
    public var maximumDelay: Double
    /// The most attempts in a row before the publisher gives up (`nil`: never gives up; `0`: never reconnects).
    public var maximumAttempts: Int?

    /// Creates a policy.
    /// - Parameters:
    ///   - initialDelay: the first wait, seconds.
    ///   - maximumDelay: the longest wait, seconds.
    ///   - maximumAttempts: the most attempts in a row, `nil` for no limit.
    public init(initialDelay: Double = 0.5, maximumDelay: Double = 8, maximumAttempts: Int? = 10) {
        self.initialDelay = max(0, initialDelay)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
        self.maximumAttempts = maximumAttempts.map { max(0, $0) }
    }

    /// No reconnection: the first lost connection ends the publish.
    public static let never = ReconnectPolicy(maximumAttempts: 0)

    /// The wait before an attempt.
    /// - Parameter attempt: the attempt's number in a row, from 1.
    /// - Returns: seconds: the initial delay doubled for each earlier attempt, at most the maximum.
    public func delay(beforeAttempt attempt: Int) -> Double {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }
}
