import Bitstream
import Containers
import Foundation
import Testing
import TestSupport
import Transport

/// Our client against nginx-rtmp (Debian's nginx + libnginx-mod-rtmp): we publish the tags of an FLV that ffmpeg
/// encoded (libx264 with B-frames, AAC) and ffmpeg pulls them back unchanged; ffmpeg publishes and our client plays
/// the same tags; tshark finds nothing malformed in our session. Each test has a port of its own (``TestPorts``).
@Suite("RTMP client ↔ nginx-rtmp", .needsRealTime, .serialized, .enabled(if: RTMPFixtures.peersAvailable))
struct RTMPNginxTests {
    /// What a new user writes to publish an FLV's tags in real time.
    static func publish(tags: [FLVTestTag], to url: String, on loop: EventLoop) async throws {
        let client = try await RTMPClient.connect(to: url, on: loop)
        try await client.publish()
        let start = ContinuousClock.now
        for tag in tags {
            let due = start + .milliseconds(Int(tag.timestamp))
            if due > .now { try await Task.sleep(until: due) }
            switch tag.type {
            case 8: try await client.sendAudio(ByteView(tag.body), timestamp: tag.timestamp)
            case 9: try await client.sendVideo(ByteView(tag.body), timestamp: tag.timestamp)
            case 18:
                let values = try AMF0Decoder().decodeValues(from: ByteView(tag.body))
                try await client.sendData(["@setDataFrame"] + values, timestamp: tag.timestamp)
            default: continue
            }
        }
        // nginx drops what it has not yet sent to players when the publisher leaves: let it drain.
        try await Task.sleep(for: .seconds(2))
        await client.close()
    }

    @Test("we publish H.264 + AAC, ffmpeg pulls back the same packets, tshark sees no malformed RTMP")
    func publishToNginx() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let source = try RTMPFixtures.makeFLV(in: directory)
        let tags = try RTMPFixtures.tags(ofFLV: source)
        #expect(tags.contains { $0.type == 9 } && tags.contains { $0.type == 8 })
        let nginx = try await NginxRTMP(port: port, in: directory)
        let capture = try await PacketCapture(filter: "tcp port \(port)", seconds: 40, in: directory)
        let pulled = directory.appendingPathComponent("pulled.md5").path
        let player = try PeerProcess("timeout", ["-k", "5", "30", "ffmpeg", "-hide_banner", "-v", "error", "-rtmp_live", "live",
                                                 "-i", "rtmp://127.0.0.1:\(port)/live/key", "-c", "copy", "-f", "framemd5", pulled],
                                     logsIn: directory)
        try await Task.sleep(for: .seconds(1))
        let loop = try EventLoop()
        do {
            try await Self.publish(tags: tags, to: "rtmp://127.0.0.1:\(port)/live/key", on: loop)
        } catch {
            await player.stop(); await capture.stop(); await nginx.stop(); loop.shutdown()
            throw error
        }
        await player.waitForExit(seconds: 8)
        await player.stop()
        await capture.stop()
        await nginx.stop()
        loop.shutdown()

        let reference = try RTMPFixtures.packetHashes(source)
        let received = RTMPFixtures.rows(ofFrameMD5: (try? String(contentsOfFile: pulled, encoding: .utf8)) ?? "")
        for stream in ["0", "1"] {
            // size and hash of each packet, and its composition offset (pts − dts: B-frames).
            func key(_ rows: [[String]]) -> [[String]] {
                rows.filter { $0.count == 6 && $0[0] == stream }.map { [String((Int($0[2]) ?? 0) - (Int($0[1]) ?? 0)), $0[4], $0[5]] }
            }
            let sent = key(reference), got = key(received)
            #expect(got.count * 10 >= sent.count * 6, "stream \(stream): ffmpeg pulled \(got.count) of \(sent.count) packets\n\(player.logs)")
            #expect(isContiguousRun(got, of: sent), "stream \(stream): the pulled packets differ from what was sent")
        }
        let (_, problems, _) = try await capture.dissect(decodingAs: ["tcp.port==\(port),rtmpt"])
        #expect(problems.isEmpty, "tshark: \(problems.prefix(10))")
        let rtmp = try await ExternalTool.check("tshark", ["-r", capture.path, "-d", "tcp.port==\(port),rtmpt", "-Y", "rtmpt"]).text
        #expect(rtmp.contains("publish()") && rtmp.contains("connect('live')"), "tshark does not see our commands:\n\(rtmp.prefix(2000))")
        #expect(rtmp.contains("Video Data") && rtmp.contains("Audio Data"))
    }

    @Test("ffmpeg publishes to nginx, our client plays the same tags")
    func playFromNginx() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let source = try RTMPFixtures.makeFLV(in: directory)
        let tags = try RTMPFixtures.tags(ofFLV: source).filter { $0.type == 8 || $0.type == 9 }
        let nginx = try await NginxRTMP(port: port, in: directory)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let client: RTMPClient
        do {
            client = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/pulled", on: loop)
            try await client.play()
        } catch {
            await nginx.stop()
            throw error
        }
        let publisher = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-re", "-i", source, "-c", "copy", "-f", "flv",
                                                   "rtmp://127.0.0.1:\(port)/live/pulled"], logsIn: directory)
        let collector = Task { () -> [FLVTestTag] in
            var got: [FLVTestTag] = []
            for await message in client.messages where message.type == .audio || message.type == .video {
                got.append(FLVTestTag(type: message.type.rawValue, timestamp: message.timestamp, body: message.bytes))
            }
            return got
        }
        await publisher.waitForExit(seconds: 20)
        try await Task.sleep(for: .seconds(2))
        await client.close()
        let got = await collector.value
        await publisher.stop()
        await nginx.stop()
        #expect(publisher.status == 0, "\(publisher.logs)")
        for type: UInt8 in [8, 9] {
            let sent = tags.filter { $0.type == type }.map(\.body), received = got.filter { $0.type == type }.map(\.body)
            #expect(received.count * 10 >= sent.count * 6, "type \(type): \(received.count) of \(sent.count) tags arrived")
            #expect(isContiguousRun(received, of: sent), "type \(type): the tags played differ from those published")
        }
        #expect(client.droppedMessageCount == 0)
    }
}
