import Bitstream
import MediaCore

/// Turns Opus packets into RTP packets, RFC 7587 §4.2: the payload of each RTP packet is exactly one Opus packet
/// (RFC 6716 §3) — Opus packets are never split over or combined into RTP packets; the timestamp counts samples of
/// the 48 kHz clock (§4.1) whatever the encoder's internal bandwidth, so it advances by the packet's duration;
/// the marker bit stays 0 (§4.1: it is set only on the first packet after a silence, which this sender does not
/// make: it sends every frame, no DTX).
///
/// ```swift
/// var packetizer = try OpusPacketizer()
/// try packetizer.packetize(frame) { packet in socket.send(packet) }
/// ```
public struct OpusPacketizer: Sendable {
    /// The RTP clock of Opus (RFC 7587 §4.1).
    public static let clockRate = 48_000

    /// Sequence number, SSRC, timestamp offset, payload type.
    public private(set) var state: RTPSenderState
    /// The largest RTP packet written (header included); an Opus packet larger than its payload is refused.
    public let maximumPacketSize: Int

    /// A packetizer.
    /// - Parameters:
    ///   - maximumPacketSize: the largest RTP packet (header included).
    ///   - state: payload type (dynamic, 111 as browsers offer it by default), SSRC, first sequence number and
    ///     timestamp offset; random by default.
    /// - Throws: ``RTPPacketizerError/packetSizeTooSmall(maximumPacketSize:minimum:)``.
    public init(maximumPacketSize: Int = 1200, state: RTPSenderState = RTPSenderState(payloadType: 111)) throws(RTPPacketizerError) {
        let minimum = RTPPacket.fixedHeaderSize + 1
        guard maximumPacketSize >= minimum else {
            throw .packetSizeTooSmall(maximumPacketSize: maximumPacketSize, minimum: minimum)
        }
        self.state = state
        self.maximumPacketSize = maximumPacketSize
    }

    /// Packetizes one Opus packet.
    /// - Parameters:
    ///   - packet: the Opus packet (its TOC byte first).
    ///   - timestamp: its first sample's time in the 48 kHz clock; the offset is added.
    ///   - body: receives the RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/accessUnitTooLarge(size:maximum:)`` for a packet larger than one RTP payload,
    ///   or what `body` throws.
    public mutating func packetize(
        _ packet: ByteView, timestamp: UInt32, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        let maximum = maximumPacketSize - RTPPacket.fixedHeaderSize
        guard packet.count <= maximum else { throw .accessUnitTooLarge(size: packet.count, maximum: maximum) }
        let size = RTPPacket.fixedHeaderSize + packet.count
        let payloadType = state.payloadType
        let sequenceNumber = state.takeSequenceNumber()
        let time = timestamp &+ state.timestampOffset
        let ssrc = state.ssrc
        try withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { (buffer) throws(RTPPacketizerError) -> Void in
            guard let base = buffer.baseAddress else { return }
            RTPHeaderWriter.writeFixedHeader(at: base, first: 0x80, marker: false, payloadType: payloadType,
                                             sequenceNumber: sequenceNumber, timestamp: time, ssrc: ssrc)
            packet.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress, bytes.count > 0 {
                    (base + RTPPacket.fixedHeaderSize).copyMemory(from: source, byteCount: bytes.count)
                }
            }
            try body(UnsafeRawBufferPointer(start: base, count: size))
        }
    }

    /// Packetizes one encoded Opus frame at its presentation time, in the 48 kHz clock.
    /// - Parameters:
    ///   - frame: the frame.
    ///   - body: receives the RTP packet; the bytes are valid only during the call.
    /// - Throws: ``RTPPacketizerError/accessUnitTooLarge(size:maximum:)``, or what `body` throws.
    public mutating func packetize(
        _ frame: EncodedAudioFrame, _ body: (UnsafeRawBufferPointer) throws(RTPPacketizerError) -> Void
    ) throws(RTPPacketizerError) {
        let time = UInt32(truncatingIfNeeded: frame.pts.converted(to: Int32(Self.clockRate)).value)
        try packetize(ByteView(frame.data), timestamp: time, body)
    }
}
