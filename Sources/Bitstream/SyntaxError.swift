/// A syntax element that could not be read: which field, where, and why.
///
/// Every parser in StreamKit reports malformed input through this type (or wraps it), so an error
/// always names the syntax element as the specification spells it (for example
/// `pic_width_in_mbs_minus1`) and the bit position inside the RBSP where reading stopped.
public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why a syntax element could not be read.
    public enum Reason: Sendable, Equatable {
        /// The data ended before the element was complete.
        case endOfData
        /// An Exp-Golomb code had more than 32 leading zero bits (no conforming value is that long).
        case expGolombOverflow
        /// The value was read but lies outside the range the specification allows.
        case outOfRange(value: Int64, allowed: ClosedRange<Int64>)
        /// The value was read but is not allowed here; the text says what is wrong.
        case invalid(String)
    }

    /// The syntax element's name as the specification spells it.
    public var field: String
    /// The bit offset in the RBSP (after emulation-prevention removal) where the element starts.
    public var bitOffset: Int
    /// Why the element could not be read.
    public var reason: Reason

    /// Creates a syntax error.
    /// - Parameters:
    ///   - field: the syntax element's name as the specification spells it.
    ///   - bitOffset: where the element starts, in bits from the start of the RBSP.
    ///   - reason: why it could not be read.
    public init(field: String, bitOffset: Int, reason: Reason) {
        self.field = field
        self.bitOffset = bitOffset
        self.reason = reason
    }

    /// The byte offset in the RBSP that holds the element's first bit.
    public var byteOffset: Int { bitOffset / 8 }

    /// A one-line explanation, for example `pps_id: value 300 outside 0...255 (RBSP byte 1, bit 9)`.
    public var description: String {
        let place = "RBSP byte \(byteOffset), bit \(bitOffset)"
        switch reason {
        case .endOfData:
            return "\(field): data ends before the field is complete (\(place))"
        case .expGolombOverflow:
            return "\(field): Exp-Golomb code longer than 32 bits (\(place))"
        case let .outOfRange(value, allowed):
            return "\(field): value \(value) outside \(allowed.lowerBound)...\(allowed.upperBound) (\(place))"
        case let .invalid(text):
            return "\(field): \(text) (\(place))"
        }
    }
}
