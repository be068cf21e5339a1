import Bitstream

/// One AAC access unit out of RTP: a raw AAC frame (no ADTS header) and its sample time.
public struct RTPAudioFrame: Sendable, Hashable {
    /// The RTP timestamp of the access unit (its sample time, with the sender's offset).
    public var timestamp: UInt32
    /// The raw AAC frame: a view into the packet, or into the buffer a fragmented unit was rebuilt in.
    public var data: ByteView
    /// The sequence number of the packet that completed it.
    public var sequenceNumber: UInt16

    /// A frame.
    /// - Parameters:
    ///   - timestamp: the RTP timestamp.
    ///   - data: the raw AAC frame.
    ///   - sequenceNumber: the packet that completed it.
    public init(timestamp: UInt32, data: ByteView, sequenceNumber: UInt16) {
        self.timestamp = timestamp
        self.data = data
        self.sequenceNumber = sequenceNumber
    }
}

/// Rebuilds AAC access units from RFC 3640 mpeg4-generic packets with AU headers (AAC-hbr by default: sizelength
/// 13, indexlength 3, indexdeltalength 3): the AU-headers section is read (§3.2.1), several access units per
/// packet are split (views, no copy), and a fragmented access unit (§3.2.3.1: one AU header whose size exceeds
/// the packet's data) is rebuilt only from consecutive packets of one timestamp until its declared size. A
/// fragment after a gap, or one whose start was lost, is dropped and reported.
///
/// ```swift
/// var depacketizer = AACDepacketizer()
/// _ = try depacketizer.depacketize(packet) { if case .frame(let frame) = $0 { adts.write(frame.data) } }
/// ```
public struct AACDepacketizer: Sendable {
    /// Bits of the AU-size field.
    public let sizeLength: Int
    /// Bits of the AU-Index field (first AU header).
    public let indexLength: Int
    /// Bits of the AU-Index-delta field (later AU headers).
    public let indexDeltaLength: Int
    /// Samples per access unit: the timestamp step between units of one packet.
    public let samplesPerFrame: Int
    /// The most access units taken from one packet.
    public let maximumAccessUnitsPerPacket: Int

    private var lastSequenceNumber: UInt16?
    private var fragment: [UInt8] = []
    private var fragmentSize = 0
    private var fragmentTimestamp: UInt32 = 0
    private var fragmentFirst: UInt16 = 0
    private var fragmentActive = false
    private var previousEndedUnit = true

    /// A depacketizer.
    /// - Parameters:
    ///   - sizeLength: the SDP's sizelength (13 for AAC-hbr).
    ///   - indexLength: the SDP's indexlength (3).
    ///   - indexDeltaLength: the SDP's indexdeltalength (3).
    ///   - samplesPerFrame: samples per access unit (1024 for AAC-LC).
    ///   - maximumAccessUnitsPerPacket: the most units taken from one packet (hard cap).
    /// - Throws: ``RTPPayloadError/malformedAUHeaders(sequenceNumber:reason:)`` when the lengths are out of range.
    public init(sizeLength: Int = 13, indexLength: Int = 3, indexDeltaLength: Int = 3, samplesPerFrame: Int = 1024,
                maximumAccessUnitsPerPacket: Int = 256) throws(RTPPayloadError) {
        guard (1...32).contains(sizeLength), (0...32).contains(indexLength), (0...32).contains(indexDeltaLength) else {
            throw .malformedAUHeaders(sequenceNumber: 0, reason: "sizelength \(sizeLength), indexlength "
                                      + "\(indexLength), indexdeltalength \(indexDeltaLength) out of range")
        }
        self.sizeLength = sizeLength
        self.indexLength = indexLength
        self.indexDeltaLength = indexDeltaLength
        self.samplesPerFrame = samplesPerFrame
        self.maximumAccessUnitsPerPacket = maximumAccessUnitsPerPacket
    }

