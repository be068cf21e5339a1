import Bitstream
import Foundation
import Testing
import TestSupport
import Containers
import Transport

/// Our client publishing to ffmpeg acting as the RTMP server (`ffmpeg -listen 1 -i rtmp://…`, whose chunk reader and
/// handshake check are strict): ffmpeg records exactly the packets we sent. Its port is its own (``TestPorts``).
@Suite("RTMP client → ffmpeg -listen 1", .needsRealTime, .serialized, .enabled(if: RTMPFixtures.peersAvailable))
struct RTMPFFmpegServerTests {
    @Test("ffmpeg as the server records the packets we publish")
    func publishToFFmpeg() async throws {
        let port = TestPorts.reserve()
        let directory = try ExternalTool.temporaryDirectory()
        let source = try RTMPFixtures.makeFLV(in: directory)
        let tags = try RTMPFixtures.tags(ofFLV: source)
        let recorded = directory.appendingPathComponent("recorded.flv").path
        let server = try PeerProcess("timeout", ["-k", "5", "40", "ffmpeg", "-hide_banner", "-v", "error", "-listen", "1",
                                                 "-i", "rtmp://127.0.0.1:\(port)/live/key", "-c", "copy", "-f", "flv", recorded],
                                     logsIn: directory)
        // ffmpeg accepts one connection only: wait until it listens, without probing the port.
        #expect(await Readiness.waitForListener(port: port), "\(server.logs)")
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let client = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/key", on: loop)
        try await client.publish()
        for tag in tags {
            switch tag.type {
            case 8: try await client.sendAudio(ByteView(tag.body), timestamp: tag.timestamp)
            case 9: try await client.sendVideo(ByteView(tag.body), timestamp: tag.timestamp)
            case 18: try await client.sendData(["@setDataFrame"] + (try AMF0Decoder().decodeValues(from: ByteView(tag.body))))
            default: continue
            }
        }
        await client.close()
        let ended = await server.waitForExit(seconds: 15)
        await server.stop()
        #expect(ended, "ffmpeg did not end after the publisher left\n\(server.logs)")
        let reference = try RTMPFixtures.packetHashes(source)
        let got = try RTMPFixtures.packetHashes(recorded)
        func key(_ rows: [[String]]) -> [[String]] {
            rows.filter { $0.count == 6 }.map { [$0[0], String((Int($0[2]) ?? 0) - (Int($0[1]) ?? 0)), $0[4], $0[5]] }
        }
        #expect(key(got) == key(reference), "ffmpeg recorded \(got.count) packets of \(reference.count)\n\(server.logs)")
    }
}
