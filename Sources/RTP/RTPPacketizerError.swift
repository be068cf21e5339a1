/// Why a packetizer cannot be made or cannot send an input.
public enum RTPPacketizerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The maximum packet size leaves no room for a payload (header plus the smallest fragment).
    case packetSizeTooSmall(maximumPacketSize: Int, minimum: Int)
    /// The access unit's length-prefixed (AVCC) data is malformed.
    case malformedAccessUnit(byteOffset: Int, reason: String)
    /// An AAC access unit is larger than the 13-bit AU-size field can say (8191 bytes).
    case accessUnitTooLarge(size: Int, maximum: Int)
    /// A video frame was given to an audio ``RTPMediaStream``, or an audio frame to a video one.
    case streamKindMismatch

    /// What is wrong.
    public var description: String {
        switch self {
        case let .packetSizeTooSmall(size, minimum):
            return "RTP packetizer: maximum packet size \(size) is below the minimum of \(minimum) bytes"
        case let .malformedAccessUnit(offset, reason):
            return "RTP packetizer: malformed access unit at byte \(offset): \(reason)"
        case let .accessUnitTooLarge(size, maximum):
            return "RTP packetizer: access unit of \(size) bytes is larger than \(maximum)"
        case .streamKindMismatch:
            return "RTP packetizer: a video frame for an audio stream, or an audio frame for a video stream"
        }
    }
}
