import MediaCore

/// What is wrong with a raw video stream (`.yuv`, `.i420`, `.nv12` …) and where.
public enum RawVideoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The given size is not positive, too large, or its frame does not fit in memory.
    case invalidSize(width: Int, height: Int)
    /// The stream ends inside frame `frameIndex`, which starts at `byteOffset`.
    case truncatedFrame(frameIndex: Int, byteOffset: Int, expectedBytes: Int, availableBytes: Int)
    /// Reading failed.
    case io(ContainerIOError)

    /// A one-line explanation naming the place.
    public var description: String {
        switch self {
        case let .invalidSize(width, height):
            return "raw video: invalid size \(width)x\(height)"
        case let .truncatedFrame(index, offset, expected, available):
            return "raw video: frame \(index) at byte \(offset) is truncated: \(available) of \(expected) bytes"
        case let .io(error):
            return "raw video: \(error)"
        }
    }
}
