import Foundation
import POSIX
import Synchronization
import Testing
import TestSupport
import Transport

/// The capture every ffmpeg test replays, made once.
private let sharedCapture = Task<H264Capture, any Error> {
    let loop = try EventLoop()
    defer { loop.shutdown() }
    return try await H264Capture.make(in: try ExternalTool.temporaryDirectory(), port: TestPorts.reserve(), loop: loop)
}

/// A synthetic RTP packet of `size` bytes with a sequence number.
private func syntheticPacket(sequence: UInt16, size: Int = 1400) -> [UInt8] {
    var packet = [UInt8](repeating: 0xAB, count: size)
    packet[0] = 0x80
    packet[1] = 96
    packet[2] = UInt8(sequence >> 8)
    packet[3] = UInt8(sequence & 0xFF)
    return packet
}

@Suite("RTSP server", .needsRealTime, .serialized)
struct RTSPServerTests {
    @Test("ffmpeg plays our stream over UDP and TCP with Digest auth; the frames are those of the stream sent",
          .enabled(if: ExternalTool.isRunnable("ffmpeg")),
          arguments: ["udp", "tcp"])
    func ffmpegPlays(transport: String) async throws {
        // The RTSP port, the server's RTP pair, then ffmpeg's UDP ports.
        let port = TestPorts.reserve(10), rtpPort = port + 2
        let capture = try await sharedCapture.value
        #expect(capture.packets.count > 50)
        let directory = try ExternalTool.temporaryDirectory()
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let configuration = RTSPServerConfiguration(address: .loopback(.ipv4, port: port), rtpPort: rtpPort,
                                                    authenticator: RTSPServerAuthenticator(user: "admin", password: "s3cret"))
        let server = try RTSPServer(configuration: configuration, on: loop)
        defer { server.stop() }
        let stream = server.addStream(path: "live", sdp: H264Capture.sdp)
        server.start()
        let publisher = replay(capture, into: stream)
        defer { publisher.cancel() }

        let client = try PeerProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-rtsp_transport", transport,
                                                "-min_port", "\(port + 4)", "-max_port", "\(port + 9)",
                                                "-i", "rtsp://admin:s3cret@127.0.0.1:\(port)/live", "-frames:v", "30",
                                                "-f", "framemd5", "-"], logsIn: directory)
        let status = await client.exitStatus(within: 45)
        #expect(status == 0, "\(client.command): \(client.standardError.suffix(600))")
        let hashes = H264Capture.frameHashes(client.standardOutput)
        #expect(hashes.count == 30)
        #expect(hashes.allSatisfy { capture.referenceHashes.contains($0) }, "a decoded frame is not one of the stream's")
        #expect(Set(hashes).count >= 10, "the frames should move on")

        let refused = try PeerProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-rtsp_transport", transport,
                                                 "-i", "rtsp://admin:wrong@127.0.0.1:\(port)/live", "-frames:v", "1",
                                                 "-f", "null", "-"], logsIn: directory)
        let refusedStatus = await refused.exitStatus(within: 30)
        #expect(refusedStatus != 0)
        #expect(refused.standardError.contains("401"), "\(refused.standardError.suffix(300))")
        #expect(server.statistics.requestsRefused >= 2)
    }

    @Test("Eight clients all receive; one that stops reading is dropped and the other seven get every packet")
    func stalledClient() async throws {
        let port = TestPorts.reserve(4)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let configuration = RTSPServerConfiguration(address: .loopback(.ipv4, port: port), rtpPort: port + 2,
                                                    clientQueueCapacity: 256 * 1024, socketSendBufferSize: 64 * 1024)
        let server = try RTSPServer(configuration: configuration, on: loop)
        defer { server.stop() }
        let stream = server.addStream(path: "live", sdp: H264Capture.sdp)
        server.start()
        var clients: [RawRTSPClient] = []
        for _ in 0..<8 {
            let client = try await RawRTSPClient(port: port, loop: loop)
            try await client.play(port: port)
            clients.append(client)
        }
        defer { for client in clients { client.close() } }
        #expect(stream.statistics.playingClients == 8)
        let total = 3000
        let publisher = Task.detached {
            for index in 0..<total {
                stream.publishRTP(syntheticPacket(sequence: UInt16(index)), track: 0, timestamp: UInt32(index) * 90)
                if index % 4 == 3 { try? await Task.sleep(for: .milliseconds(3)) }
            }
        }
        // Every client receives the first 200 packets; then the first one stops reading.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { try await client.readRTP(until: 200) } }
            try await group.waitForAll()
        }
        #expect(clients.allSatisfy { $0.sequenceNumbers.count >= 200 && $0.isContiguous })
        let readers = Array(clients.dropFirst())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in readers { group.addTask { try await client.readRTP(until: total) } }
            try await group.waitForAll()
        }
        await publisher.value
        for (index, client) in readers.enumerated() {
            #expect(client.sequenceNumbers.count == total && client.isContiguous, "reader \(index + 1)")
        }
        #expect(stream.statistics.clientsDropped == 1)
        #expect(stream.statistics.playingClients == 7)
        // The stalled client's connection was closed by the server: once its buffers drain, the stream ends.
        try await clients[0].readRTP(until: Int.max)
        #expect(clients[0].sequenceNumbers.count < total)
        // The drop was reported, naming the stalled client's session.
        server.stop()
        var events: [RTSPServerEvent] = []
        for await event in server.events { events.append(event) }
        let drops = events.compactMap { event -> String? in
            if case let .slowClientDropped(session, _) = event { return session }
            return nil
        }
        #expect(drops == [clients[0].session].compactMap { $0 })
        #expect(events.filter { if case .playing = $0 { true } else { false } }.count == 8)
    }

    @Test("Over the connection cap, a client is answered 503 and closed; the others go on")
    func connectionCap() async throws {
        let port = TestPorts.reserve(4)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let configuration = RTSPServerConfiguration(address: .loopback(.ipv4, port: port), rtpPort: port + 2, maximumConnections: 2)
        let server = try RTSPServer(configuration: configuration, on: loop)
        defer { server.stop() }
        server.start()
        let first = try await RawRTSPClient(port: port, loop: loop)
        let second = try await RawRTSPClient(port: port, loop: loop)
        defer { first.close(); second.close() }
        #expect(try await first.request(.options, "*").status == .ok)
        #expect(try await second.request(.options, "*").status == .ok)
        let third = try await RawRTSPClient(port: port, loop: loop)
        defer { third.close() }
        #expect(try await third.nextResponse().status == .serviceUnavailable)
        #expect(try await first.request(.options, "*").status == .ok)
        #expect(server.statistics.connectionsRefused == 1)
    }

    @Test("Hostile clients get an error and are closed; the server keeps serving everyone else")
    func hostileClients() async throws {
        let port = TestPorts.reserve(4)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTSPServer(configuration: RTSPServerConfiguration(address: .loopback(.ipv4, port: port), rtpPort: port + 2), on: loop)
        defer { server.stop() }
        let stream = server.addStream(path: "live", sdp: H264Capture.sdp)
        server.start()
        let watcher = try await RawRTSPClient(port: port, loop: loop)
        try await watcher.play(port: port)
        defer { watcher.close() }

        func raw(_ bytes: [UInt8]) async throws -> String {
            let connection = try await TCPConnection.connect(to: .loopback(.ipv4, port: port), on: loop)
            defer { connection.close() }
            var reply: [UInt8] = []
            let writer = Task { try? await connection.write(bytes) }
            while true {
                guard let part = try? await connection.read(), !part.isEmpty else { break }
                reply += part
            }
            writer.cancel()
            return String(decoding: reply, as: UTF8.self)
        }
        #expect(try await raw([0x00, 0xFF, 0x13, 0x37] + Array("\r\n\r\n".utf8)).hasPrefix("RTSP/1.0 400"))
        let longLine = try await raw(Array("DESCRIBE rtsp://127.0.0.1/".utf8) + [UInt8](repeating: 0x61, count: 1 << 20))
        #expect(longLine.isEmpty || longLine.hasPrefix("RTSP/1.0 414"), "\(longLine.prefix(60))")
        var endless = Array("OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n".utf8)
        for index in 0..<500 { endless += Array("X-Header-\(index): value\r\n".utf8) }
        #expect(try await raw(endless).hasPrefix("RTSP/1.0 400"))

        let client = try await RawRTSPClient(port: port, loop: loop)
        defer { client.close() }
        var badCSeq = RTSPRequest(method: .options, uri: "*", headers: ["CSeq": "one"])
        try await client.connection.write(badCSeq.serialized())
        #expect(try await client.nextResponse().status == .badRequest)
        badCSeq.headers.set("CSeq", "-1")
        try await client.connection.write(badCSeq.serialized())
        #expect(try await client.nextResponse().status == .badRequest)
        #expect(try await client.request(RTSPMethod(rawValue: "BREW"), "rtsp://127.0.0.1/live").status == .notImplemented)
        #expect(try await client.request(.describe, "rtsp://127.0.0.1:\(port)/../../etc/passwd").status == .badRequest)
        #expect(try await client.request(.describe, "rtsp://127.0.0.1:\(port)/live/%2e%2e/x").status == .badRequest)
        #expect(try await client.request(.describe, "rtsp://127.0.0.1:\(port)/nothing").status == .notFound)
        #expect(try await client.request(.play, "rtsp://127.0.0.1:\(port)/live", ["Session": "NOSUCHSESSION"]).status == .sessionNotFound)
        #expect(try await client.request(.setup, "rtsp://127.0.0.1:\(port)/live/trackID=0", ["Transport": "RTP/AVP;multicast"]).status
            == .unsupportedTransport)
        // Interleaved frames on channels nobody set up are dropped and counted; the connection still answers.
        try await client.connection.write(RTSPInterleavedFrame.serialized(channel: 7, payload: [1, 2, 3])!)
        #expect(try await client.request(.options, "*").status == .ok)
        #expect(server.statistics.unknownChannelFrames >= 1)

        // A client that vanishes mid-session: its session ends with its connection.
        let vanishing = try await RawRTSPClient(port: port, loop: loop)
        try await vanishing.play(port: port)
        #expect(server.statistics.sessions == 2)
        vanishing.close()
        for _ in 0..<100 where server.statistics.sessions != 1 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.statistics.sessions == 1)

        // Through all of it, the watcher kept receiving.
        for index in 0..<50 { stream.publishRTP(syntheticPacket(sequence: UInt16(index)), track: 0, timestamp: 0) }
        try await watcher.readRTP(until: 50)
        #expect(watcher.sequenceNumbers == (0..<50).map { UInt16($0) })
        #expect(server.statistics.malformedStreams == 3)
    }

    @Test("Over IPv6: SETUP over UDP to [::1] ports and interleaved, and both receive")
    func ipv6() async throws {
        let port = TestPorts.reserve(6)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTSPServer(configuration: RTSPServerConfiguration(address: .loopback(.ipv6, port: port), rtpPort: port + 2), on: loop)
        defer { server.stop() }
        let stream = server.addStream(path: "cam/main", sdp: H264Capture.sdp)
        server.start()
        let interleaved = try await RawRTSPClient(port: port, loop: loop, family: .ipv6)
        defer { interleaved.close() }
        try await interleaved.play(port: port, path: "cam/main")
        let receiver = try UDPSocket(bindingTo: .loopback(.ipv6, port: port + 4), on: loop)
        defer { receiver.close() }
        let udp = try await RawRTSPClient(port: port, loop: loop, family: .ipv6)
        defer { udp.close() }
        let base = "rtsp://[::1]:\(port)/cam/main"
        let describe = try await udp.request(.describe, base)
        #expect(describe.headers["Content-Base"] == base + "/")
        #expect(String(decoding: describe.body, as: UTF8.self).contains("a=control:trackID=0\r\n"))
        #expect(try await udp.request(.setup, base + "/trackID=0", ["Transport": "RTP/AVP;unicast;client_port=\(port + 4)-\(port + 5)"]).status == .ok)
        let play = try await udp.request(.play, base)
        #expect(play.status == .ok)
        stream.publishRTP(syntheticPacket(sequence: 41, size: 300), track: 0, timestamp: 9000)
        #expect(try await receiver.receive().bytes == syntheticPacket(sequence: 41, size: 300))
        try await interleaved.readRTP(until: 1)
        #expect(interleaved.sequenceNumbers == [41])
        // A later PLAY says where the stream is: the next sequence number and the last timestamp.
        let again = try await udp.request(.play, base)
        let info = try RTPInfoHeader(parsing: try #require(again.headers["RTP-Info"]))
        #expect(info.entries == [.init(url: base + "/trackID=0", sequenceNumber: 42, rtpTime: 9000)])
        #expect(try await udp.request(.teardown, base).status == .ok)
        #expect(server.statistics.sessions == 1)
    }

    @Test("A session with no keep-alive is torn down after the timeout; one with GET_PARAMETER keep-alives stays")
    func sessionTimeout() async throws {
        let port = TestPorts.reserve(6)
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let configuration = RTSPServerConfiguration(address: .loopback(.ipv4, port: port), rtpPort: port + 2, sessionTimeout: .seconds(1))
        let server = try RTSPServer(configuration: configuration, on: loop)
        defer { server.stop() }
        let stream = server.addStream(path: "live", sdp: H264Capture.sdp)
        server.start()
        let receiver = try UDPSocket(bindingTo: .loopback(.ipv4, port: port + 4), on: loop)
        defer { receiver.close() }
        let silent = try await RawRTSPClient(port: port, loop: loop)
        defer { silent.close() }
        let base = "rtsp://127.0.0.1:\(port)/live"
        let setup = try await silent.request(.setup, base + "/trackID=0", ["Transport": "RTP/AVP;unicast;client_port=\(port + 4)-\(port + 5)"])
        #expect(setup.status == .ok)
        let reply = try RTSPTransportHeader(parsing: try #require(setup.headers["Transport"]))
        #expect(reply.serverPorts == (port + 2)...(port + 3) && reply.clientPorts == (port + 4)...(port + 5))
        #expect(try RTSPSessionHeader(parsing: try #require(setup.headers["Session"])).timeout == 1)
        #expect(try await silent.request(.play, base).status == .ok)
        let alive = try await RawRTSPClient(port: port, loop: loop)
        defer { alive.close() }
        try await alive.play(port: port)
        // UDP delivery reaches the client's port, from the server's RTP port.
        stream.publishRTP(syntheticPacket(sequence: 7, size: 200), track: 0, timestamp: 0)
        let datagram = try await receiver.receive()
        #expect(datagram.bytes == syntheticPacket(sequence: 7, size: 200) && datagram.sender.port == port + 2)
        for _ in 0..<10 {
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await alive.request(.getParameter, base).status == .ok)
        }
        #expect(server.statistics.sessionsTimedOut == 1)
        #expect(server.statistics.sessions == 1)
        #expect(stream.statistics.playingClients == 1)
        // The silent client was dropped: the server closed its connection, and said so.
        await #expect(throws: (any Error).self) { _ = try await silent.request(.options, "*") }
        server.stop()
        var timedOut: [String] = []
        for await event in server.events {
            if case let .sessionTimedOut(session, _) = event { timedOut.append(session) }
        }
        #expect(timedOut == [silent.session].compactMap { $0 })
    }
}
