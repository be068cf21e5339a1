/// A 64-bit NTP timestamp (RFC 5905 §6, RFC 3550 §4): seconds since 1 January 1900 and a 32-bit
/// fraction of a second — the wallclock half of an RTCP sender report.
public struct NTPTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1900-01-01 00:00 UTC (wraps in 2036, era 0).
    public var seconds: UInt32
    /// The fraction of a second, in units of 2⁻³² s.
    public var fraction: UInt32

    /// Seconds between the NTP epoch (1900) and the Unix epoch (1970).
    public static let unixEpochOffset: UInt64 = 2_208_988_800

    /// Creates a timestamp.
    /// - Parameters:
    ///   - seconds: whole seconds since 1900.
    ///   - fraction: the fraction, in 2⁻³² s.
    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    /// Creates a timestamp from its 64-bit form (seconds in the high half).
    /// - Parameter rawValue: the 64 bits as they travel.
    public init(rawValue: UInt64) {
        self.init(seconds: UInt32(truncatingIfNeeded: rawValue >> 32), fraction: UInt32(truncatingIfNeeded: rawValue))
    }

    /// The time of a Unix clock reading (`clock_gettime(CLOCK_REALTIME)`).
    /// - Parameters:
    ///   - unixSeconds: seconds since 1970.
    ///   - nanoseconds: 0 ..< 1 000 000 000.
    public init(unixSeconds: UInt64, nanoseconds: UInt32) {
        let fraction = (UInt64(nanoseconds) << 32) / 1_000_000_000
        self.init(seconds: UInt32(truncatingIfNeeded: unixSeconds &+ Self.unixEpochOffset), fraction: UInt32(truncatingIfNeeded: fraction))
    }

    /// The 64 bits as they travel: seconds, then fraction.
    public var rawValue: UInt64 { UInt64(seconds) << 32 | UInt64(fraction) }

    /// The middle 32 bits (16 bits of seconds, 16 of fraction): the LSR field of a report block (RFC 3550 §6.4.1).
    public var middle32: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 16) }

    /// The signed time from `other` to this timestamp in seconds, assuming they are less than 68 years apart.
    /// - Parameter other: the earlier (or later) timestamp.
    /// - Returns: `self − other` in seconds.
    public func seconds(since other: NTPTimestamp) -> Double {
        Double(Int64(bitPattern: rawValue &- other.rawValue)) / 4_294_967_296.0
    }

    /// The signed time from `other` to this timestamp in nanoseconds (exact to the nanosecond).
    /// - Parameter other: the other timestamp.
    /// - Returns: `self − other` in nanoseconds.
    public func nanoseconds(since other: NTPTimestamp) -> Int64 {
        let difference = Int64(bitPattern: rawValue &- other.rawValue)
        let product = difference.multipliedFullWidth(by: 1_000_000_000)
        return Int64(truncatingIfNeeded: (Int128(product.high) << 64 | Int128(product.low)) >> 32)
    }

    /// Orders timestamps of one era.
    /// - Parameters:
    ///   - lhs: a timestamp.
    ///   - rhs: another.
    /// - Returns: whether `lhs` is earlier.
    public static func < (lhs: NTPTimestamp, rhs: NTPTimestamp) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `seconds.fraction` as hexadecimal, the way tshark prints it: `0xe9a5c2b1.4d2f0000`.
    public var description: String {
        "0x" + String(seconds, radix: 16) + "." + String(fraction, radix: 16)
    }
}
