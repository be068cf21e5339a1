/// Rebuilds H.265 access units from RTP packets (RFC 7798 without DONL): single NAL unit packets (§4.4.1),
/// aggregation packets (AP, §4.4.2) split, fragmentation units (FU, §4.4.3) rebuilt only when the S fragment,
/// the E fragment and every sequence number between arrived. PACI (50) and reserved types are rejected with
/// ``RTPPayloadError/unsupportedPacketType(sequenceNumber:type:name:)``; a stream with sprop-max-don-diff
/// above 0 (DONL fields) is refused when the depacketizer is made.
///
/// Access units end at the marker bit or a timestamp change; every frame is handed on, reported lost or
/// withheld until the next IRAP picture or recovery point SEI after a loss, as ``H264Depacketizer`` does.
public struct H265Depacketizer: Sendable {
    private var core: NALUnitDepacketizer

    /// A depacketizer.
    /// - Parameters:
    ///   - maximumDONDifference: the SDP's sprop-max-don-diff (0 when absent).
    ///   - maximumAccessUnitSize: the largest access unit in bytes; a larger one is reported lost.
    ///   - maximumNALUnitCount: the most NAL units in one access unit.
    ///   - withholdsUntilKeyFrame: whether frames after a loss (and before the first key frame) are withheld.
    /// - Throws: ``RTPPayloadError/decodingOrderNumbersUnsupported(maximumDONDifference:)`` when
    ///   `maximumDONDifference` is above 0 (RFC 7798 §7.1: every packet then carries a DONL field).
    public init(maximumDONDifference: Int = 0, maximumAccessUnitSize: Int = 8 << 20,
                maximumNALUnitCount: Int = 1024, withholdsUntilKeyFrame: Bool = true) throws(RTPPayloadError) {
        guard maximumDONDifference <= 0 else {
            throw .decodingOrderNumbersUnsupported(maximumDONDifference: maximumDONDifference)
        }
        core = NALUnitDepacketizer(format: .h265, maximumAccessUnitSize: maximumAccessUnitSize,
                                   maximumNALUnitCount: maximumNALUnitCount, withholdsUntilKeyFrame: withholdsUntilKeyFrame)
    }

    /// Takes the next packet (RFC 7798 §4.4).
    /// - Parameters:
    ///   - packet: the packet, in sequence order.
    ///   - emit: receives every frame this packet completed or lost.
    /// - Returns: what became of the packet.
    /// - Throws: ``RTPPayloadError`` for a malformed or unsupported payload; its access unit is reported lost.
    public mutating func depacketize(
        _ packet: RTPPacket, _ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void
    ) throws(RTPPayloadError) -> RTPPacketOutcome {
        try core.depacketize(packet, emit)
    }

    /// Ends the stream: the access unit in progress is handed on or reported.
    /// - Parameter emit: receives it.
    public mutating func flush(_ emit: (RTPFrameEvent<RTPAccessUnit>) -> Void) {
        core.flush(emit)
    }
}
