/// What is wrong with a YUV4MPEG2 stream and where (byte offsets count from the start of the stream).
public enum Y4MError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream does not start with the signature `YUV4MPEG2`.
    case missingSignature
    /// The stream ends inside the stream header (no `\n`).
    case truncatedHeader(byteOffset: Int)
    /// A header line (stream or `FRAME`) is longer than the reader accepts.
    case headerTooLong(byteOffset: Int, limit: Int)
    /// The stream header lacks a required parameter (`W` or `H`).
    case missingParameter(tag: Character)
    /// A header parameter has a value the format does not allow; `reason` says why.
    case invalidParameter(tag: Character, value: String, byteOffset: Int, reason: String)
    /// The `C` parameter names a layout other than 8-bit 4:2:0 (for example `422`, `444`, `mono`).
    case unsupportedColorSpace(String, byteOffset: Int)
    /// Frame `frameIndex` does not start with a `FRAME` header.
    case invalidFrameHeader(frameIndex: Int, byteOffset: Int)
    /// The stream ends inside the `FRAME` header of frame `frameIndex`.
    case truncatedFrameHeader(frameIndex: Int, byteOffset: Int)
    /// The stream ends inside the samples of frame `frameIndex`, whose header starts at `byteOffset`.
    case truncatedFrame(frameIndex: Int, byteOffset: Int, expectedBytes: Int, availableBytes: Int)
    /// Reading failed.
    case io(ContainerIOError)

    /// A one-line explanation naming the place.
    public var description: String {
        switch self {
        case .missingSignature:
            return "Y4M: the stream does not start with YUV4MPEG2 (byte 0)"
        case let .truncatedHeader(offset):
            return "Y4M: the stream ends inside the stream header (byte \(offset))"
        case let .headerTooLong(offset, limit):
            return "Y4M: header line at byte \(offset) is longer than \(limit) bytes"
        case let .missingParameter(tag):
            return "Y4M: the stream header has no \(tag) parameter"
        case let .invalidParameter(tag, value, offset, reason):
            return "Y4M: parameter \(tag)\(value) at byte \(offset): \(reason)"
        case let .unsupportedColorSpace(name, offset):
            return "Y4M: colour space C\(name) at byte \(offset) is not supported (only 8-bit 4:2:0: 420jpeg, 420paldv, 420mpeg2, 420)"
        case let .invalidFrameHeader(index, offset):
            return "Y4M: frame \(index) at byte \(offset) does not start with FRAME"
        case let .truncatedFrameHeader(index, offset):
            return "Y4M: the stream ends inside the FRAME header of frame \(index) (byte \(offset))"
        case let .truncatedFrame(index, offset, expected, available):
            return "Y4M: frame \(index) at byte \(offset) is truncated: \(available) of \(expected) sample bytes"
        case let .io(error):
            return "Y4M: \(error)"
        }
    }
}
