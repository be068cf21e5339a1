import Bitstream

/// A binary frame interleaved in the RTSP TCP stream (RFC 2326 §10.12): `$`, a channel byte, a 16-bit length, and
/// that many bytes — an RTP or RTCP packet on the channel the `Transport: …;interleaved=` header gave.
public struct RTSPInterleavedFrame: Sendable {
    /// The channel (usually even for RTP, odd for RTCP).
    public var channel: UInt8
    /// The packet: a view into the bytes the stream arrived in.
    public var payload: ByteView

    /// A frame.
    /// - Parameters:
    ///   - channel: the channel.
    ///   - payload: the packet.
    public init(channel: UInt8, payload: ByteView) {
        self.channel = channel
        self.payload = payload
    }

    /// The largest payload a frame carries (its length is 16 bits).
    public static let maximumPayloadLength = 65_535

    /// The 4-byte header `$ channel length` (RFC 2326 §10.12) for a payload of `length` bytes.
    /// - Parameters:
    ///   - channel: the channel.
    ///   - length: the payload length, at most ``maximumPayloadLength``.
    /// - Returns: the header, or `nil` when `length` is over ``maximumPayloadLength``.
    public static func header(channel: UInt8, length: Int) -> [UInt8]? {
        guard (0...maximumPayloadLength).contains(length) else { return nil }
        return [0x24, channel, UInt8(length >> 8), UInt8(length & 0xFF)]
    }

    /// A whole frame (header and payload) as bytes.
    /// - Parameters:
    ///   - channel: the channel.
    ///   - payload: the packet, at most ``maximumPayloadLength`` bytes.
    /// - Returns: the frame, or `nil` when the payload is too long.
    public static func serialized(channel: UInt8, payload: [UInt8]) -> [UInt8]? {
        header(channel: channel, length: payload.count).map { $0 + payload }
    }
}
