import Bitstream

/// Reads with errors typed as ``AudioSpecificConfigError``, plus the two composite elements every
/// MPEG-4 audio configuration uses.
extension BitReader {
    /// `u(n)` → ``AudioSpecificConfigError``.
    mutating func configBits(_ count: Int, _ field: StaticString) throws(AudioSpecificConfigError) -> UInt32 {
        do { return try u(count, field) } catch { throw AudioSpecificConfigError(error) }
    }

    /// `u(n)` with a range check → ``AudioSpecificConfigError``.
    mutating func configBits(_ count: Int, _ field: StaticString, allowed: ClosedRange<UInt32>) throws(AudioSpecificConfigError) -> UInt32 {
        do { return try u(count, field, allowed: allowed) } catch { throw AudioSpecificConfigError(error) }
    }

    /// A one-bit flag → ``AudioSpecificConfigError``.
    mutating func configFlag(_ field: StaticString) throws(AudioSpecificConfigError) -> Bool {
        do { return try flag(field) } catch { throw AudioSpecificConfigError(error) }
    }

    /// `GetAudioObjectType()` (ISO/IEC 14496-3 §1.6.2.1, Table 1.14): five bits, and when they are 31,
    /// six more bits giving 32 + `audioObjectTypeExt`.
    /// - Parameter field: the name of the element being read (`audioObjectType` or
    ///   `extensionAudioObjectType`).
    mutating func audioObjectType(_ field: StaticString) throws(AudioSpecificConfigError) -> AudioObjectType {
        let start = bitPosition
        var value = try configBits(5, field)
        if value == UInt32(AudioObjectType.escapeValue) {
            value = 32 + (try configBits(6, "audioObjectTypeExt"))
        }
        guard let type = AudioObjectType(rawValue: UInt8(value)) else {
            throw AudioSpecificConfigError(field: "\(field)", bitOffset: start,
                                           reason: .invalid("0 (Null) is not an audio object type"))
        }
        return type
    }

    /// `samplingFrequencyIndex` and, for the escape value 15, the 24-bit `samplingFrequency`
    /// (ISO/IEC 14496-3 §1.6.2.1, Table 1.18).
    /// - Parameters:
    ///   - indexField: the name of the index element.
    ///   - frequencyField: the name of the explicit frequency element.
    mutating func samplingFrequency(_ indexField: StaticString, _ frequencyField: StaticString) throws(AudioSpecificConfigError) -> SamplingFrequency {
        let start = bitPosition
        let index = UInt8(try configBits(4, indexField))
        if index == SamplingFrequencyIndex.escapeValue {
            let frequencyStart = bitPosition
            let hertz = try configBits(24, frequencyField)
            guard hertz > 0 else {
                throw AudioSpecificConfigError(field: "\(frequencyField)", bitOffset: frequencyStart,
                                               reason: .invalid("a sampling frequency of 0 Hz"))
            }
            return .explicit(hertz: hertz)
        }
        guard let known = SamplingFrequencyIndex(rawValue: index) else {
            throw AudioSpecificConfigError(field: "\(indexField)", bitOffset: start, reason: .reserved(value: Int64(index)))
        }
        return .index(known)
    }
}

extension BitWriter {
    /// Writes an object type the way `GetAudioObjectType()` reads it.
    mutating func audioObjectType(_ type: AudioObjectType) {
        if type.rawValue < AudioObjectType.escapeValue {
            u(5, UInt32(type.rawValue))
        } else {
            u(5, UInt32(AudioObjectType.escapeValue))
            u(6, UInt32(type.rawValue - 32))
        }
    }

    /// Writes a sampling frequency as an index or as the escape value plus 24 bits.
    mutating func samplingFrequency(_ frequency: SamplingFrequency, field: StaticString, bitOffset: Int) throws(AudioSpecificConfigError) {
        switch frequency {
        case let .index(index):
            u(4, UInt32(index.rawValue))
        case let .explicit(hertz):
            guard hertz > 0, hertz <= SamplingFrequency.largestExplicitHertz else {
                throw AudioSpecificConfigError(field: "\(field)", bitOffset: bitOffset,
                                               reason: .outOfRange(value: Int64(hertz), allowed: 1...Int64(SamplingFrequency.largestExplicitHertz)))
            }
            u(4, UInt32(SamplingFrequencyIndex.escapeValue))
            u(24, hertz)
        }
    }
}
