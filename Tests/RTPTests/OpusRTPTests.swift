import Bitstream
import Foundation
import MediaCore
import RTP
import Testing
import TestSupport

/// Opus over RTP (RFC 7587) against ffmpeg both ways: ffmpeg's `-f rtp` packets depacketized to exactly the
/// packets it sent, its SDP read as Opus; our packets, described by our SDP, received by ffmpeg into Matroska as
/// the very packets we sent, which it then decodes with `-err_detect explode`.
@Suite(.needsRealTime, .serialized, .enabled(if: ExternalTool.isRunnable("ffmpeg", "ffprobe")))
struct OpusRTPTests {
    /// 2 s of a stereo tone through ffmpeg's libopus into Matroska (raw packets), and those packets.
    static func clip(in directory: URL) throws -> (path: String, packets: [[UInt8]]) {
        let path = directory.appendingPathComponent("opus.mkv").path
        _ = try ExternalTool.check("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                              "aevalsrc=0.4*sin(2*PI*440*t)|0.3*sin(2*PI*660*t):s=48000:d=2",
                                              "-c:a", "libopus", "-b:a", "96k", path])
        return (path, try packets(of: path))
    }

    /// The audio packets of a file as ffmpeg demuxes them (`-c copy`).
    static func packets(of path: String) throws -> [[UInt8]] {
        let probe = try ExternalTool.check("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size",
                                                       "-of", "csv=p=0", path])
        let sizes = probe.text.split(separator: "\n").compactMap { Int($0.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) ?? "") }
        let data = [UInt8](try ExternalTool.check("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-c", "copy",
                                                             "-f", "data", "-"]).standardOutput)
        var packets: [[UInt8]] = []
        var offset = 0
        for size in sizes where offset + size <= data.count {
            packets.append(Array(data[offset..<offset + size]))
            offset += size
        }
        return packets
    }

    @Test("ffmpeg sends Opus over RTP: one packet per datagram, timestamps 960 apart, its SDP read as opus/48000/2")
    func depacketizesFFmpeg() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, expected) = try Self.clip(in: directory)
        let sdpURL = directory.appendingPathComponent("ffmpeg.sdp")
        let datagrams = try await RTPPeers.receive(port: port, whileRunning: [
            "-readrate", "8", "-i", source, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)", "-sdp_file", sdpURL.path,
        ])
        var depacketizer = OpusDepacketizer()
        var frames: [RTPAudioFrame] = []
        for datagram in datagrams {
            let packet = try RTPPacket(parsing: ByteView(datagram))
            _ = try depacketizer.depacketize(packet) { if case let .frame(frame) = $0 { frames.append(frame) } }
        }
        #expect(frames.map { Array($0.data) } == expected)
        // Matroska keeps milliseconds: ffmpeg's RTP times, made from them, step by 960 ± 48 (1 ms) and sum to the span.
        let steps = zip(frames, frames.dropFirst()).map { Int($1.timestamp &- $0.timestamp) }
        #expect(steps.allSatisfy { abs($0 - 960) <= 48 }, "\(steps)")
        #expect(abs(steps.reduce(0, +) - 960 * steps.count) <= 48, "\(steps)")
        let sdp = try SessionDescription(parsing: String(contentsOf: sdpURL, encoding: .utf8))
        let media = try #require(sdp.media.first)
        let format = try media.audioFormat()
        #expect(format.codec == .opus && format.sampleRate == 48000)
        let payload = try media.payloadFormat(for: media.payloadTypes[0])
        #expect(payload.rtpMap.encodingName.lowercased() == "opus" && payload.rtpMap.clockRate == 48000
                && payload.rtpMap.encodingParameters == "2")
    }

    @Test("we send Opus over RTP with our SDP: ffmpeg receives exactly our packets and decodes them with explode")
    func ffmpegReceivesOurs() async throws {
        let port = TestPorts.reserve(2)
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, packets) = try Self.clip(in: directory)
        // Twice: ffmpeg may keep the last packets it received when stopped; the first copy must come out whole.
        var packetizer = try OpusPacketizer(state: RTPSenderState(payloadType: 111))
        var datagrams: [[UInt8]] = []
        for pass in 0..<2 {
            for (index, packet) in packets.enumerated() {
                let time = UInt32(truncatingIfNeeded: (pass * packets.count + index) * 960)
                try packetizer.packetize(ByteView(packet), timestamp: time) { bytes in datagrams.append(Array(bytes)) }
            }
        }
        let media = SDPMediaDescription(opusChannelCount: 2, payloadType: 111, port: Int(port))
        let attributes = media.attributes.map { "a=\($0.name):\($0.value ?? "")\r\n" }.joined()
        let sdp = "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=StreamKit test\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
            + "m=audio \(port) RTP/AVP 111\r\n" + attributes
        let sdpFile = directory.appendingPathComponent("our.sdp")
        try sdp.write(to: sdpFile, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("received.mkv")
        let ffmpeg = try RTPPeers.start("ffmpeg", ["-protocol_whitelist", "file,udp,rtp", "-i", sdpFile.path,
                                                   "-c", "copy", "-y", output.path])
        defer { if ffmpeg.isRunning { ffmpeg.terminate() } }
        #expect(await Readiness.waitForUDP(port: port), "ffmpeg did not bind its RTP port")
        try await RTPPeers.send(datagrams, to: port)
        try await Task.sleep(for: .seconds(1.5))
        ffmpeg.interrupt()
        await RTPPeers.waitForExit(ffmpeg, seconds: 10)
        let received = try Self.packets(of: output.path)
        #expect(received.count >= packets.count)
        #expect(Array(received.prefix(packets.count)) == packets)
        let decode = try await ExternalTool.run("ffmpeg", ["-v", "error", "-err_detect", "explode", "-i", output.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
    }
}
