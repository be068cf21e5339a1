import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// RTCP packets written and read back, malformed packets rejected with their offset, and our packets
/// dissected by tshark (Wireshark's RTCP dissector) without a warning.
@Suite struct RTCPTests {
    static let block = RTCPReportBlock(ssrc: 0xCAFE_BABE, fractionLost: 64, cumulativeLost: -3, extendedHighestSequenceNumber: 0x0001_0010,
                                       jitter: 1234, lastSenderReport: 0x1234_5678, delaySinceLastSenderReport: 65536)
    static let compound = RTCPCompoundPacket([
        .receiverReport(RTCPReceiverReport(ssrc: 0x0102_0304, reportBlocks: [block])),
        .sourceDescription(RTCPSourceDescription(ssrc: 0x0102_0304, canonicalName: "streamkit@127.0.0.1")),
        .genericNACK(RTCPGenericNACK(senderSSRC: 0x0102_0304, mediaSSRC: 0xCAFE_BABE, lostSequenceNumbers: [100, 101, 116, 117, 65535, 3])),
        .pictureLossIndication(senderSSRC: 0x0102_0304, mediaSSRC: 0xCAFE_BABE),
        .goodbye(RTCPGoodbye(ssrcs: [0x0102_0304], reason: "done")),
    ])

    @Test func compoundRoundTrips() throws {
        let bytes = try Self.compound.serialized()
        #expect(bytes.count % 4 == 0)
        let read = try RTCPCompoundPacket(parsing: bytes)
        #expect(read == Self.compound)
        #expect(read.reportBlocks == [Self.block])
        #expect(read.canonicalName(of: 0x0102_0304) == "streamkit@127.0.0.1")
        guard case let .genericNACK(nack) = read.packets[2] else { Issue.record("not a NACK"); return }
        #expect(nack.entries.count == 3, "100…116 in one entry, 117…3 (wrapping) in the next two")
        #expect(nack.lostSequenceNumbers == [100, 101, 116, 117, 65535, 3])
        let report = RTCPSenderReport(ssrc: 9, ntpTimestamp: NTPTimestamp(unixSeconds: 1_700_000_000, nanoseconds: 500_000_000),
                                      rtpTimestamp: 0xFFFF_FFF0, packetCount: 7, octetCount: 7000, reportBlocks: [Self.block])
        let srBytes = try RTCPCompoundPacket([.senderReport(report)]).serialized()
        #expect(srBytes.count == 28 + 24 && srBytes[0] == 0x81 && srBytes[1] == 200 && srBytes[3] == 12)
        #expect(try RTCPCompoundPacket(parsing: srBytes).senderReports == [report])
        #expect(report.ntpTimestamp.fraction == 0x8000_0000)
    }

    @Test func keepsUnknownPacketsAndPadding() throws {
        // APP (204) with a 4-byte name and 4 bytes of data, then an RR with padding on the last packet.
        let app: [UInt8] = [0x80, 204, 0, 2, 0, 0, 0, 1, 0x41, 0x42, 0x43, 0x44]
        let paddedRR: [UInt8] = [0xA0, 201, 0, 2, 0, 0, 0, 9, 0, 0, 0, 4]
        let read = try RTCPCompoundPacket(parsing: app + paddedRR)
        #expect(read.packets.count == 2)
        #expect(read.packets[0] == .other(packetType: 204, count: 0, body: ByteView([0, 0, 0, 1, 0x41, 0x42, 0x43, 0x44])))
        #expect(read.packets[1] == .receiverReport(RTCPReceiverReport(ssrc: 9)))
    }

