import Bitstream

/// One video access unit rebuilt from RTP packets: its NAL units (views into the packets they arrived in, or
/// into the buffer a fragmented NAL unit was rebuilt in), its RTP timestamp and the packets it came from.
public struct RTPAccessUnit: Sendable, Hashable {
    /// The RTP timestamp of the access unit (90 kHz, with the sender's random offset).
    public var timestamp: UInt32
    /// The NAL units in decoding order, without start codes or length prefixes.
    public var nalUnits: [ByteView]
    /// The sequence number of its first packet.
    public var firstSequenceNumber: UInt16
    /// The sequence number of its last packet.
    public var lastSequenceNumber: UInt16
    /// Whether decoding can start here: an H.264 IDR, an H.265 IRAP picture, or a recovery point SEI.
    public var isRandomAccess: Bool

    /// An access unit.
    /// - Parameters:
    ///   - timestamp: the RTP timestamp.
    ///   - nalUnits: the NAL units.
    ///   - firstSequenceNumber: its first packet.
    ///   - lastSequenceNumber: its last packet.
    ///   - isRandomAccess: whether decoding can start here.
    public init(timestamp: UInt32, nalUnits: [ByteView], firstSequenceNumber: UInt16, lastSequenceNumber: UInt16,
                isRandomAccess: Bool) {
        self.timestamp = timestamp
        self.nalUnits = nalUnits
        self.firstSequenceNumber = firstSequenceNumber
        self.lastSequenceNumber = lastSequenceNumber
        self.isRandomAccess = isRandomAccess
    }

    /// The access unit as an Annex B byte stream (a 4-byte start code before every NAL unit).
    public var annexB: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(nalUnits.reduce(0) { $0 + 4 + $1.count })
        for unit in nalUnits {
            bytes.append(contentsOf: AnnexB.startCode)
            bytes.append(contentsOf: unit)
        }
        return bytes
    }

    /// The access unit as length-prefixed (AVCC) data, as an ``EncodedFrame`` holds it.
    /// - Parameter lengthSize: the size of each prefix, 1, 2 or 4.
    /// - Returns: the bytes.
    /// - Throws: `AVCC.Failure` when a NAL unit does not fit the prefix.
    public func avcc(lengthSize: Int = 4) throws(AVCC.Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(nalUnits.reduce(0) { $0 + lengthSize + $1.count })
        for unit in nalUnits { try AVCC.append(unit, lengthSize: lengthSize, to: &bytes) }
        return bytes
    }
}
