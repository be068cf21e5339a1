import Bitstream

/// An RTCP compound packet (RFC 3550 §6.1): the packets of one UDP datagram (or of one TCP interleaved
/// frame, RFC 2326 §10.12 — the framing itself is the transport's job), read from a byte view without
/// copying bodies, and written back.
///
/// The checks of RFC 3550 A.2 are made on reading — version 2 in every header, lengths that add up to
/// the datagram, padding only on the last packet — except that the first packet need not be SR or RR:
/// reduced-size RTCP (RFC 5506) and senders that answer with a lone BYE or feedback exist.
///
/// ```swift
/// let compound = try RTCPCompoundPacket(parsing: ByteView(datagram))
/// for case let .senderReport(report) in compound.packets { clock.record(report) }
/// ```
public struct RTCPCompoundPacket: Sendable, Hashable {
    /// The most packets accepted in one compound packet.
    public static let maximumPacketCount = 64

    /// The packets, in order.
    public var packets: [RTCPPacket]

    /// Creates a compound packet.
    /// - Parameter packets: the packets; a conforming one starts with SR or RR and holds an SDES CNAME.
    public init(_ packets: [RTCPPacket]) {
        self.packets = packets
    }

    /// Reads every packet of `bytes`.
    /// - Parameter bytes: one datagram (or interleaved frame) of RTCP.
    /// - Throws: ``RTCPError`` naming the offset of the packet that is wrong.
    public init(parsing bytes: ByteView) throws(RTCPError) {
        guard !bytes.isEmpty else { throw .empty }
        var packets: [RTCPPacket] = []
        var offset = 0
        while offset < bytes.count {
            guard packets.count < Self.maximumPacketCount else { throw .tooManyPackets(limit: Self.maximumPacketCount) }
            guard let first = bytes.getByte(at: offset), let type = bytes.getByte(at: offset + 1),
                  let words = bytes.getInteger(at: offset + 2, as: UInt16.self) else {
                throw .truncated(offset: offset, needed: 4, available: bytes.count - offset)
            }
            guard first >> 6 == 2 else { throw .unsupportedVersion(offset: offset, version: first >> 6) }
            let length = (Int(words) + 1) * 4
            guard length <= bytes.count - offset else {
                throw .lengthPastEnd(offset: offset, length: length, available: bytes.count - offset)
            }
            var bodyLength = length - 4
            if first & 0x20 != 0 {
                guard offset + length == bytes.count else { throw .paddingBeforeLastPacket(offset: offset) }
                let padding = Int(bytes.getByte(at: offset + length - 1) ?? 0)
                guard padding > 0, padding <= bodyLength else { throw .invalidPadding(offset: offset, count: padding) }
                bodyLength -= padding
            }
            let body = bytes.getView(at: offset + 4, byteCount: bodyLength) ?? ByteView()
            packets.append(try RTCPPacket.parse(packetType: type, count: Int(first & 0x1F), body: body, offset: offset))
            offset += length
        }
        self.init(packets)
    }

    /// Reads every packet of `bytes`.
    /// - Parameter bytes: one datagram of RTCP.
    /// - Throws: ``RTCPError`` naming the offset of the packet that is wrong.
    public init(parsing bytes: [UInt8]) throws(RTCPError) {
        try self.init(parsing: ByteView(bytes))
    }

    /// The bytes of the compound packet: each packet with its header, no padding.
    /// - Returns: the datagram.
    /// - Throws: ``RTCPError/unrepresentable(field:value:limit:)`` when a packet has more blocks, chunks or
    ///   bytes than its fields can say.
    public func serialized() throws(RTCPError) -> [UInt8] {
        var writer = RTCPWriter()
        try append(to: &writer)
        return writer.bytes
    }

    /// Appends the compound packet to `bytes` (a send buffer, after an interleaved-frame header for example).
    /// - Parameter bytes: the buffer.
    /// - Throws: as ``serialized()``; `bytes` is unchanged then.
    public func write(to bytes: inout [UInt8]) throws(RTCPError) {
        let originalCount = bytes.count
        var writer = RTCPWriter(bytes: bytes)
        bytes = []
        defer { bytes = writer.bytes }
        do {
            try append(to: &writer)
        } catch {
            writer.bytes.removeSubrange(originalCount...)
            throw error
        }
    }

    private func append(to writer: inout RTCPWriter) throws(RTCPError) {
        for packet in packets { try packet.write(to: &writer) }
    }

    /// The sender reports of the compound packet.
    public var senderReports: [RTCPSenderReport] {
        packets.compactMap { if case let .senderReport(report) = $0 { return report } else { return nil } }
    }

    /// Every report block of the SRs and RRs.
    public var reportBlocks: [RTCPReportBlock] {
        packets.flatMap { (packet: RTCPPacket) -> [RTCPReportBlock] in
            switch packet {
            case let .senderReport(report): return report.reportBlocks
            case let .receiverReport(report): return report.reportBlocks
            default: return []
            }
        }
    }

    /// The CNAME of `ssrc` from the SDES packets, if present.
    /// - Parameter ssrc: the source.
    /// - Returns: its canonical name.
    public func canonicalName(of ssrc: UInt32) -> String? {
        for case let .sourceDescription(description) in packets {
            if let name = description.chunks.first(where: { $0.ssrc == ssrc })?.canonicalName { return name }
        }
        return nil
    }
}
