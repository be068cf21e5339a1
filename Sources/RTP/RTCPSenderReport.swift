import Bitstream

/// A sender report, SR, packet type 200 (RFC 3550 §6.4.1): which NTP wallclock time corresponds to which
/// RTP timestamp of the sender's stream, its packet and octet counts, and its reception report blocks.
public struct RTCPSenderReport: Sendable, Hashable {
    /// The RTCP packet type.
    public static let packetType: UInt8 = 200

    /// The sender's SSRC.
    public var ssrc: UInt32
    /// The wallclock time when the report was sent.
    public var ntpTimestamp: NTPTimestamp
    /// The same instant in the units and offset of the stream's RTP timestamps.
    public var rtpTimestamp: UInt32
    /// RTP data packets sent since the start of transmission.
    public var packetCount: UInt32
    /// Payload octets sent since the start of transmission.
    public var octetCount: UInt32
    /// Reception reports about the sources this sender hears (at most 31).
    public var reportBlocks: [RTCPReportBlock]
    /// Profile-specific extension bytes after the blocks.
    public var profileExtension: ByteView

    /// Creates a sender report.
    /// - Parameters:
    ///   - ssrc: the sender's SSRC.
    ///   - ntpTimestamp: the wallclock time.
    ///   - rtpTimestamp: the RTP timestamp of that instant.
    ///   - packetCount: packets sent.
    ///   - octetCount: payload octets sent.
    ///   - reportBlocks: reception reports.
    ///   - profileExtension: profile-specific bytes after the blocks (a multiple of 4), usually none.
    public init(ssrc: UInt32, ntpTimestamp: NTPTimestamp, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32,
                reportBlocks: [RTCPReportBlock] = [], profileExtension: ByteView = ByteView()) {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
        self.reportBlocks = reportBlocks
        self.profileExtension = profileExtension
    }

    /// Reads the body (after the common header, padding removed).
    init(body: ByteView, count: Int, offset: Int) throws(RTCPError) {
        let needed = 24 + count * RTCPReportBlock.size
        guard body.count >= needed else { throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count) }
        guard let ssrc = body.getInteger(at: 0, as: UInt32.self), let ntp = body.getInteger(at: 4, as: UInt64.self),
              let rtp = body.getInteger(at: 12, as: UInt32.self), let packets = body.getInteger(at: 16, as: UInt32.self),
              let octets = body.getInteger(at: 20, as: UInt32.self) else {
            throw .truncated(offset: offset, needed: 28, available: body.count + 4)
        }
        var blocks: [RTCPReportBlock] = []
        blocks.reserveCapacity(count)
        for index in 0..<count {
            guard let block = RTCPReportBlock(body, at: 24 + index * RTCPReportBlock.size) else {
                throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count)
            }
            blocks.append(block)
        }
        self.init(ssrc: ssrc, ntpTimestamp: NTPTimestamp(rawValue: ntp), rtpTimestamp: rtp, packetCount: packets, octetCount: octets,
                  reportBlocks: blocks, profileExtension: body.getView(in: needed..<body.count) ?? ByteView())
    }

    func write(to writer: inout RTCPWriter) throws(RTCPError) {
        guard reportBlocks.count <= 31 else { throw .unrepresentable(field: "SR report blocks", value: reportBlocks.count, limit: 31) }
        guard profileExtension.count % 4 == 0 else {
            throw .unrepresentable(field: "SR profile extension bytes (multiple of 4)", value: profileExtension.count, limit: 0)
        }
        writer.packet(count: reportBlocks.count, packetType: Self.packetType) { writer in
            writer.append(ssrc)
            writer.append(ntpTimestamp.rawValue)
            writer.append(rtpTimestamp)
            writer.append(packetCount)
            writer.append(octetCount)
            for block in reportBlocks { block.write(to: &writer) }
            writer.append(contentsOf: profileExtension)
        }
    }
}

/// A receiver report, RR, packet type 201 (RFC 3550 §6.4.2): reception report blocks from a participant
/// that does not send.
public struct RTCPReceiverReport: Sendable, Hashable {
    /// The RTCP packet type.
    public static let packetType: UInt8 = 201

    /// The reporter's SSRC.
    public var ssrc: UInt32
    /// Reception reports (at most 31; none is valid, as the head of a compound packet).
    public var reportBlocks: [RTCPReportBlock]
    /// Profile-specific extension bytes after the blocks.
    public var profileExtension: ByteView

    /// Creates a receiver report.
    /// - Parameters:
    ///   - ssrc: the reporter's SSRC.
    ///   - reportBlocks: reception reports.
    ///   - profileExtension: profile-specific bytes after the blocks (a multiple of 4), usually none.
    public init(ssrc: UInt32, reportBlocks: [RTCPReportBlock] = [], profileExtension: ByteView = ByteView()) {
        self.ssrc = ssrc
        self.reportBlocks = reportBlocks
        self.profileExtension = profileExtension
    }

    /// Reads the body (after the common header, padding removed).
    init(body: ByteView, count: Int, offset: Int) throws(RTCPError) {
        let needed = 4 + count * RTCPReportBlock.size
        guard body.count >= needed, let ssrc = body.getInteger(at: 0, as: UInt32.self) else {
            throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count)
        }
        var blocks: [RTCPReportBlock] = []
        blocks.reserveCapacity(count)
        for index in 0..<count {
            guard let block = RTCPReportBlock(body, at: 4 + index * RTCPReportBlock.size) else {
                throw .countPastEnd(offset: offset, packetType: Self.packetType, count: count)
            }
            blocks.append(block)
        }
        self.init(ssrc: ssrc, reportBlocks: blocks, profileExtension: body.getView(in: needed..<body.count) ?? ByteView())
    }

    func write(to writer: inout RTCPWriter) throws(RTCPError) {
        guard reportBlocks.count <= 31 else { throw .unrepresentable(field: "RR report blocks", value: reportBlocks.count, limit: 31) }
        guard profileExtension.count % 4 == 0 else {
            throw .unrepresentable(field: "RR profile extension bytes (multiple of 4)", value: profileExtension.count, limit: 0)
        }
        writer.packet(count: reportBlocks.count, packetType: Self.packetType) { writer in
            writer.append(ssrc)
            for block in reportBlocks { block.write(to: &writer) }
            writer.append(contentsOf: profileExtension)
        }
    }
}
