/// `samplingFrequencyIndex` / `sampling_frequency_index`: the thirteen sampling rates an index can name
/// (ISO/IEC 14496-3 §1.6.3.4, Table 1.18; ISO/IEC 13818-7 Table 35).
///
/// Indices 13 and 14 are reserved. Index 15 is the escape value: in `AudioSpecificConfig` it is
/// followed by an explicit 24-bit frequency (see ``SamplingFrequency``); in ADTS it is not allowed.
public enum SamplingFrequencyIndex: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// 0: 96000 Hz.
    case hz96000 = 0
    /// 1: 88200 Hz.
    case hz88200 = 1
    /// 2: 64000 Hz.
    case hz64000 = 2
    /// 3: 48000 Hz.
    case hz48000 = 3
    /// 4: 44100 Hz.
    case hz44100 = 4
    /// 5: 32000 Hz.
    case hz32000 = 5
    /// 6: 24000 Hz.
    case hz24000 = 6
    /// 7: 22050 Hz.
    case hz22050 = 7
    /// 8: 16000 Hz.
    case hz16000 = 8
    /// 9: 12000 Hz.
    case hz12000 = 9
    /// 10: 11025 Hz.
    case hz11025 = 10
    /// 11: 8000 Hz.
    case hz8000 = 11
    /// 12: 7350 Hz.
    case hz7350 = 12

    /// The escape value (15) that announces an explicit 24-bit `samplingFrequency`.
    public static let escapeValue: UInt8 = 15

    /// The rates of Table 1.18, in index order.
    private static let rates: [Int] = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050,
                                       16000, 12000, 11025, 8000, 7350]

    /// Finds the index of a rate the table names exactly.
    /// - Parameter hertz: a sampling rate in Hz.
    /// - Returns: `nil` if the table has no entry for exactly this rate.
    public init?(hertz: Int) {
        guard let position = Self.rates.firstIndex(of: hertz) else { return nil }
        self.init(rawValue: UInt8(position))
    }

    /// The sampling rate in Hz.
    public var hertz: Int { Self.rates[Int(rawValue)] }

    /// The rate and index, for example `44100 Hz (index 4)`.
    public var description: String { "\(hertz) Hz (index \(rawValue))" }
}
