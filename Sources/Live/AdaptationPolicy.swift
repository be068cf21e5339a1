/// Decides the main rendition's bit rate from what the live destinations say of their links — the policy that
/// closes the loop from a destination's congestion to the encoder (HaishinKit's `StreamBitRateStrategy`).
public protocol AdaptationPolicy: Sendable {
    /// The bit rate the encoder should use now.
    /// - Parameters:
    ///   - suggestions: the bit rate each live destination's link asks for (bits per second), by destination
    ///     name; destinations that have not asked for a change are absent.
    ///   - configured: the rendition's bit rate as configured (the ceiling).
    ///   - minimum: the lowest bit rate allowed.
    /// - Returns: the bit rate to set (bits per second).
    func bitRate(suggestions: [String: Int], configured: Int, minimum: Int) -> Int
}

/// The default policy: the encoder follows the slowest live destination (every viewer gets a stream their link
/// carries), never goes above the configured rate, never below the minimum. Recordings do not count: they are not
/// live destinations.
public struct FollowSlowestDestination: AdaptationPolicy {
    /// Creates the policy.
    public init() {}

    /// The smallest suggestion, between the minimum and the configured rate.
    /// - Parameters:
    ///   - suggestions: each live destination's wanted rate.
    ///   - configured: the ceiling.
    ///   - minimum: the floor.
    /// - Returns: the rate to set.
    public func bitRate(suggestions: [String: Int], configured: Int, minimum: Int) -> Int {
        let slowest = suggestions.values.min() ?? configured
        return max(minimum, min(configured, slowest))
    }
}
