import Bitstream
import MediaCore
import Opus

/// Takes Opus packets out of RTP packets, RFC 7587 §4.2: each RTP payload is one whole Opus packet, handed on as a
/// view of the datagram (no copy), with the RTP timestamp (48 kHz clock, §4.1). Its table-of-contents byte is
/// checked (RFC 6716 §3.1–3.2: a code 3 packet carries its frame count, at most 120 ms), so a payload that is not
/// Opus is reported, not passed to a decoder. Duplicates and late packets are dropped and said so; a gap loses
/// nothing more than the missing packets (every packet is a whole frame), which the caller sees in the sequence
/// numbers.
///
/// ```swift
/// var depacketizer = OpusDepacketizer()
/// _ = try depacketizer.depacketize(packet) { if case .frame(let frame) = $0 { decoder.decode(frame.data) } }
/// ```
public struct OpusDepacketizer: Sendable {
    private var lastSequenceNumber: UInt16?

    /// A depacketizer.
    public init() {}

    /// Takes the next packet.
    /// - Parameters:
    ///   - packet: the packet, in sequence order.
    ///   - emit: receives the Opus packet it carried.
    /// - Returns: ``RTPPacketOutcome/completedFrame``, or ``RTPPacketOutcome/duplicate`` / ``RTPPacketOutcome/late``.
    /// - Throws: ``RTPPayloadError/truncatedPayload(sequenceNumber:size:)`` for an empty payload,
    ///   ``RTPPayloadError/malformedOpusPacket(sequenceNumber:reason:)`` for a TOC byte that does not make a packet.
    public mutating func depacketize(
        _ packet: RTPPacket, _ emit: (RTPFrameEvent<RTPAudioFrame>) -> Void
    ) throws(RTPPayloadError) -> RTPPacketOutcome {
        let sequence = packet.sequenceNumber
        if let last = lastSequenceNumber {
            let distance = RTPSequenceNumber.distance(from: last, to: sequence)
            if distance == 0 { return .duplicate }
            if distance < 0, distance >= -100 { return .late }
        }
        lastSequenceNumber = sequence
        let payload = packet.payload
        guard !payload.isEmpty else { throw .truncatedPayload(sequenceNumber: sequence, size: 0) }
        do { _ = try OpusPacket(payload.prefix(2)) } catch {
            throw .malformedOpusPacket(sequenceNumber: sequence, reason: "\(error)")
        }
        emit(.frame(RTPAudioFrame(timestamp: packet.timestamp, data: payload, sequenceNumber: sequence)))
        return .completedFrame
    }
}
