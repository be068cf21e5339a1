/// The part of an RTP and RTCP packet the SRTP transform reads: where the RTP header ends (RFC 3550 §5.1, §5.3.1),
/// the sequence number and the SSRC.
enum RTPHeaderSize {
    /// The length of an RTP packet's header with its CSRC list and header extension, the part SRTP leaves clear
    /// (RFC 3711 §3.1: the encrypted portion is the payload).
    /// - Parameters:
    ///   - packet: the packet's bytes.
    ///   - length: how many of them are the packet (without any SRTP trailer).
    /// - Returns: the header's length.
    /// - Throws: ``SRTPError/tooShort(what:length:minimum:)``, ``SRTPError/malformedHeader(field:byteOffset:)``.
    @inline(__always)
    static func rtp(_ packet: UnsafeRawPointer, length: Int) throws(SRTPError) -> Int {
        guard length >= 12 else { throw .tooShort(what: "RTP header", length: length, minimum: 12) }
        let first = packet.load(as: UInt8.self)
        guard first >> 6 == 2 else { throw .malformedHeader(field: "RTP version", byteOffset: 0) }
        var size = 12 + 4 * Int(first & 0x0F)
        guard size <= length else { throw .tooShort(what: "RTP CSRC list", length: length, minimum: size) }
        if first & 0x10 != 0 {
            guard size + 4 <= length else {
                throw .tooShort(what: "RTP header extension", length: length, minimum: size + 4)
            }
            let words = Int(packet.load(fromByteOffset: size + 2, as: UInt8.self)) << 8
                | Int(packet.load(fromByteOffset: size + 3, as: UInt8.self))
            size += 4 + 4 * words
            guard size <= length else {
                throw .tooShort(what: "RTP header extension", length: length, minimum: size)
            }
        }
        return size
    }

    /// A big-endian 16-bit field.
    @inline(__always)
    static func uint16(_ packet: UnsafeRawPointer, at offset: Int) -> UInt16 {
        UInt16(packet.load(fromByteOffset: offset, as: UInt8.self)) << 8
            | UInt16(packet.load(fromByteOffset: offset + 1, as: UInt8.self))
    }

    /// A big-endian 32-bit field.
    @inline(__always)
    static func uint32(_ packet: UnsafeRawPointer, at offset: Int) -> UInt32 {
        UInt32(uint16(packet, at: offset)) << 16 | UInt32(uint16(packet, at: offset + 2))
    }

    /// Writes a big-endian 32-bit field.
    @inline(__always)
    static func store(_ value: UInt32, _ packet: UnsafeMutableRawPointer, at offset: Int) {
        packet.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
    }
}
