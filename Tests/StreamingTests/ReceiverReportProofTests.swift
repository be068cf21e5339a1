import Foundation
import MediaCore
import POSIX
import RTP
import Testing
import TestSupport

/// `streamkit receive our.sdp` sends receiver reports to the sender it hears (RFC 3550 §6.4.2): the SDP has no
/// `a=rtcp` line, so they go to the address the RTP packets come from, at the next port (RFC 3550 §11). The
/// sender here is an ``RTPMediaStream`` on two sockets of its own; its reports must come back in the RRs' LSR.
/// Its ports are its own (``TestPorts``).
@Suite("receive → RTCP receiver reports", .needsRealTime, .serialized)
struct ReceiverReportProofTests {
    @Test func receiverReportsGoToTheRTPSourcesNextPort() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let format = FormatDescription(codec: .h264, width: 640, height: 360, profileLevel: .h264Baseline,
                                       parameterSets: [sps, pps], nalUnitLengthSize: 4)
        // The receiver's RTP and RTCP ports, then the sender's.
        let port = TestPorts.reserve(4)
        let media = try SDPMediaDescription(video: format, payloadType: 96, port: Int(port))
        let sdp = SessionDescription(connection: SDPConnection(address: "127.0.0.1"), media: [media])
        let sdpPath = directory.appendingPathComponent("our.sdp").path
        try sdp.text.write(toFile: sdpPath, atomically: true, encoding: .utf8)

        let rtpSocket = try Socket(.udp, family: .ipv4)
        let rtcpSocket = try Socket(.udp, family: .ipv4, nonBlocking: true)
        defer { try? rtpSocket.close(); try? rtcpSocket.close() }
        try rtpSocket.bind(to: .loopback(.ipv4, port: port + 2))
        try rtcpSocket.bind(to: .loopback(.ipv4, port: port + 3))

        // The receiver is stopped once the reports are in; its idle limit only has to outlast a pause of this test's
        // sending loop when other suites keep both cores busy (2 s did not: it ended after 3 packets).
        let receiver = try Streamkit.start(["receive", sdpPath, "-o", directory.appendingPathComponent("out.h264").path,
                                            "--idle", "10", "--duration", "30"], logsIn: directory)
        #expect(await Readiness.waitForUDP(port: port), "\(receiver.logs)")
        #expect(await Readiness.waitForUDP(port: port + 1), "\(receiver.logs)")
        var stream = try RTPMediaStream(video: format, referenceTime: NTPTimestamp(unixSeconds: 1_700_000_000, nanoseconds: 0))
        var reportsSent: Set<UInt32> = []
        var received: [[UInt8]] = []
        func collect() throws {
            var buffer = [UInt8](repeating: 0, count: 2048)
            while let datagram = try buffer.withUnsafeMutableBytes({ try rtcpSocket.receiveDatagram(into: $0) }) {
                received.append(Array(buffer.prefix(datagram.count)))
            }
        }
        for index in 0..<90 {
            let header: UInt8 = index % 30 == 0 ? 0x65 : 0x41
            let time = MediaTime(value: Int64(index), timescale: 30)
            let frame = EncodedFrame(data: [0, 0, 0x05, 0x01, header] + [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 1280),
                                     isKeyFrame: header == 0x65, pts: time, dts: time, duration: MediaTime(value: 1, timescale: 30), format: format)
            try stream.send(frame) { packet in _ = try? rtpSocket.send(packet, to: .loopback(.ipv4, port: port)) }
            if let report = try stream.reportIfDue(at: time) {
                reportsSent.insert(stream.senderReport(at: time).ntpTimestamp.middle32)
                _ = try report.withUnsafeBytes { try rtcpSocket.send($0, to: .loopback(.ipv4, port: port + 1)) }
            }
            try collect()
            try await Task.sleep(for: .milliseconds(33))
        }
        for _ in 0..<20 where received.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            try collect()
        }
        await receiver.stop()

        let blocks = received.compactMap { try? RTCPCompoundPacket(parsing: $0) }
            .flatMap { compound in compound.packets.compactMap { packet -> [RTCPReportBlock]? in
                if case .receiverReport(let report) = packet { return report.reportBlocks }
                return nil
            } }
            .flatMap { $0 }
        #expect(!blocks.isEmpty, "no receiver report came to 127.0.0.1:\(port + 3) (\(received.count) datagrams)\n\(receiver.logs)")
        #expect(blocks.allSatisfy { $0.ssrc == stream.ssrc }, "the blocks report on our stream")
        #expect(blocks.contains { reportsSent.contains($0.lastSenderReport) }, "LSR is the middle of an SR we sent")
        #expect(blocks.allSatisfy { $0.cumulativeLost == 0 }, "loopback loses nothing")
    }
}
