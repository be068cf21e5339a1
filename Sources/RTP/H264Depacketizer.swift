/// Rebuilds H.264 access units from RTP packets (RFC 6184, packetization-modes 0 and 1): single NAL unit
/// packets, STAP-A (§5.7.1) split into its NAL units, FU-A (§5.8) rebuilt only when its S fragment, its E
/// fragment and every sequence number between arrived (a fragment without its start is dropped, never given a
/// forged NAL header; S and E in one fragment is taken as a whole NAL unit). STAP-B, MTAP16, MTAP24 and FU-B
/// (interleaved mode 2) are rejected with ``RTPPayloadError/unsupportedPacketType(sequenceNumber:type:name:)``.
///
/// An access unit ends at the marker bit or when the timestamp changes. Every frame is accounted for: handed
/// on as ``RTPFrameEvent/frame(_:)``, or reported ``RTPFrameEvent/lost(_:)`` (packets missing, malformed,
/// over a cap) or ``RTPFrameEvent/withheld(_:)`` — after a loss, and at the start, frames are withheld until
/// the next IDR or recovery point SEI, so no damaged picture is handed on as good.
///
/// Packets must arrive in order (put an ``RTPJitterBuffer`` in front on a network that reorders); a
/// duplicate or late packet is dropped with a named outcome.
///
/// ```swift
/// var depacketizer = H264Depacketizer()
/// _ = try depacketizer.depacketize(RTPPacket(parsing: datagram)) { event in
///     if case .frame(let accessUnit) = event { file.write(accessUnit.annexB) }
/// }
/// ```
public struct H264Depacketizer: Sendable {
    private var core: NALUnitDepacketizer

    /// A depacketizer.
    /// - Parameters:
    ///   - maximumAccessUnitSize: the largest access unit in bytes; a larger one is reported lost.
    ///   - maximumNALUnitCount: the most NAL units in one access unit; more and it is reported lost.
    ///   - withholdsUntilKeyFrame: whether frames after a loss (and before the first key frame) are withheld.
    public init(maximumAccessUnitSize: Int = 8 << 20, maximumNALUnitCount: Int = 1024,
                withholdsUntilKeyFrame: Bool = true) {
        core = NALUnitDepacketizer(format: .h264, maximumAccessUnitSize: maximumAccessUnitSize,
                                   maximumNALUnitCount: maximumNALUnitCount, withholdsUntilKeyFrame: withholdsUntilKeyFrame)
    }

    /// Takes the next packet (RFC 6184 §5.2–§5.8).
    /// - Parameters:
    ///   - packet: the packet, in sequence order.
    ///   - emit: receives every frame this packet completed or lost (none, one, or two when a timestamp change
    ///     ends the previous access unit).
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
