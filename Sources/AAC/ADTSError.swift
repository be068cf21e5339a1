/// What is wrong with ADTS data and where: the byte offset, the syntax element as ISO/IEC 13818-7 names
/// it, and the reason.
public struct ADTSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why an ADTS header or frame was rejected.
    public enum Reason: Hashable, Sendable {
        /// The twelve bits at the start of the header are not the syncword `0xFFF`.
        case badSyncword(found: UInt16)
        /// `layer` is not 0 (13818-7 §8.2.2: "Indicates which layer is used. Set to '00'").
        case layerNotZero(found: UInt8)
        /// `sampling_frequency_index` is 13 or 14 (reserved) or 15 (the escape value, not allowed in ADTS).
        case reservedSamplingFrequencyIndex(found: UInt8)
        /// `profile` is 3, which is reserved in MPEG-2 ADTS (`ID` = 1).
        case reservedProfile(found: UInt8)
        /// `aac_frame_length` counts the header itself, so it cannot be shorter than the header.
        case frameLengthShorterThanHeader(frameLength: Int, headerLength: Int)
        /// A `raw_data_block_position` points before the previous block or past the frame's end.
        case rawDataBlockPositionOutOfRange(position: Int, allowed: ClosedRange<Int>)
        /// The data ends before the element (header or frame) is complete.
        case truncated(needed: Int, available: Int)
        /// The CRC computed over the protected bits differs from the `crc_check` the stream carries.
        case crcMismatch(stored: UInt16, computed: UInt16)
        /// A value given to a builder lies outside what the field can hold.
        case outOfRange(value: Int, allowed: ClosedRange<Int>)
        /// A value given to a builder cannot be coded in ADTS; the text says why.
        case notRepresentable(String)
    }

    /// The byte offset where the element starts, counted from the start of the data given to the
    /// parser (or, for ``ADTSFrameScanner``, from the start of the stream).
    public var byteOffset: Int
    /// The syntax element as ISO/IEC 13818-7 spells it, for example `aac_frame_length`.
    public var field: String
    /// What is wrong.
    public var reason: Reason
    /// The index of the frame in the stream, when a scanner knows it.
    public var frameIndex: Int?

    /// Creates an ADTS error.
    /// - Parameters:
    ///   - byteOffset: where the element starts.
    ///   - field: the syntax element's name.
    ///   - reason: what is wrong.
    ///   - frameIndex: the frame's index in the stream, if known.
    public init(byteOffset: Int, field: String, reason: Reason, frameIndex: Int? = nil) {
        self.byteOffset = byteOffset
        self.field = field
        self.reason = reason
        self.frameIndex = frameIndex
    }

    /// A one-line explanation, for example
    /// `aac_frame_length: 3 is shorter than the 7-byte header (byte 0)`.
    public var description: String {
        var place = "byte \(byteOffset)"
        if let frameIndex { place += ", frame \(frameIndex)" }
        let what: String
        switch reason {
        case let .badSyncword(found):
            what = "expected 0xFFF, found 0x\(String(found, radix: 16, uppercase: true))"
        case let .layerNotZero(found):
            what = "\(found), must be 0"
        case let .reservedSamplingFrequencyIndex(found):
            what = found == SamplingFrequencyIndex.escapeValue
                ? "15 (explicit frequency) is not allowed in ADTS"
                : "\(found) is reserved"
        case let .reservedProfile(found):
            what = "\(found) is reserved in MPEG-2 ADTS"
        case let .frameLengthShorterThanHeader(frameLength, headerLength):
            what = "\(frameLength) is shorter than the \(headerLength)-byte header"
        case let .rawDataBlockPositionOutOfRange(position, allowed):
            what = "\(position) outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case let .truncated(needed, available):
            what = "needs \(needed) bytes, only \(available) available"
        case let .crcMismatch(stored, computed):
            what = "stored 0x\(String(stored, radix: 16, uppercase: true)), computed 0x\(String(computed, radix: 16, uppercase: true))"
        case let .outOfRange(value, allowed):
            what = "\(value) outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case let .notRepresentable(text):
            what = text
        }
        return "\(field): \(what) (\(place))"
    }
}
