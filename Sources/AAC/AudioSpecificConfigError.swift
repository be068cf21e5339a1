import Bitstream

/// What is wrong with an `AudioSpecificConfig` (or a part of it) and where: the syntax element as
/// ISO/IEC 14496-3 names it, the bit offset from the start of the configuration, and the reason.
public struct AudioSpecificConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why an element was rejected.
    public enum Reason: Hashable, Sendable {
        /// The data ended before the element was complete.
        case endOfData
        /// The value lies outside the range the standard allows.
        case outOfRange(value: Int64, allowed: ClosedRange<Int64>)
        /// The value is reserved (for example `samplingFrequencyIndex` 13 or `channelConfiguration` 8).
        case reserved(value: Int64)
        /// The value or the combination of values is not allowed; the text says why.
        case invalid(String)
    }

    /// The syntax element as ISO/IEC 14496-3 spells it, for example `samplingFrequencyIndex`.
    public var field: String
    /// Where the element starts, in bits from the first bit of the configuration.
    public var bitOffset: Int
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    /// - Parameters:
    ///   - field: the syntax element's name.
    ///   - bitOffset: where it starts, in bits from the start of the configuration.
    ///   - reason: what is wrong.
    public init(field: String, bitOffset: Int, reason: Reason) {
        self.field = field
        self.bitOffset = bitOffset
        self.reason = reason
    }

    /// Wraps a ``SyntaxError`` from the bit reader.
    /// - Parameter error: the reader's error.
    public init(_ error: SyntaxError) {
        let reason: Reason
        switch error.reason {
        case .endOfData, .expGolombOverflow: reason = .endOfData
        case let .outOfRange(value, allowed): reason = .outOfRange(value: value, allowed: allowed)
        case let .invalid(text): reason = .invalid(text)
        }
        self.init(field: error.field, bitOffset: error.bitOffset, reason: reason)
    }

    /// The byte that holds the element's first bit.
    public var byteOffset: Int { bitOffset / 8 }

    /// A one-line explanation, for example
    /// `samplingFrequencyIndex: 13 is reserved (byte 0, bit 5)`.
    public var description: String {
        let place = "byte \(byteOffset), bit \(bitOffset)"
        switch reason {
        case .endOfData: return "\(field): data ends before the field is complete (\(place))"
        case let .outOfRange(value, allowed): return "\(field): \(value) outside \(allowed.lowerBound)...\(allowed.upperBound) (\(place))"
        case let .reserved(value): return "\(field): \(value) is reserved (\(place))"
        case let .invalid(text): return "\(field): \(text) (\(place))"
        }
    }
}
