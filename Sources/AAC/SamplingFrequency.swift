/// A sampling frequency as `AudioSpecificConfig` codes it (ISO/IEC 14496-3 §1.6.2.1): either a
/// four-bit index into Table 1.18, or the escape index 15 followed by the rate in 24 bits.
///
/// The two forms are kept apart so that a parsed configuration is written back bit for bit, even when
/// an explicit frequency happens to equal a rate the table names.
public enum SamplingFrequency: Hashable, Sendable, CustomStringConvertible {
    /// `samplingFrequencyIndex` 0…12.
    case index(SamplingFrequencyIndex)
    /// `samplingFrequencyIndex` 15 followed by `samplingFrequency` (24 bits).
    case explicit(hertz: UInt32)

    /// The largest rate the 24-bit escape form can hold.
    public static let largestExplicitHertz: UInt32 = (1 << 24) - 1

    /// The indexed form when the table names the rate, otherwise the explicit form.
    /// - Parameter hertz: a sampling rate in Hz, 1 through 2^24 − 1.
    /// - Returns: `nil` when `hertz` cannot be coded.
    public init?(hertz: Int) {
        if let index = SamplingFrequencyIndex(hertz: hertz) {
            self = .index(index)
        } else if hertz > 0, hertz <= Int(Self.largestExplicitHertz) {
            self = .explicit(hertz: UInt32(hertz))
        } else {
            return nil
        }
    }

    /// The rate in Hz.
    public var hertz: Int {
        switch self {
        case let .index(index): return index.hertz
        case let .explicit(hertz): return Int(hertz)
        }
    }

    /// The rate, and the index when there is one.
    public var description: String {
        switch self {
        case let .index(index): return index.description
        case let .explicit(hertz): return "\(hertz) Hz (explicit)"
        }
    }
}
