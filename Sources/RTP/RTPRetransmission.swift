/// RTP retransmission in a stream of its own (RFC 4588 §4, session multiplexing by SSRC as WebRTC does it): the
/// repaired packet's header fields under the rtx payload type, SSRC and sequence number, and a payload that starts
/// with the original sequence number (OSN) followed by the original payload.
public enum RTPRetransmission {
    /// The retransmission packet of `original` (RFC 4588 §4): the same version, padding-free, extension, CSRCs,
    /// marker and timestamp, with `payloadType`, `ssrc` and `sequenceNumber` replaced, and the original sequence
    /// number inserted before the payload.
    /// - Parameters:
    ///   - original: the packet as first sent (unprotected).
    ///   - payloadType: the rtx payload type (`a=rtpmap:… rtx/90000`, `apt=` the original's).
    ///   - ssrc: the rtx stream's SSRC (`a=ssrc-group:FID media rtx`).
    ///   - sequenceNumber: the rtx stream's next sequence number.
    /// - Returns: the packet, or `nil` when `original` is not a well-formed RTP packet.
    public static func packet(repairing original: [UInt8], payloadType: UInt8, ssrc: UInt32, sequenceNumber: UInt16) -> [UInt8]? {
        guard let headerLength = headerLength(of: original) else { return nil }
        var end = original.count
        if original[0] & 0x20 != 0 {  // padding: dropped, the payload's own length is what is repaired
            let padding = Int(original[end - 1])
            guard padding > 0, padding <= end - headerLength else { return nil }
            end -= padding
        }
        var packet = [UInt8]()
        packet.reserveCapacity(end + 2)
        packet.append(contentsOf: original[0..<headerLength])
        packet[0] &= ~0x20
        packet[1] = (original[1] & 0x80) | (payloadType & 0x7F)
        packet[2] = UInt8(truncatingIfNeeded: sequenceNumber >> 8)
        packet[3] = UInt8(truncatingIfNeeded: sequenceNumber)
        packet[8] = UInt8(truncatingIfNeeded: ssrc >> 24)
        packet[9] = UInt8(truncatingIfNeeded: ssrc >> 16)
        packet[10] = UInt8(truncatingIfNeeded: ssrc >> 8)
        packet[11] = UInt8(truncatingIfNeeded: ssrc)
        packet.append(original[2])
        packet.append(original[3])
        packet.append(contentsOf: original[headerLength..<end])
        return packet
    }

    /// The length of an RTP header with its CSRCs and extension (RFC 3550 §5.1, §5.3.1), or `nil` when the packet is
    /// shorter than that or not version 2.
    /// - Parameter packet: the packet.
    /// - Returns: the header's length.
    public static func headerLength(of packet: [UInt8]) -> Int? {
        guard packet.count >= 12, packet[0] >> 6 == 2 else { return nil }
        var length = 12 + 4 * Int(packet[0] & 0x0F)
        if packet[0] & 0x10 != 0 {
            guard packet.count >= length + 4 else { return nil }
            length += 4 + 4 * (Int(packet[length + 2]) << 8 | Int(packet[length + 3]))
        }
        return length <= packet.count ? length : nil
    }
}
