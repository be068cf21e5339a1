/// Why an ``RTPSessionReceiver`` cannot take a session description.
public enum RTPSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No media section carries H.264, H.265 or AAC (`mpeg4-generic`) with a payload format we depacketize.
    case noSupportedTrack(encodings: [String])
    /// A media section's format cannot be read: the SDP's error, with the section's index.
    case invalidTrack(index: Int, reason: SDPError)
    /// An H.265 track sends decoding order numbers (RFC 7798 §7.1 `sprop-max-don-diff` > 0), which the depacketizer
    /// does not reorder.
    case unsupportedDecodingOrderNumbers(index: Int)

    /// What is wrong, for logs.
    public var description: String {
        switch self {
        case let .noSupportedTrack(encodings):
            return "RTP session: no H.264, H.265 or AAC track (encodings: \(encodings.isEmpty ? "none" : encodings.joined(separator: ", ")))"
        case let .invalidTrack(index, reason):
            return "RTP session: media section \(index): \(reason)"
        case let .unsupportedDecodingOrderNumbers(index):
            return "RTP session: media section \(index): H.265 with decoding order numbers (sprop-max-don-diff) is not supported"
        }
    }
}
