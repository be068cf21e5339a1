import Bitstream
import Foundation
import POSIX
import RTP
import Testing
import TestSupport
import Transport

/// The RTSP client against a server we did not write (GStreamer's gst-rtsp-server): DESCRIBE, SETUP of the
/// H.264 and AAC tracks over UDP and interleaved TCP, PLAY, packets on both tracks, TEARDOWN; Basic and
/// Digest challenges answered, wrong credentials refused. Each test has a port of its own (``TestPorts``).
@Suite("RTSP client against GStreamer", .needsRealTime, .serialized, .enabled(if: GStreamerRTSPServer.isRunnable))
struct RTSPClientTests {
    /// The `a=control` values of an SDP's media, in order (read with the RTP module's SDP parser).
    static func controls(of sdp: String) throws -> [(media: String, control: String)] {
        let description = try SessionDescription(parsing: sdp)
        return description.media.map { ($0.media, $0.attribute("control") ?? "*") }
    }

    /// Plays for a while and returns the valid RTP packets per track and the RTCP packet count.
    static func play(_ url: String, transport: RTSPLowerTransport, credentials: RTSPCredentials? = nil,
                     seconds: Double = 2) async throws -> (rtp: [Int: [RTPPacket]], rtcp: Int, media: [String]) {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let client = try await RTSPClient(url: url, credentials: credentials, on: loop)
        let description = try await client.describe()
        let tracks = try controls(of: description.sdp)
        #expect(tracks.count == 2, "GStreamer serves H.264 and AAC: \(description.sdp)")
        for track in tracks { _ = try await client.setup(control: track.control, transport: transport) }
        try await client.play()
        let collector = Task { () -> ([Int: [RTPPacket]], Int) in
            var rtp: [Int: [RTPPacket]] = [:]
            var rtcp = 0
            for await packet in client.packets {
                if packet.isControl { rtcp += 1; continue }
                if let parsed = try? RTPPacket(parsing: packet.bytes) { rtp[packet.track, default: []].append(parsed) }
            }
            return (rtp, rtcp)
        }
        try await Task.sleep(for: .seconds(seconds))
        await client.teardown()
        let (rtp, rtcp) = await collector.value
        return (rtp, rtcp, tracks.map(\.media))
    }

    @Test("DESCRIBE, SETUP, PLAY, TEARDOWN: video and audio arrive", arguments: [RTSPLowerTransport.udp, .tcp])
    func playsBothTracks(transport: RTSPLowerTransport) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let server = try await GStreamerRTSPServer(port: port, in: directory)
        defer { Task { await server.stop() } }
        // gst-rtsp-server can close the first connection while it is still building its shared pipeline on a
        // loaded machine; a client then connects again, as players do.
        let result: (rtp: [Int: [RTPPacket]], rtcp: Int, media: [String])
        do {
            result = try await Self.play(server.url, transport: transport)
        } catch RTSPClientError.connectionClosed {
            try await Task.sleep(for: .seconds(2))
            result = try await Self.play(server.url, transport: transport)
        }
        await server.stop()
        #expect(result.media == ["video", "audio"])
        let video = result.rtp[0] ?? [], audio = result.rtp[1] ?? []
        #expect(video.count > 30, "video packets: \(video.count)")
        #expect(audio.count > 10, "audio packets: \(audio.count)")
        #expect(Set(video.map(\.payloadType)) == [96])
        #expect(Set(audio.map(\.payloadType)) == [97])
        #expect(video.contains { $0.marker })
        if transport == .tcp {
            // Over TCP nothing is lost: the sequence numbers follow on.
            for (previous, next) in zip(video, video.dropFirst()) { #expect(next.sequenceNumber == previous.sequenceNumber &+ 1) }
        }
    }

    @Test("Basic and Digest challenges are answered; a wrong password is refused", arguments: ["basic", "digest"])
    func authentication(scheme: String) async throws {
        let directory = try ExternalTool.temporaryDirectory()
        let port = TestPorts.reserve()
        let server = try await GStreamerRTSPServer(port: port, in: directory, user: "admin", password: "s3cret", digest: scheme == "digest")
        defer { Task { await server.stop() } }
        let good = try await Self.play(server.url, transport: .tcp, credentials: RTSPCredentials(user: "admin", password: "s3cret"), seconds: 1)
        #expect((good.rtp[0] ?? []).count > 10)
        let inURL = try await Self.play("rtsp://admin:s3cret@127.0.0.1:\(port)/test", transport: .tcp, seconds: 1)
        #expect((inURL.rtp[0] ?? []).count > 10)
        await #expect(throws: RTSPClientError.self) {
            _ = try await Self.play(server.url, transport: .tcp, credentials: RTSPCredentials(user: "admin", password: "wrong"), seconds: 0.5)
        }
        await #expect(throws: RTSPClientError.self) {
            _ = try await Self.play(server.url, transport: .tcp, seconds: 0.5)
        }
        await server.stop()
    }
}
