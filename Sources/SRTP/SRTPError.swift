/// Why an SRTP or SRTCP packet could not be protected or unprotected, or a context could not be made.
/// Each case names the stream (SSRC) and the packet (index or sequence number) where it has one.
public enum SRTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The build has no OpenSSL (the `OpenSSL` trait is off), so there are no ciphers.
    case unavailable
    /// A key or salt has the wrong length for the profile.
    case keyLength(field: String, expected: Int, actual: Int)
    /// The packet is shorter than the part the transform needs (`what`: "RTP header", "SRTP tag", …).
    case tooShort(what: String, length: Int, minimum: Int)
    /// A header field is not what RTP/RTCP allows (version not 2, a length past the end).
    case malformedHeader(field: String, byteOffset: Int)
    /// The caller's buffer has no room for the tag and trailer the protected packet needs.
    case bufferTooSmall(needed: Int, available: Int)
    /// The authentication tag does not match: the packet was altered, or the keys differ (RFC 3711 §3.3 step 5).
    case authenticationFailed(ssrc: UInt32, index: UInt64)
    /// The packet's index has already been received (RFC 3711 §3.3.2).
    case replayed(ssrc: UInt32, index: UInt64)
    /// The packet's index is older than the replay window reaches (RFC 3711 §3.3.2): it cannot be told from a replay.
    case outsideReplayWindow(ssrc: UInt32, index: UInt64, highest: UInt64)
    /// The 48-bit packet index or the 31-bit SRTCP index of a stream is used up (RFC 3711 §9.2): rekey.
    case indexExhausted(ssrc: UInt32)
    /// More SSRCs than a context tracks (a bound against hostile peers).
    case tooManyStreams(limit: Int)
    /// OpenSSL failed in a cipher call (`operation` names it).
    case cipherFailed(operation: String)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .unavailable: "SRTP: built without OpenSSL (enable the OpenSSL trait)"
        case let .keyLength(field, expected, actual): "SRTP: \(field) is \(actual) bytes, the profile needs \(expected)"
        case let .tooShort(what, length, minimum): "SRTP: packet of \(length) bytes is too short for the \(what) (needs \(minimum))"
        case let .malformedHeader(field, offset): "SRTP: \(field) is malformed (byte \(offset))"
        case let .bufferTooSmall(needed, available): "SRTP: buffer of \(available) bytes, \(needed) needed"
        case let .authenticationFailed(ssrc, index): "SRTP: authentication failed (SSRC \(ssrc), index \(index))"
        case let .replayed(ssrc, index): "SRTP: replayed packet (SSRC \(ssrc), index \(index))"
        case let .outsideReplayWindow(ssrc, index, highest):
            "SRTP: packet index \(index) is older than the replay window (SSRC \(ssrc), highest \(highest))"
        case let .indexExhausted(ssrc): "SRTP: packet index exhausted for SSRC \(ssrc); rekey"
        case let .tooManyStreams(limit): "SRTP: more than \(limit) SSRCs in one context"
        case let .cipherFailed(operation): "SRTP: OpenSSL failed in \(operation)"
        }
    }
}
