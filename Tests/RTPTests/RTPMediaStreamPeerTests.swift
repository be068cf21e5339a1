import Bitstream
import Foundation
import MediaCore
import RTP
import Testing
import TestSupport

/// ffmpeg as the receiver of an ``RTPMediaStream``: x264's frames, wrapped as the `EncodedFrame`s a compression
/// session hands out, sent by the stream (with its sender reports on the RTCP port) to the port of an SDP our
/// library wrote; ffmpeg's copy of what it received holds the NAL units that were sent.
@Suite(.needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg")))
struct RTPMediaStreamPeerTests {
    /// Access units of an Annex B stream with one slice per picture: the units before each slice, and the slice.
    static func accessUnits(ofAnnexB bytes: [UInt8]) -> [[[UInt8]]] {
        var units: [[[UInt8]]] = []
        var current: [[UInt8]] = []
        for unit in RTPPeers.nalUnits(ofAnnexB: bytes) where !unit.isEmpty {
            current.append(unit)
            if (1...5).contains(unit[0] & 0x1F) {
                units.append(current)
                current = []
            }
        }
        return units
    }

    @Test func ffmpegReceivesWhatTheStreamSends() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.h264").path
        try await ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25",
                                          "-frames:v", "25", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-g", "10", "-b:v", "3M",
                                          "-x264-params", "repeat-headers=1", "-f", "h264", "-y", source])
        let accessUnits = Self.accessUnits(ofAnnexB: try [UInt8](Data(contentsOf: URL(fileURLWithPath: source))))
        #expect(accessUnits.count == 25)
        let allUnits = accessUnits.flatMap { $0 }
        guard let sps = allUnits.first(where: { $0[0] & 0x1F == 7 }), let pps = allUnits.first(where: { $0[0] & 0x1F == 8 }) else {
            throw TestFailure("x264 wrote no SPS/PPS")
        }
        let format = FormatDescription(codec: .h264, width: 640, height: 360, profileLevel: .h264High,
                                       parameterSets: [sps, pps], nalUnitLengthSize: 4)
        // The frames twice: ffmpeg holds the last frames until it is stopped and drops them then.
        var frames: [EncodedFrame] = []
        for pass in 0..<2 {
            for (index, units) in accessUnits.enumerated() {
                var data: [UInt8] = []
                for unit in units { data += [UInt8(unit.count >> 24 & 0xFF), UInt8(unit.count >> 16 & 0xFF), UInt8(unit.count >> 8 & 0xFF), UInt8(unit.count & 0xFF)] + unit }
                let time = MediaTime(value: Int64(pass * accessUnits.count + index), timescale: 25)
                frames.append(EncodedFrame(data: data, isKeyFrame: units.contains { $0[0] & 0x1F == 5 }, pts: time, dts: time,
                                           duration: MediaTime(value: 1, timescale: 25), format: format))
            }
        }

        var stream = try RTPMediaStream(video: format, maximumPacketSize: 1000, referenceTime: NTPTimestamp(unixSeconds: 1_700_000_000, nanoseconds: 0))
        var rtp: [[UInt8]] = []
        var rtcp: [[UInt8]] = []
        for frame in frames {
            try stream.send(frame) { rtp.append(Array($0)) }
            if let report = try stream.reportIfDue(at: frame.pts) { rtcp.append(report) }
        }
        rtcp.append(try stream.goodbyePacket())
        #expect(rtcp.count == 3, "reports at 0 s and 1 s, and the BYE")
        #expect(rtp.contains { $0[12] & 0x1F == 28 }, "the key frames need FU-A")

        let media = try SDPMediaDescription(video: format, payloadType: 96, port: Int(port))
        let sdp = SessionDescription(origin: SDPOrigin(addressType: "IP4", unicastAddress: "127.0.0.1"), sessionName: "StreamKit test",
                                     connection: SDPConnection(address: "127.0.0.1"), media: [media])
        let sdpFile = directory.appendingPathComponent("our.sdp")
        try sdp.text.write(to: sdpFile, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("received.h264")
        let ffmpeg = try RTPPeers.start("ffmpeg", ["-protocol_whitelist", "file,udp,rtp", "-i", sdpFile.path,
                                                   "-c", "copy", "-f", "h264", "-y", output.path])
        defer { if ffmpeg.isRunning { ffmpeg.terminate() } }
        #expect(await Readiness.waitForUDP(port: port), "ffmpeg did not bind its RTP port")
        #expect(await Readiness.waitForUDP(port: port + 1), "ffmpeg did not bind its RTCP port")
        try await RTPPeers.send([rtcp[0]], to: port + 1)
        try await RTPPeers.send(rtp, to: port)
        try await RTPPeers.send(Array(rtcp.dropFirst()), to: port + 1)
        // ffmpeg writes what it has received: give it time to take the last packets in.
        try await Task.sleep(for: .seconds(1.5))
        ffmpeg.interrupt()
        await RTPPeers.waitForExit(ffmpeg, seconds: 10)
        let received = RTPPeers.nalUnits(ofAnnexB: try [UInt8](Data(contentsOf: output)))
        let isSlice: ([UInt8]) -> Bool = { (1...5).contains($0[0] & 0x1F) }
        let theirs = RTPPeers.withoutRepeatedPrefixUnits(received, isSlice: isSlice)
        let ours = RTPPeers.withoutRepeatedPrefixUnits(allUnits, isSlice: isSlice)
        #expect(theirs.count >= ours.count)
        #expect(Array(theirs.prefix(ours.count)) == ours,
                "first difference at \(String(describing: zip(theirs, ours).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
    }
}