    /// Takes the next packet (RFC 3640 §3.2–§3.3).
    /// - Parameters:
    ///   - packet: the packet, in sequence order.
    ///   - emit: receives every access unit this packet completed, or the report of a lost fragmented one.
    /// - Returns: what became of the packet.
    /// - Throws: ``RTPPayloadError`` for a malformed AU-header section.
    public mutating func depacketize(
        _ packet: RTPPacket, _ emit: (RTPFrameEvent<RTPAudioFrame>) -> Void
    ) throws(RTPPayloadError) -> RTPPacketOutcome {
        let sequence = packet.sequenceNumber
        var gap = false
        if let last = lastSequenceNumber {
            let distance = RTPSequenceNumber.distance(from: last, to: sequence)
            if distance == 0 { return .duplicate }
            if distance < 0, distance >= -100 { return .late }
            gap = distance != 1
        }
        lastSequenceNumber = sequence
        let previousEndedUnit = self.previousEndedUnit
        self.previousEndedUnit = packet.marker
        if fragmentActive, gap || packet.timestamp != fragmentTimestamp {
            fragmentActive = false
            emit(.lost(RTPFrameLoss(timestamp: fragmentTimestamp, firstSequenceNumber: fragmentFirst,
                                    lastSequenceNumber: sequence &- 1,
                                    reason: .packetsMissing(firstSequenceNumber: sequence &- 1, count: 1))))
        }

        let payload = packet.payload
        guard let headersBits = payload.getInteger(at: 0, as: UInt16.self) else {
            throw .truncatedPayload(sequenceNumber: sequence, size: payload.count)
        }
        let headersBytes = (Int(headersBits) + 7) / 8
        guard headersBits > 0, let headers = payload.getView(at: 2, byteCount: headersBytes) else {
            throw .malformedAUHeaders(sequenceNumber: sequence, reason: "AU-headers-length \(headersBits) bits "
                                      + "exceeds the payload of \(payload.count) bytes")
        }
        var reader = BitReader(headers)
        var sizes: [Int] = []
        var bitsLeft = Int(headersBits)
        var first = true
        while bitsLeft > 0 {
            let indexBits = first ? indexLength : indexDeltaLength
            guard bitsLeft >= sizeLength + indexBits,
                  let size = try? reader.u(sizeLength, "AU-size"),
                  indexBits == 0 || (try? reader.u(indexBits, "AU-Index")) != nil
            else { throw .malformedAUHeaders(sequenceNumber: sequence, reason: "AU header cut off") }
            guard sizes.count < maximumAccessUnitsPerPacket else {
                throw .malformedAUHeaders(sequenceNumber: sequence, reason: "more than \(maximumAccessUnitsPerPacket) AUs")
            }
            sizes.append(Int(size))
            bitsLeft -= sizeLength + indexBits
            first = false
        }
        var offset = 2 + headersBytes
        let data = payload.count - offset
        if sizes.count == 1, sizes[0] > data {
            // A fragment of one large access unit (§3.2.3.1).
            let body = payload.getView(in: offset..<payload.count) ?? ByteView()
            if !fragmentActive {
                // A first fragment follows a packet that ended an access unit (marker), or starts the stream.
                if gap || !previousEndedUnit {
                    return .fragmentWithoutStart
                }
                fragment.removeAll(keepingCapacity: true)
                fragmentSize = sizes[0]
                fragmentTimestamp = packet.timestamp
                fragmentFirst = sequence
                fragmentActive = true
            } else if sizes[0] != fragmentSize {
                fragmentActive = false
                emit(.lost(RTPFrameLoss(timestamp: fragmentTimestamp, firstSequenceNumber: fragmentFirst,
                                        lastSequenceNumber: sequence, reason: .fragmentWithoutEnd)))
                return .needMorePackets
            }
            fragment.append(contentsOf: body)
            if fragment.count >= fragmentSize || packet.marker {
                fragmentActive = false
                if fragment.count == fragmentSize {
                    emit(.frame(RTPAudioFrame(timestamp: fragmentTimestamp, data: ByteView(copying: fragment),
                                              sequenceNumber: sequence)))
                    return .completedFrame
                }
                emit(.lost(RTPFrameLoss(timestamp: fragmentTimestamp, firstSequenceNumber: fragmentFirst,
                                        lastSequenceNumber: sequence, reason: .fragmentWithoutEnd)))
            }
            return .needMorePackets
        }
        if fragmentActive {
            fragmentActive = false
            emit(.lost(RTPFrameLoss(timestamp: fragmentTimestamp, firstSequenceNumber: fragmentFirst,
                                    lastSequenceNumber: sequence, reason: .fragmentWithoutEnd)))
        }
        let total = sizes.reduce(0, +)
        guard total <= data else {
            throw .malformedAUHeaders(sequenceNumber: sequence, reason: "AU sizes total \(total) bytes but the "
                                      + "payload holds \(data)")
        }
        for (index, size) in sizes.enumerated() {
            guard let unit = payload.getView(at: offset, byteCount: size) else { break }
            let time = packet.timestamp &+ UInt32(truncatingIfNeeded: index * samplesPerFrame)
            emit(.frame(RTPAudioFrame(timestamp: time, data: unit, sequenceNumber: sequence)))
            offset += size
        }
        return .completedFrame
    }

}
