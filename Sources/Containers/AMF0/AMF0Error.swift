/// Why AMF0 bytes could not be decoded (or a value could not be encoded): what is wrong, and the byte
/// offset where it lies, counted from where decoding started (the reader index of the view given to
/// ``AMF0Decoder``).
public struct AMF0Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The bytes ended inside the named field (`string length`, `number`, `object-end-marker` …).
        case truncated(field: String)
        /// A type marker no AMF0 edition defines (§2.1 ends at 0x11).
        case unknownTypeMarker(UInt8)
        /// A type the AMF0 specification reserves or this decoder does not support: movieclip (§2.6),
        /// reference (§2.9), recordset (§2.16), or a switch to AMF3 (§3.1).
        case unsupportedType(AMF0TypeMarker)
        /// An `object-end-marker` (§2.11) where a value was expected (outside object properties).
        case unexpectedObjectEnd
        /// A string's bytes are not UTF-8 (§1.3 "UTF-8").
        case invalidUTF8(field: String)
        /// Values nested deeper than ``AMF0Limits/maximumDepth``.
        case tooDeep(limit: Int)
        /// More values in one decode than ``AMF0Limits/maximumValueCount``.
        case tooManyValues(limit: Int)
        /// A string longer than ``AMF0Limits/maximumStringByteCount``.
        case stringTooLong(byteCount: Int, limit: Int)
        /// Encoding: a property name longer than 65 535 bytes (its length is a U16, §2.5).
        case keyTooLong(byteCount: Int)
        /// Encoding: a long string, XML document or strict array longer than a U32 counts.
        case valueTooLong(byteCount: Int)
    }

    /// What is wrong.
    public var reason: Reason
    /// The byte offset of the fault, from where decoding started (for an encoding error, the offset in
    /// the output where the value would have gone).
    public var offset: Int

    /// Creates an error.
    /// - Parameters:
    ///   - reason: what is wrong.
    ///   - offset: where, in bytes from where decoding started.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// A one-line explanation, for example `AMF0: truncated in string length (byte 17)`.
    public var description: String {
        let what: String
        switch reason {
        case let .truncated(field): what = "the data ends inside \(field)"
        case let .unknownTypeMarker(marker): what = "unknown type marker 0x\(String(marker, radix: 16))"
        case let .unsupportedType(marker): what = "unsupported type \(marker)"
        case .unexpectedObjectEnd: what = "object-end-marker outside an object"
        case let .invalidUTF8(field): what = "\(field) is not UTF-8"
        case let .tooDeep(limit): what = "values nested deeper than \(limit)"
        case let .tooManyValues(limit): what = "more than \(limit) values"
        case let .stringTooLong(count, limit): what = "a string of \(count) bytes (the limit is \(limit))"
        case let .keyTooLong(count): what = "a property name of \(count) bytes (at most 65535)"
        case let .valueTooLong(count): what = "a value of \(count) bytes or elements (at most 4294967295)"
        }
        return "AMF0: \(what) (byte \(offset))"
    }
}
