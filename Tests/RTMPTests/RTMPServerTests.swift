import Bitstream
import Foundation
import POSIX
import Testing
import TestSupport
import Transport

/// Our server with real peers: ffmpeg (which sends the digest handshake) publishes an FLV into it and we get the
/// same tags; ffmpeg plays what ffmpeg publishes through it; a wrong stream key is refused. Each test has a port of its own (``TestPorts``).
@Suite("RTMP server ↔ ffmpeg", .needsRealTime, .serialized, .enabled(if: RTMPFixtures.peersAvailable))
struct RTMPServerTests {
    @Test("ffmpeg publishes into our server (digest handshake); we receive exactly its tags")
    func ffmpegPublishes() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let source = try RTMPFixtures.makeFLV(in: directory)
        let tags = try RTMPFixtures.tags(ofFLV: source).filter { $0.type == 8 || $0.type == 9 }
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: .allowing(["live/good"], address: .loopback(.ipv4, port: port)), on: loop)
        let log = EventLog(server)
        server.start()
        defer { server.stop() }
        let received = server.subscribe(to: "live/good")
        let publisher = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-i", source, "-c", "copy", "-f", "flv",
                                                   "rtmp://127.0.0.1:\(port)/live/good"], logsIn: directory)
        let collector = Task { () -> [FLVTestTag] in
            var got: [FLVTestTag] = []
            for await message in received where message.type == .audio || message.type == .video {
                got.append(FLVTestTag(type: message.type.rawValue, timestamp: message.timestamp, body: message.bytes))
            }
            return got
        }
        let ended = await publisher.waitForExit(seconds: 30)
        #expect(ended && publisher.status == 0, "\(publisher.logs)")
        _ = await log.wait { if case .unpublished = $0 { return true } else { return false } }
        let got = await collector.value
        await publisher.stop()
        #expect(got == tags, "received \(got.count) tags of \(tags.count); first difference at \(Array(zip(got, tags)).firstIndex { $0.0 != $0.1 } ?? min(got.count, tags.count))")
        let digest = log.events.contains { if case .connected(_, true) = $0 { return true } else { return false } }
        #expect(digest, "ffmpeg's digest handshake was not recognised: \(log.events)")
    }

    @Test("a wrong stream key is refused: ffmpeg fails, the server reports it")
    func wrongKeyRefused() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let source = try RTMPFixtures.makeFLV(in: directory, seconds: 1)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: .allowing(["live/good"], address: .loopback(.ipv4, port: port)), on: loop)
        let log = EventLog(server)
        server.start()
        defer { server.stop() }
        let publisher = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-i", source, "-c", "copy", "-f", "flv",
                                                   "rtmp://127.0.0.1:\(port)/live/wrong"], logsIn: directory)
        let ended = await publisher.waitForExit(seconds: 20)
        await publisher.stop()
        #expect(ended && publisher.status != 0, "ffmpeg published with a wrong key\n\(publisher.logs)")
        let refused = await log.wait { if case let .refused(request, _) = $0 { return request.path == "live/wrong" } else { return false } }
        #expect(refused != nil, "\(log.events)")
        #expect(!server.isPublished("live/wrong"))
        // Our own client gets the refusal as a typed error.
        let client = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/wrong", on: loop)
        await #expect(throws: RTMPError.refused(command: "publish", code: "NetStream.Publish.BadName", description: "publishing live/wrong is not allowed")) {
            try await client.publish()
        }
        await client.close()
    }

    @Test("ffmpeg publishes, ffmpeg plays through our server: the packets are the same")
    func ffmpegThroughOurServer() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let source = try RTMPFixtures.makeFLV(in: directory)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: port)), on: loop)
        server.start()
        defer { server.stop() }
        let pulled = directory.appendingPathComponent("pulled.md5").path
        let player = try PeerProcess("timeout", ["-k", "5", "30", "ffmpeg", "-hide_banner", "-v", "error", "-rtmp_live", "live",
                                                 "-i", "rtmp://127.0.0.1:\(port)/live/relay", "-c", "copy", "-f", "framemd5", pulled],
                                     logsIn: directory)
        try await Task.sleep(for: .seconds(1))
        let publisher = try PeerProcess("ffmpeg", ["-hide_banner", "-v", "error", "-re", "-i", source, "-c", "copy", "-f", "flv",
                                                   "rtmp://127.0.0.1:\(port)/live/relay"], logsIn: directory)
        await publisher.waitForExit(seconds: 20)
        await player.waitForExit(seconds: 8)
        await player.stop()
        await publisher.stop()
        let reference = try RTMPFixtures.packetHashes(source)
        let received = RTMPFixtures.rows(ofFrameMD5: (try? String(contentsOfFile: pulled, encoding: .utf8)) ?? "")
        for stream in ["0", "1"] {
            func key(_ rows: [[String]]) -> [[String]] {
                rows.filter { $0.count == 6 && $0[0] == stream }.map { [String((Int($0[2]) ?? 0) - (Int($0[1]) ?? 0)), $0[4], $0[5]] }
            }
            let sent = key(reference), got = key(received)
            #expect(got.count * 10 >= sent.count * 8, "stream \(stream): \(got.count) of \(sent.count) packets\n\(player.logs)")
            #expect(isContiguousRun(got, of: sent), "stream \(stream): the packets differ")
        }
    }
}
