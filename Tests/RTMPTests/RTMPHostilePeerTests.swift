import Bitstream
import Foundation
import POSIX
import Testing
import TestSupport
@testable import Transport

/// Hostile peers against our server: each gets an error for its own connection, a second client on the same
/// server keeps publishing and playing, and memory stays bounded. Each test has ports of its own (``TestPorts``).
@Suite("RTMP server against hostile peers", .needsRealTime, .serialized)
struct RTMPHostilePeerTests {
    /// A peer that does the handshake, then sends raw bytes.
    static func hostile(_ bytes: [UInt8], port: UInt16, on loop: EventLoop, closeAfter: Bool = false) async throws -> TCPConnection {
        let tcp = try await TCPConnection.connect(to: .loopback(.ipv4, port: port), on: loop)
        _ = try await RTMPConnection.handshake(over: tcp, as: .client)
        try await tcp.write(bytes)
        if closeAfter { tcp.close() }
        return tcp
    }

    /// Waits until the server closes the peer's connection (reads return 0 or fail).
    static func waitForClose(_ tcp: TCPConnection, seconds: Double = 10) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let reader = Task { () -> Bool in
            while true {
                guard let bytes = try? await tcp.read() else { return true }
                if bytes.isEmpty { return true }
            }
        }
        let timer = Task {
            try? await Task.sleep(until: deadline)
            tcp.close()
        }
        let closed = await reader.value
        timer.cancel()
        return closed && ContinuousClock.now < deadline
    }

    /// A well-behaved client publishes and a local subscriber receives its video: the server still works.
    static func serverStillWorks(port: UInt16, path: String, server: RTMPServer, on loop: EventLoop) async throws -> Bool {
        let subscription = server.subscribe(to: path)
        let client = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/\(path)", on: loop)
        try await client.publish()
        let keyFrame: [UInt8] = [0x17, 1, 0, 0, 0, 0, 0, 0, 2, 0x65, 0x88]
        try await client.sendVideo(ByteView(keyFrame), timestamp: 0)
        let first = Task { () -> [UInt8]? in
            for await message in subscription where message.type == .video { return message.bytes }
            return nil
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(5))
            first.cancel()
        }
        let got = await first.value
        timer.cancel()
        await client.close()
        return got == keyFrame
    }

    /// A chunk of format 0 on chunk stream 2 carrying a protocol control message.
    static func controlChunk(type: UInt8, body: [UInt8]) -> [UInt8] {
        [0x02, 0, 0, 0, 0, 0, UInt8(body.count), type, 0, 0, 0, 0] + body
    }

    /// An AMF0 `connect` command whose command object nests `depth` objects.
    static func deepConnect(depth: Int) -> [UInt8] {
        var body: [UInt8] = [0x02, 0, 7] + Array("connect".utf8) + [0x00, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]
        for _ in 0..<depth { body += [0x03, 0, 1, 0x61] }
        body += [0x05]
        for _ in 0..<depth { body += [0, 0, 0x09] }
        // One message, cut into 128-byte chunks on chunk stream 3.
        var bytes: [UInt8] = [0x03, 0, 0, 0, UInt8(body.count >> 16), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF), 20, 0, 0, 0, 0]
        var offset = 0
        while offset < body.count {
            if offset > 0 { bytes.append(0xC3) }
            let end = min(offset + 128, body.count)
            bytes += body[offset..<end]
            offset = end
        }
        return bytes
    }

    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var closeAfter = false
        var matches: @Sendable (RTMPError) -> Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "chunk size 2^31", bytes: controlChunk(type: 1, body: [0x80, 0, 0, 0])) {
            if case .chunkSizeOutOfRange(0x8000_0000, _, _) = $0 { return true } else { return false }
        },
        Case(name: "chunk size 0x7FFFFFFF", bytes: controlChunk(type: 1, body: [0x7F, 0xFF, 0xFF, 0xFF])) {
            if case .chunkSizeOutOfRange(0x7FFF_FFFF, _, _) = $0 { return true } else { return false }
        },
        Case(name: "an AMF0 object nested 10 000 deep", bytes: deepConnect(depth: 10_000)) {
            if case let .malformedMessage(20, 3, reason) = $0 { return reason.contains("AMF0") } else { return false }
        },
        Case(name: "format 3 on a chunk stream never opened", bytes: [0xC0 | 10, 1, 2, 3]) {
            if case .chunkStreamNotOpened(10, 3, 0) = $0 { return true } else { return false }
        },
        Case(name: "format 1 on a chunk stream never opened", bytes: [0x40 | 5, 0, 0, 0, 0, 0, 4, 9]) {
            if case .chunkStreamNotOpened(5, 1, 0) = $0 { return true } else { return false }
        },
        Case(name: "random bytes after the handshake", bytes: SplitMix64Bytes.make(count: 65_536, seed: 7)) { _ in true },
        Case(name: "a publisher that vanishes mid-message", bytes: [0x06, 0, 0, 0, 0, 0x10, 0, 9, 1, 0, 0, 0] + [UInt8](repeating: 0x17, count: 100),
             closeAfter: true) {
            if case .closedMidMessage = $0 { return true } else { return false }
        },
    ]

    @Test("a hostile peer loses its own connection with a typed error; another client keeps working", arguments: cases)
    func hostilePeer(_ hostileCase: Case) async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: 0)), on: loop)
        let port = server.localAddress.port
        let log = EventLog(server)
        server.start()
        defer { server.stop() }
        let tcp = try await Self.hostile(hostileCase.bytes, port: port, on: loop, closeAfter: hostileCase.closeAfter)
        if !hostileCase.closeAfter {
            #expect(await Self.waitForClose(tcp), "the server kept the hostile connection open")
        }
        let failure = await log.wait { if case .failed = $0 { return true } else { return false } }
        guard case let .failed(_, error) = failure else {
            Issue.record("no failure reported: \(log.events)")
            return
        }
        #expect(hostileCase.matches(error), "reported \(error)")
        #expect(try await Self.serverStillWorks(port: port, path: "live/after", server: server, on: loop))
        tcp.close()
    }

    @Test("declared lengths past the limits and many chunk streams: errors, and memory stays bounded")
    func memoryBounded() async throws {
        let port = TestPorts.reserve()
        let defaultPort = TestPorts.reserve()
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var limits = RTMPLimits()
        limits.maximumMessageLength = 1 << 20
        let server = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: port), limits: limits), on: loop)
        let log = EventLog(server)
        server.start()
        defer { server.stop() }
        // A message of 16 MiB − 1 (the most 24 bits can say), over this server's 1 MiB limit.
        let long = try await Self.hostile([0x06, 0, 0, 0, 0xFF, 0xFF, 0xFF, 9, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 128), port: port, on: loop)
        #expect(await Self.waitForClose(long))
        let tooLong = await log.wait { if case .failed(_, .messageTooLong(0xFF_FFFF, 1 << 20, 6, 9, _)) = $0 { return true } else { return false } }
        #expect(tooLong != nil, "\(log.events)")

        // Default limits: 40 chunk streams each opening a 16 MiB − 1 message and sending 1 MiB of it: the 32 MiB cap
        // on what incomplete messages hold ends the connection long before 640 MiB.
        let defaultServer = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: defaultPort)), on: loop)
        let defaultLog = EventLog(defaultServer)
        defaultServer.start()
        defer { defaultServer.stop() }
        let before = residentBytes()
        let tcp = try await TCPConnection.connect(to: .loopback(.ipv4, port: defaultPort), on: loop)
        _ = try await RTMPConnection.handshake(over: tcp, as: .client)
        try await tcp.write(Self.controlChunk(type: 1, body: [0x00, 0x10, 0x00, 0x00]))  // chunk size 1 MiB
        let chunk = [UInt8](repeating: 0xAB, count: 1 << 20)
        var sendFailed = false
        for stream in 0..<40 where !sendFailed {
            let id = UInt8(10 + stream)
            do {
                try await tcp.write([id, 0, 0, 0, 0xFF, 0xFF, 0xFF, 9, 1, 0, 0, 0] + chunk)
            } catch {
                sendFailed = true
            }
        }
        let exceeded = await defaultLog.wait { if case .failed(_, .bufferLimitExceeded) = $0 { return true } else { return false } }
        #expect(exceeded != nil, "\(defaultLog.events)")
        let growth = residentBytes() - before
        #expect(growth < 200 << 20, "resident memory grew by \(growth >> 20) MiB")
        tcp.close()
        long.close()
        #expect(try await Self.serverStillWorks(port: defaultPort, path: "live/still", server: defaultServer, on: loop))
    }

    @Test("a slow player is dropped; the publisher and a second player are not held up")
    func secondClientKeepsWorking() async throws {
        let port = TestPorts.reserve()
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let server = try RTMPServer(configuration: RTMPServerConfiguration(address: .loopback(.ipv4, port: port), playerQueueCapacity: 64), on: loop)
        let log = EventLog(server)
        server.start()
        defer { server.stop() }
        // A player that plays and then never reads: its socket fills, its queue fills, the server drops it.
        let stalledTCP = try await TCPConnection.connect(to: .loopback(.ipv4, port: port), on: loop)
        let stalled = try await RTMPConnection.handshake(over: stalledTCP, as: .client)
        try await stalled.send(try RTMPCommand(name: "connect", transactionID: 1, commandObject: .object(["app": "live"])).message(streamID: 0))
        try await stalled.send(try RTMPCommand(name: "createStream", transactionID: 2).message(streamID: 0))
        try await stalled.send(try RTMPCommand(name: "play", transactionID: 0, arguments: ["busy"]).message(streamID: 1))
        _ = await log.wait { if case .playing = $0 { return true } else { return false } }
        let good = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/busy", on: loop)
        try await good.play()
        let counter = Task { () -> Int in
            var count = 0
            for await message in good.messages where message.type == .video { count += 1; if count == 500 { break } }
            return count
        }
        let publisher = try await RTMPClient.connect(to: "rtmp://127.0.0.1:\(port)/live/busy", on: loop)
        try await publisher.publish()
        let frame = [0x17, 1, 0, 0, 0] + [UInt8](repeating: 0x42, count: 64 * 1024)
        // 500 frames of 64 KiB, 10 ms apart: 32 MiB, more than the stalled player's socket buffers and queue hold.
        for index in 0..<500 {
            try await publisher.sendVideo(ByteView(frame), timestamp: UInt32(index * 40))
            try await Task.sleep(for: .milliseconds(10))
        }
        let timer = Task { try? await Task.sleep(for: .seconds(30)); counter.cancel() }
        let count = await counter.value
        timer.cancel()
        #expect(count == 500, "the reading player got \(count) of 500 frames")
        await publisher.close()
        await good.close()
        let dropped = await log.wait { if case .playerTooSlow(path: "live/busy", _) = $0 { return true } else { return false } }
        #expect(dropped != nil, "the stalled player was not dropped: \(log.events)")
        stalled.close()
    }
}

/// Pseudo-random bytes for the tests (SplitMix64).
enum SplitMix64Bytes {
    static func make(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: z >> UInt64(shift))) }
        }
        return Array(bytes.prefix(count))
    }
}
