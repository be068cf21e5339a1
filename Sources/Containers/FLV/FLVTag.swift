import Bitstream

/// One FLV tag (FLV specification v10.1, E.4.1): type, timestamp, stream id, and the body as a view into
/// the bytes it was read from.
public struct FLVTag: Sendable, Hashable {
    /// The size of a tag header: `TagType` UI8, `DataSize` UI24, `Timestamp` UI24, `TimestampExtended` UI8,
    /// `StreamID` UI24.
    public static let headerByteCount = 11
    /// The largest body `DataSize` (UI24) can give.
    public static let maximumBodyByteCount = 0xFF_FFFF

    /// What the body is.
    public var type: FLVTagType
    /// The decode time in milliseconds (`Timestamp` with `TimestampExtended` as its upper 8 bits).
    public var timestamp: UInt32
    /// `StreamID` (always 0 in files).
    public var streamID: UInt32
    /// The body (a view, no copy).
    public var body: ByteView

    /// Creates a tag.
    /// - Parameters:
    ///   - type: the tag type.
    ///   - timestamp: the decode time in milliseconds.
    ///   - streamID: the stream id, 0 in files.
    ///   - body: the body.
    public init(type: FLVTagType, timestamp: UInt32, streamID: UInt32 = 0, body: ByteView) {
        self.type = type
        self.timestamp = timestamp
        self.streamID = streamID
        self.body = body
    }

    /// The fields of an 11-byte tag header.
    public struct Header: Sendable, Hashable {
        /// The `Filter` bit: the body is encrypted.
        public var isEncrypted: Bool
        /// `TagType`.
        public var type: FLVTagType
        /// `DataSize`: the body's length.
        public var dataSize: Int
        /// `Timestamp` and `TimestampExtended`.
        public var timestamp: UInt32
        /// `StreamID`.
        public var streamID: UInt32

        /// Parses a tag header (E.4.1).
        /// - Parameter bytes: at least 11 bytes.
        /// - Throws: ``FLVError/Reason/truncated(field:)`` for fewer than 11 bytes.
        public init(parsing bytes: ByteView) throws(FLVError) {
            guard bytes.count >= FLVTag.headerByteCount, let first = bytes.getByte(at: 0),
                  let size = bytes.getUnsignedBigEndian(at: 1, byteCount: 3), let low = bytes.getUnsignedBigEndian(at: 4, byteCount: 3),
                  let high = bytes.getByte(at: 7), let stream = bytes.getUnsignedBigEndian(at: 8, byteCount: 3) else {
                throw FLVError(.truncated(field: "tag header"), offset: 0)
            }
            isEncrypted = first & 0x20 != 0
            type = FLVTagType(rawValue: first & 0x1F)
            dataSize = Int(size)
            timestamp = UInt32(high) << 24 | UInt32(low)
            streamID = UInt32(stream)
        }
    }

    /// The tag's size in a file: header and body (the `PreviousTagSize` that follows it).
    public var byteCount: Int { Self.headerByteCount + body.count }

    /// Appends the 11-byte header (E.4.1) for a body of `bodyByteCount` bytes.
    /// - Parameters:
    ///   - type: the tag type.
    ///   - timestamp: the decode time in milliseconds.
    ///   - bodyByteCount: the body's length.
    ///   - buffer: where the header goes.
    /// - Throws: ``FLVError/Reason/unrepresentable(_:)`` for a body past 16 MiB − 1.
    public static func appendHeader(type: FLVTagType, timestamp: UInt32, bodyByteCount: Int, to buffer: inout [UInt8]) throws(FLVError) {
        guard bodyByteCount <= maximumBodyByteCount else {
            throw FLVError(.unrepresentable("a tag body of \(bodyByteCount) bytes does not fit DataSize (UI24)"), offset: 0)
        }
        buffer.append(type.rawValue & 0x1F)
        buffer.append(UInt8(truncatingIfNeeded: bodyByteCount >> 16))
        buffer.append(UInt8(truncatingIfNeeded: bodyByteCount >> 8))
        buffer.append(UInt8(truncatingIfNeeded: bodyByteCount))
        buffer.append(UInt8(truncatingIfNeeded: timestamp >> 16))
        buffer.append(UInt8(truncatingIfNeeded: timestamp >> 8))
        buffer.append(UInt8(truncatingIfNeeded: timestamp))
        buffer.append(UInt8(truncatingIfNeeded: timestamp >> 24))
        buffer.append(contentsOf: [0, 0, 0])
    }

    /// The body as a video tag body.
    /// - Returns: the parsed body.
    /// - Throws: what ``FLVVideoTagBody/init(parsing:)`` throws.
    public func videoBody() throws(FLVError) -> FLVVideoTagBody { try FLVVideoTagBody(parsing: body) }

    /// The body as an audio tag body.
    /// - Returns: the parsed body.
    /// - Throws: what ``FLVAudioTagBody/init(parsing:)`` throws.
    public func audioBody() throws(FLVError) -> FLVAudioTagBody { try FLVAudioTagBody(parsing: body) }

    /// The body as script data.
    /// - Parameter limits: the AMF0 caps.
    /// - Returns: the parsed script data.
    /// - Throws: what ``FLVScriptData/init(parsing:limits:)`` throws.
    public func scriptData(limits: AMF0Limits = .default) throws(FLVError) -> FLVScriptData {
        try FLVScriptData(parsing: body, limits: limits)
    }
}
