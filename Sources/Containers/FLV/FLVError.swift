/// Why FLV bytes could not be read, or a tag could not be written: what is wrong and the byte offset
/// where it lies — in a tag body, counted from the body's first byte; in a file, from the file's first byte.
public struct FLVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The bytes ended inside the named field.
        case truncated(field: String)
        /// The source could not be read.
        case io(ContainerIOError)
        /// A video `FrameType` that no edition defines (0, or 6 and 7).
        case invalidFrameType(UInt8)
        /// An Enhanced RTMP `VideoPacketType` this reader does not know (v1 defines 0–5).
        case unknownVideoPacketType(UInt8)
        /// The file does not start with `FLV` (E.2).
        case notFLV
        /// An FLV header version other than 1 (E.2).
        case unsupportedVersion(UInt8)
        /// A `DataOffset` below the 9 bytes of the header (E.2).
        case invalidDataOffset(UInt32)
        /// A tag with the `Filter` bit set: its body is encrypted (E.4.1), which this reader does not do.
        case encryptedTag
        /// A tag body larger than the reader's cap.
        case tagTooLarge(byteCount: Int, limit: Int)
        /// A `PreviousTagSize` that is neither 0 nor the size of the tag before it (E.3).
        case previousTagSizeMismatch(expected: UInt32, found: UInt32)
        /// A sequence header that does not parse (avcC, hvcC or AudioSpecificConfig), with the parser's message.
        case invalidDecoderConfiguration(String)
        /// A script-data tag whose AMF0 values do not decode.
        case invalidScriptData(AMF0Error)
        /// A coded frame's NAL units do not fit their length prefixes.
        case invalidNALUnitFraming(String)
        /// Writing: a value that does not fit its FLV field (a composition time outside a signed 24-bit
        /// range, a body past 16 MiB, a codec FLV cannot carry this way).
        case unrepresentable(String)
    }

    /// What is wrong.
    public var reason: Reason
    /// The byte offset of the fault (from the body's or the file's first byte; for writing errors, 0).
    public var offset: Int

    /// Creates an error.
    /// - Parameters:
    ///   - reason: what is wrong.
    ///   - offset: where.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The same error with its offset moved by `base` (a body's error placed in its file).
    /// - Parameter base: where the body starts.
    /// - Returns: the moved error.
    public func offset(by base: Int) -> FLVError { FLVError(reason, offset: offset + base) }

    /// A one-line explanation, for example `FLV: the data ends inside CompositionTime (byte 2)`.
    public var description: String {
        let what: String
        switch reason {
        case let .truncated(field): what = "the data ends inside \(field)"
        case let .io(error): what = "\(error)"
        case let .invalidFrameType(value): what = "video FrameType \(value) is not defined"
        case let .unknownVideoPacketType(value): what = "Enhanced RTMP VideoPacketType \(value) is unknown"
        case .notFLV: what = "no FLV signature"
        case let .unsupportedVersion(version): what = "FLV version \(version) (only 1 is defined)"
        case let .invalidDataOffset(value): what = "DataOffset \(value) is shorter than the 9-byte header"
        case .encryptedTag: what = "an encrypted tag (Filter bit set)"
        case let .tagTooLarge(count, limit): what = "a tag body of \(count) bytes (the limit is \(limit))"
        case let .previousTagSizeMismatch(expected, found): what = "PreviousTagSize \(found), the tag before was \(expected)"
        case let .invalidDecoderConfiguration(message): what = "sequence header: \(message)"
        case let .invalidScriptData(error): what = "script data: \(error)"
        case let .invalidNALUnitFraming(message): what = "coded frames: \(message)"
        case let .unrepresentable(message): what = message
        }
        return "FLV: \(what) (byte \(offset))"
    }
}
