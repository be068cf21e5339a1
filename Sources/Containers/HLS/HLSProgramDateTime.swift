import MediaCore
import POSIX

/// A wall-clock instant to millisecond accuracy, as `EXT-X-PROGRAM-DATE-TIME` carries it
/// (RFC 8216 §4.3.2.6: an ISO 8601 / RFC 3339 date-time with a time zone and milliseconds).
public struct HLSProgramDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch, 1970-01-01T00:00:00Z.
    public var millisecondsSinceEpoch: Int64

    /// An instant from milliseconds since the epoch.
    /// - Parameter millisecondsSinceEpoch: milliseconds since 1970-01-01T00:00:00Z.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// The current time of the system's real-time clock.
    /// - Returns: now.
    public static func now() -> HLSProgramDateTime {
        HLSProgramDateTime(millisecondsSinceEpoch: RealTimeClock.millisecondsSinceEpoch())
    }

    /// The instant a media time after this one (rounded to the millisecond).
    /// - Parameter offset: the time to add.
    /// - Returns: the later (or, for a negative offset, earlier) instant.
    public func advanced(by offset: MediaTime) -> HLSProgramDateTime {
        HLSProgramDateTime(millisecondsSinceEpoch: millisecondsSinceEpoch + offset.converted(to: 1000).value)
    }

    /// Orders instants.
    /// - Parameters:
    ///   - lhs: an instant.
    ///   - rhs: an instant.
    /// - Returns: whether `lhs` is earlier.
    public static func < (lhs: HLSProgramDateTime, rhs: HLSProgramDateTime) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// RFC 3339 in UTC with milliseconds, for example `2026-12-01T10:25:54.320Z`.
    public var description: String {
        let (days, millisecondOfDay) = millisecondsSinceEpoch.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        return "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))T"
            + "\(Self.digits(hour, 2)):\(Self.digits(minute, 2)):\(Self.digits(second, 2)).\(Self.digits(millisecond, 3))Z"
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01: shifts the year to start in March
    /// (so the leap day ends it), splits 400-year eras of 146 097 days, then the year of the era and the
    /// day of that year.
    /// - Parameter days: days since 1970-01-01 (negative before).
    /// - Returns: year, month 1…12, day 1…31.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468 // days from 0000-03-01 to 1970-01-01
        let (era, dayOfEra) = shifted.floorDivided(by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// A non-negative number with leading zeros to `width` digits.
    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Int64 {
    /// Division rounding towards negative infinity, with the matching non-negative remainder.
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self / divisor, remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