    @Test(arguments: [
        ([UInt8](), RTCPError.empty),
        ([0x80, 200, 0], RTCPError.truncated(offset: 0, needed: 4, available: 3)),
        ([0x40, 201, 0, 1, 0, 0, 0, 1], RTCPError.unsupportedVersion(offset: 0, version: 1)),
        ([0x80, 201, 0, 5, 0, 0, 0, 1], RTCPError.lengthPastEnd(offset: 0, length: 24, available: 8)),
        ([0xA0, 201, 0, 1, 0, 0, 0, 1, 0x80, 201, 0, 1, 0, 0, 0, 1], RTCPError.paddingBeforeLastPacket(offset: 0)),
        ([0x80, 201, 0, 1, 0, 0, 0, 1, 0xA0, 201, 0, 1, 0, 0, 0, 9], RTCPError.invalidPadding(offset: 8, count: 9)),
        ([0x81, 201, 0, 1, 0, 0, 0, 1], RTCPError.countPastEnd(offset: 0, packetType: 201, count: 1)),
        ([0x81, 202, 0, 2, 0, 0, 0, 1, 1, 9, 65, 0], RTCPError.sourceDescriptionPastEnd(offset: 0)),
        ([0x81, 203, 0, 2, 0, 0, 0, 1, 8, 65, 66, 67], RTCPError.goodbyeReasonPastEnd(offset: 0)),
        ([0x80, 200, 0, 1, 0, 0, 0, 1], RTCPError.countPastEnd(offset: 0, packetType: 200, count: 0)),
    ])
    func rejectsMalformedPackets(bytes: [UInt8], expected: RTCPError) {
        #expect(throws: expected) { try RTCPCompoundPacket(parsing: bytes) }
    }

    @Test func refusesWhatItCannotWrite() {
        let blocks = Array(repeating: Self.block, count: 32)
        #expect(throws: RTCPError.unrepresentable(field: "RR report blocks", value: 32, limit: 31)) {
            try RTCPCompoundPacket([.receiverReport(RTCPReceiverReport(ssrc: 1, reportBlocks: blocks))]).serialized()
        }
        let long = RTCPSourceDescription(ssrc: 1, canonicalName: String(repeating: "x", count: 256))
        #expect(throws: RTCPError.unrepresentable(field: "SDES item length", value: 256, limit: 255)) {
            try RTCPCompoundPacket([.sourceDescription(long)]).serialized()
        }
    }

    @Test func ntpTimestampArithmetic() {
        let a = NTPTimestamp(unixSeconds: 1_000, nanoseconds: 250_000_000)
        let b = NTPTimestamp(unixSeconds: 1_002, nanoseconds: 0)
        #expect(b.nanoseconds(since: a) == 1_750_000_000)
        #expect(a.nanoseconds(since: b) == -1_750_000_000)
        #expect(abs(b.seconds(since: a) - 1.75) < 1e-9)
        #expect(a.middle32 == UInt32(truncatingIfNeeded: a.rawValue >> 16))
    }

    /// tshark dissects our compound packet in a capture: every field as we meant it, no malformed-packet
    /// or expert warning.
    @Test(.enabled(if: ExternalTool.isRunnable("tshark")))
    func tsharkDissectsOurRTCP() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let capture = directory.appendingPathComponent("rtcp.pcap")
        try PacketCapture.write([(seconds: 1.0, payload: try Self.compound.serialized())], sourcePort: 23_201, destinationPort: 23_203, to: capture)
        let fields = try await ExternalTool.check("tshark", [
            "-r", capture.path, "-d", "udp.port==23203,rtcp", "-T", "fields", "-E", "separator=;",
            "-e", "rtcp.pt", "-e", "rtcp.ssrc.fraction", "-e", "rtcp.ssrc.cum_nr", "-e", "rtcp.ssrc.jitter",
            "-e", "rtcp.sdes.text", "-e", "rtcp.rtpfb.nack_pid", "-e", "rtcp.rtpfb.nack_blp", "-e", "rtcp.psfb.fmt", "-e", "rtcp.ssrc.identifier", "-e", "_ws.expert", "-e", "_ws.malformed",
        ]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let columns = fields.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        #expect(columns.count == 11, "\(fields)")
        guard columns.count == 11 else { return }
        #expect(columns[0] == "201,202,205,206,203")
        #expect(columns[1] == "64" && columns[2] == "-3" && columns[3] == "1234")
        #expect(columns[4] == "streamkit@127.0.0.1,done", "the CNAME, and tshark shows the BYE reason as text too")
        // tshark lists every lost number its PID/BLP pairs name (without wrapping 65535 + 4 to 3).
        #expect(columns[5] == "100,101,116,117,65535,65539", "\(fields)")
        #expect(columns[6] == "0x8001,0x0000,0x0008", "\(fields)")
        #expect(columns[7] == "1" && columns[8].hasPrefix("0xcafebabe,"), "\(fields)")
        #expect(columns[9].isEmpty && columns[10].isEmpty, "tshark warns: \(fields)")
    }
}
