import Bitstream
import RTP

extension FuzzTargets {
    /// The SDP reader (RFC 8866) and the RTCP compound reader (RFC 3550 §6) on the input.
    ///
    /// A description that parses is written and read again: the second reading must equal the first
    /// written form (the writer's output is a fixed point), and every payload type's typed format and
    /// decoder format are asked for (a typed error or a value, never a trap). A compound packet that
    /// parses is written and must read back equal; the reception statistics and the synchronizer are
    /// driven by the input's bytes as sequence numbers, timestamps and sender reports.
    static func sdpAndRTCP(_ bytes: [UInt8]) {
        if let description = try? SessionDescription(parsing: bytes) {
            let text = description.text
            guard let reread = try? SessionDescription(parsing: text) else {
                preconditionFailure("a written description does not parse")
            }
            precondition((try? SessionDescription(parsing: reread.text)) == reread, "writing is not a fixed point")
            for media in description.media.prefix(8) {
                for payloadType in media.payloadTypes.prefix(8) {
                    if let format = try? media.payloadFormat(for: payloadType) {
                        _ = format.formatParameters.text
                    }
                    _ = try? media.videoFormat(payloadType: payloadType)
                    _ = try? media.audioFormat(payloadType: payloadType)
                }
                _ = media.range
                _ = media.controlURL(relativeTo: "rtsp://h/p")
            }
        }
        let view = ByteView(bytes)
        if let compound = try? RTCPCompoundPacket(parsing: view) {
            guard let written = try? compound.serialized() else { return }
            precondition((try? RTCPCompoundPacket(parsing: written)) == compound, "an RTCP compound packet does not read back")
            var sync = StreamSynchronizer()
            for report in compound.senderReports.prefix(4) { sync.addStream(ssrc: report.ssrc, clockRate: Int(report.packetCount % 200_000) + 1) }
            sync.record(compound)
            for report in compound.senderReports.prefix(4) {
                _ = sync.presentationTime(ssrc: report.ssrc, rtpTimestamp: report.octetCount, timescale: 90_000)
            }
        }
        var statistics = ReceptionStatistics(ssrc: 1, clockRate: 90_000)
        var index = 0
        while let sequence = view.getInteger(at: index, as: UInt16.self), let timestamp = view.getInteger(at: index + 2, as: UInt32.self) {
            statistics.record(sequenceNumber: sequence, timestamp: timestamp, arrival: .microseconds(Int64(index) * 997))
            index += 6
            if index % 60 == 0 { _ = statistics.makeReportBlock(at: .microseconds(Int64(index) * 997)) }
        }
        // Expected counts from the (last) base sequence number up: never negative.
        precondition(statistics.expectedPackets >= 0, "negative expected packet count")
    }
}
