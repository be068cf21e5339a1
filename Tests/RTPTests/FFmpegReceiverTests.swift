import Bitstream
import Foundation
import RTP
import Testing
import TestSupport

/// ffmpeg as the receiver of our packets: the access units of an x264/x265 stream, packetized by us (STAP-A/AP,
/// FU-A/FU at a 1000-byte packet size), described by an SDP written here by hand, and copied by ffmpeg to an
/// elementary stream must come out NAL unit for NAL unit as we sent them.
@Suite(.needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct FFmpegReceiverTests {
    @Test(arguments: [("h264", "H264"), ("hevc", "H265")])
    func ffmpegRebuildsOurPackets(codec: String, encoding: String) async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, _) = try await FFmpegSenderTests.encode(codec, in: directory)
        let capture = try await RTPPeers.receive(port: port, whileRunning: [
            "-readrate", "8", "-i", source, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)",
        ])
        let isH264 = codec == "h264"
        let (accessUnits, _) = FFmpegSenderTests.rebuild(capture, codec: isH264 ? .h264 : .h265)
        #expect(accessUnits.count == 50)

        // The stream twice: ffmpeg holds the last frames it received until it is stopped and drops them then,
        // so the second copy carries the first out; the first copy must come out whole.
        var datagrams: [[UInt8]] = []
        let state = RTPSenderState(payloadType: 96)
        guard let first = accessUnits.first, let last = accessUnits.last else { throw TestFailure("no access units") }
        let span = last.timestamp &- first.timestamp &+ 3600
        if isH264 {
            var packetizer = try H264Packetizer(maximumPacketSize: 1000, state: state)
            for pass in 0..<2 {
                for unit in accessUnits {
                    datagrams += packetizer.packets(nalUnits: unit.nalUnits, timestamp: unit.timestamp &+ UInt32(pass) &* span)
                }
            }
        } else {
            var packetizer = try H265Packetizer(maximumPacketSize: 1000, state: state)
            for pass in 0..<2 {
                for unit in accessUnits {
                    datagrams += packetizer.packets(nalUnits: unit.nalUnits, timestamp: unit.timestamp &+ UInt32(pass) &* span)
                }
            }
        }
        let sdp = """
            v=0\r
            o=- 0 0 IN IP4 127.0.0.1\r
            s=StreamKit test\r
            c=IN IP4 127.0.0.1\r
            t=0 0\r
            m=video \(port) RTP/AVP 96\r
            a=rtpmap:96 \(encoding)/90000\r
            \(isH264 ? "a=fmtp:96 packetization-mode=1\r\n" : "")
            """
        let sdpFile = directory.appendingPathComponent("our.sdp")
        try sdp.write(to: sdpFile, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("received.\(codec)")
        let ffmpeg = try RTPPeers.start("ffmpeg", ["-protocol_whitelist", "file,udp,rtp", "-i", sdpFile.path,
                                                   "-c", "copy", "-f", codec, "-y", output.path])
        defer { if ffmpeg.isRunning { ffmpeg.terminate() } }
        #expect(await Readiness.waitForUDP(port: port), "ffmpeg did not bind its RTP port")
        try await RTPPeers.send(datagrams, to: port)
        // ffmpeg writes what it has received: give it time to take the last packets in.
        try await Task.sleep(for: .seconds(1.5))
        ffmpeg.interrupt()
        await RTPPeers.waitForExit(ffmpeg, seconds: 10)
        let received = RTPPeers.nalUnits(ofAnnexB: try [UInt8](Data(contentsOf: output)))
        let isSlice: ([UInt8]) -> Bool = { isH264 ? (1...5).contains($0[0] & 0x1F) : ($0[0] >> 1) & 0x3F < 32 }
        let theirs = RTPPeers.withoutRepeatedPrefixUnits(received, isSlice: isSlice)
        let ours = RTPPeers.withoutRepeatedPrefixUnits(accessUnits.flatMap { $0.nalUnits.map { Array($0) } },
                                                       isSlice: isSlice)
        #expect(theirs.count >= ours.count)
        #expect(Array(theirs.prefix(ours.count)) == ours, "first difference at \(String(describing: zip(theirs, ours).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
    }
}
