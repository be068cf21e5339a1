import Bitstream
import MediaCore

/// Turns H.265 access units into RTP packets, RFC 7798 without DONL (sprop-max-don-diff 0): single NAL unit
/// packets (§4.4.1), aggregation packets (AP, type 48, §4.4.2) for runs of small NAL units of one access unit,
/// fragmentation units (FU, type 49, §4.4.3) with S/E bits for NAL units larger than the packet. The marker bit
/// is set on the last packet of each access unit (§4.1), timestamps run at 90 kHz, and SSRC, first sequence
/// number and timestamp offset are random (RFC 3550 §5.1) unless a ``RTPSenderState`` is given. VPS, SPS and
/// PPS go in-band before every IRAP picture that does not carry them.
///
/// Packets are written into one buffer reused for the whole access unit and handed to `body` as a view that
/// is valid during the call: no allocation per packet.
///
/// ```swift
/// var packetizer = try H265Packetizer(parameterSets: frame.format.parameterSets)
/// try packetizer.packetize(frame) { packet in socket.send(packet) }
/// ```
public struct H265Packetizer: Sendable {
    private var core: NALUnitPacketizer

    /// A packetizer.
    /// - Parameters:
    ///   - parameterSets: the VPS, SPS and PPS (no start codes) to send before IRAP pictures; may be empty when the stream
    ///     carries them in-band.
    ///   - maximumPacketSize: the largest RTP packet (header included); 1200 leaves room in any path MTU.
    ///   - state: payload type, SSRC, first sequence number and timestamp offset; random by default.
    /// - Throws: ``RTPPacketizerError/packetSizeTooSmall(maximumPacketSize:minimum:)``.
    public init(parameterSets: [[UInt8]] = [], maximumPacketSize: Int = 1200,
                state: RTPSenderState = RTPSenderState(payloadType: 96)) throws(RTPPacketizerError) {
        core = try NALUnitPacketizer(format: .h265, state: state, maximumPacketSize: maximumPacketSize,
                                     parameterSets: parameterSets.map { ByteView($0) })
    }

    /// The sender state: SSRC, the next sequence number, the timestamp offset (for RTCP and SDP).
    public var state: RTPSenderState { core.state }

    /// Packetizes one access unit.
    /// - Parameters:
    ///   - nalUnits: the NAL units of the access unit, without start codes or length prefixes.
    ///   - timestamp: the presentation time in 90 kHz units; the packetizer adds its timestamp offset.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: what `body` throws.
    public mutating func packetize<Failure: Error>(
        nalUnits: [ByteView], timestamp: UInt32, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        try core.packetize(nalUnits, timestamp: timestamp, body)
    }

    /// Packetizes an encoded frame (its AVCC data), at its presentation time converted to 90 kHz. A key frame whose
    /// format has other parameter sets than those held (the stream's parameters changed) makes them the ones sent
    /// in-band from now on.
    /// - Parameters:
    ///   - frame: the frame, as a compression session hands it out.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/malformedAccessUnit(byteOffset:reason:)`` for bad length prefixes, or
    ///   what `body` throws.
    public mutating func packetize(
        _ frame: EncodedFrame, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        if frame.isKeyFrame { core.adopt(frame.format.parameterSets) }
        let units = try RTPFrameInput.nalUnits(of: frame)
        try core.packetize(units, timestamp: RTPFrameInput.timestamp90kHz(frame.pts), body)
    }

    /// Packetizes one access unit given as an Annex B byte stream (start codes before each NAL unit).
    /// - Parameters:
    ///   - annexB: the access unit's bytes; the NAL units are sent as views of them.
    ///   - timestamp: the presentation time in 90 kHz units; the packetizer adds its timestamp offset.
    ///   - body: receives each RTP packet; the bytes are valid only during the call.
    /// - Throws: what `body` throws.
    public mutating func packetize<Failure: Error>(
        annexB: ByteView, timestamp: UInt32, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        try core.packetize(AnnexB.nalUnits(in: annexB), timestamp: timestamp, body)
    }

    /// Packetizes one access unit into fresh arrays (one per packet; for tests and simple senders).
    /// - Parameters:
    ///   - nalUnits: the NAL units of the access unit.
    ///   - timestamp: the presentation time in 90 kHz units.
    /// - Returns: the packets in order.
    public mutating func packets(nalUnits: [ByteView], timestamp: UInt32) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        core.packetize(nalUnits, timestamp: timestamp) { packets.append(Array($0)) }
        return packets
    }
}
