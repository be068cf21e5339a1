import Bitstream

/// A reception report block (RFC 3550 §6.4.1): what one receiver saw of one source since the last report.
public struct RTCPReportBlock: Sendable, Hashable {
    /// The size of a block on the wire.
    public static let size = 24

    /// The source this block is about (SSRC_n).
    public var ssrc: UInt32
    /// The fraction of packets lost since the last report, in 1/256 (0 when more arrived than expected).
    public var fractionLost: UInt8
    /// Packets lost since reception began, a signed 24-bit value (duplicates can make it negative).
    public var cumulativeLost: Int32
    /// The extended highest sequence number received: cycles in the high 16 bits.
    public var extendedHighestSequenceNumber: UInt32
    /// The interarrival jitter in RTP timestamp units (RFC 3550 §6.4.1, A.8).
    public var jitter: UInt32
    /// The middle 32 bits of the NTP time of the last sender report received from the source; 0 if none.
    public var lastSenderReport: UInt32
    /// The delay since that sender report was received, in 1/65536 s; 0 if none.
    public var delaySinceLastSenderReport: UInt32

    /// Creates a block.
    /// - Parameters:
    ///   - ssrc: the source reported on.
    ///   - fractionLost: lost fraction in 1/256.
    ///   - cumulativeLost: cumulative packets lost, clamped to the 24-bit range when written.
    ///   - extendedHighestSequenceNumber: the extended highest sequence number.
    ///   - jitter: the interarrival jitter in timestamp units.
    ///   - lastSenderReport: LSR.
    ///   - delaySinceLastSenderReport: DLSR in 1/65536 s.
    public init(ssrc: UInt32, fractionLost: UInt8 = 0, cumulativeLost: Int32 = 0, extendedHighestSequenceNumber: UInt32 = 0,
                jitter: UInt32 = 0, lastSenderReport: UInt32 = 0, delaySinceLastSenderReport: UInt32 = 0) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequenceNumber = extendedHighestSequenceNumber
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    /// Reads a block at `index` of `view` (which must hold 24 bytes there).
    init?(_ view: ByteView, at index: Int) {
        guard let ssrc = view.getInteger(at: index, as: UInt32.self),
              let lossWord = view.getInteger(at: index + 4, as: UInt32.self),
              let highest = view.getInteger(at: index + 8, as: UInt32.self),
              let jitter = view.getInteger(at: index + 12, as: UInt32.self),
              let lsr = view.getInteger(at: index + 16, as: UInt32.self),
              let dlsr = view.getInteger(at: index + 20, as: UInt32.self) else { return nil }
        // The low 24 bits are a two's-complement count: shift up and back down to extend the sign.
        let lost = Int32(bitPattern: lossWord << 8) >> 8
        self.init(ssrc: ssrc, fractionLost: UInt8(lossWord >> 24), cumulativeLost: lost,
                  extendedHighestSequenceNumber: highest, jitter: jitter, lastSenderReport: lsr, delaySinceLastSenderReport: dlsr)
    }

    /// Appends the 24 bytes of the block; the cumulative loss is clamped to −2²³ ... 2²³ − 1.
    func write(to writer: inout RTCPWriter) {
        writer.append(ssrc)
        let lost = UInt32(bitPattern: min(max(cumulativeLost, -0x80_0000), 0x7F_FFFF)) & 0xFF_FFFF
        writer.append(UInt32(fractionLost) << 24 | lost)
        writer.append(extendedHighestSequenceNumber)
        writer.append(jitter)
        writer.append(lastSenderReport)
        writer.append(delaySinceLastSenderReport)
    }
}
