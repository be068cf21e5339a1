/// A rational time, like `CMTime`: `value / timescale` seconds. Video on RTP uses a 90 kHz timescale.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator.
    public var value: Int64
    /// Units per second; always positive.
    public var timescale: Int32

    /// Creates a time of `value / timescale` seconds.
    /// - Parameters:
    ///   - value: the count of units.
    ///   - timescale: units per second; must be positive.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime needs a positive timescale")
        self.value = value
        self.timescale = timescale
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// The time in seconds.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same instant in another timescale, rounded to the nearest unit (halves away from zero).
    /// - Parameter newTimescale: the timescale to express the time in.
    /// - Returns: the converted time.
    public func converted(to newTimescale: Int32) -> MediaTime {
        if newTimescale == timescale { return self }
        let product = value.multipliedFullWidth(by: Int64(newTimescale))
        let (quotient, remainder) = Int64(timescale).dividingFullWidth(product)
        var rounded = quotient
        if 2 * abs(remainder) >= Int64(timescale) { rounded += remainder < 0 ? -1 : 1 }
        return MediaTime(value: rounded, timescale: newTimescale)
    }

    /// The sum of two times, in the finer of the two timescales.
    /// - Parameters:
    ///   - lhs: a time.
    ///   - rhs: a time.
    /// - Returns: `lhs + rhs`.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let scale = max(lhs.timescale, rhs.timescale)
        return MediaTime(value: lhs.converted(to: scale).value + rhs.converted(to: scale).value, timescale: scale)
    }

    /// The difference of two times, in the finer of the two timescales.
    /// - Parameters:
    ///   - lhs: a time.
    ///   - rhs: a time.
    /// - Returns: `lhs - rhs`.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let scale = max(lhs.timescale, rhs.timescale)
        return MediaTime(value: lhs.converted(to: scale).value - rhs.converted(to: scale).value, timescale: scale)
    }

    /// Orders times by the instant they denote, exactly (no floating point).
    /// - Parameters:
    ///   - lhs: a time.
    ///   - rhs: a time.
    /// - Returns: whether `lhs` is earlier.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
        let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
        return left.high < right.high || (left.high == right.high && left.low < right.low)
    }

    /// Equal instants are equal whatever their timescales (1/2 == 2/4).
    /// - Parameters:
    ///   - lhs: a time.
    ///   - rhs: a time.
    /// - Returns: whether both denote the same instant.
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    /// Hashes the reduced fraction, so equal instants hash alike.
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) {
        var a = abs(value), b = Int64(timescale)
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = max(a, 1)
        hasher.combine(value / divisor)
        hasher.combine(Int64(timescale) / divisor)
    }

    /// `value/timescale`, for example `3003/30000`.
    public var description: String { "\(value)/\(timescale)" }
}
