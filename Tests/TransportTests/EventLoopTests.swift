import Synchronization
import POSIX
import Testing
import Transport

@Suite("Event loop and async sockets", .needsRealTime)
struct EventLoopTests {
    @Test("TCP: accept, connect, write and read both ways", arguments: [SocketAddress.Family.ipv4, .ipv6])
    func tcpEcho(family: SocketAddress.Family) async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(family, port: 0), on: loop)
        defer { listener.close() }
        async let served: [UInt8] = {
            let connection = try await listener.accept()
            defer { connection.close() }
            var received: [UInt8] = []
            while received.count < 100_000 {
                let part = try await connection.read()
                if part.isEmpty { break }
                received += part
            }
            try await connection.write(received.reversed())
            return received
        }()
        let client = try await TCPConnection.connect(to: listener.localAddress, on: loop)
        defer { client.close() }
        let message = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await client.write(message)
        var echoed: [UInt8] = []
        while echoed.count < message.count {
            let part = try await client.read()
            #expect(!part.isEmpty)
            if part.isEmpty { break }
            echoed += part
        }
        #expect(try await served == message)
        #expect(echoed == message.reversed())
    }

    @Test("UDP: a datagram each way, with the sender's address", arguments: [SocketAddress.Family.ipv4, .ipv6])
    func udpRoundTrip(family: SocketAddress.Family) async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let left = try UDPSocket(bindingTo: .loopback(family, port: 0), on: loop)
        let right = try UDPSocket(bindingTo: .loopback(family, port: 0), on: loop)
        defer { left.close(); right.close() }
        async let first = right.receive()
        try await left.send([1, 2, 3], to: right.localAddress)
        let datagram = try await first
        #expect(datagram.bytes == [1, 2, 3])
        #expect(datagram.sender == left.localAddress)
        try await right.send([9], to: datagram.sender)
        #expect(try await left.receive().bytes == [9])
    }

    @Test("A full send buffer refuses a whole message instead of waiting, and write waits until the peer reads")
    func backpressure() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop, sendBufferCapacity: 64 * 1024)
        defer { listener.close() }
        let client = try await TCPConnection.connect(to: listener.localAddress, on: loop)
        defer { client.close() }
        let server = try await listener.accept()
        defer { server.close() }
        let chunk = [UInt8](repeating: 0x55, count: 16 * 1024)
        var accepted = 0
        var refused = false
        for _ in 0..<10_000 {
            let taken = try chunk.withUnsafeBytes { try server.enqueue($0) }
            if !taken { refused = true; break }
            accepted += chunk.count
        }
        // The kernel buffers of both ends fill, then our 64 KiB bound.
        #expect(refused)
        #expect(server.bufferedByteCount <= 64 * 1024)
        // A waiting write completes once the client drains everything.
        async let wrote: Void = server.write(chunk)
        var drained = 0
        while drained < accepted + chunk.count {
            let part = try await client.read()
            if part.isEmpty { break }
            drained += part.count
        }
        try await wrote
        #expect(drained == accepted + chunk.count)
    }

    @Test("Messages queued for the next turn all arrive, in order, in fewer sends")
    func deferredFlush() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        let client = try await TCPConnection.connect(to: listener.localAddress, on: loop)
        defer { client.close() }
        let server = try await listener.accept()
        defer { server.close() }
        var expected: [UInt8] = []
        for index in 0..<50 {
            let header: [UInt8] = [0x24, 0, 0, UInt8(index)]
            let payload = [UInt8](repeating: UInt8(index), count: 100 + index)
            let taken = try header.withUnsafeBytes { head in
                try payload.withUnsafeBytes { try server.enqueueForNextTurn(head, $0) }
            }
            #expect(taken)
            expected += header + payload
        }
        var received: [UInt8] = []
        while received.count < expected.count {
            let part = try await client.read()
            if part.isEmpty { break }
            received += part
        }
        #expect(received == expected)
        #expect(server.bufferedByteCount == 0)
    }

    @Test("Closing wakes a waiting accept and read with .closed; a refused connect is a typed error")
    func closeWakesWaiters() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        let address = listener.localAddress
        let waiting = Task { try await listener.accept() }
        try await loop.sleep(for: .milliseconds(50))
        listener.close()
        await #expect(throws: TransportError.closed) { try await waiting.value }
        await #expect {
            _ = try await TCPConnection.connect(to: address, on: loop)
        } throws: { error in
            guard case let .system(system) = error as? TransportError else { return false }
            return system.errno == .connectionRefused
        }
        let udp = try UDPSocket(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        let receiving = Task { try await udp.receive() }
        try await loop.sleep(for: .milliseconds(20))
        receiving.cancel()
        await #expect(throws: TransportError.cancelled) { try await receiving.value }
        udp.close()
    }

    @Test("Timers run in deadline order; a cancelled one never runs; shutdown ends a sleep")
    func timers() async throws {
        let loop = try EventLoop()
        let order = Recorder()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.schedule(after: .milliseconds(30)) { order.append(3); done.resume() }
            loop.schedule(after: .milliseconds(10)) { order.append(1) }
            let cancelled = loop.schedule(after: .milliseconds(20)) { order.append(99) }
            loop.schedule(after: .milliseconds(15)) { order.append(2) }
            #expect(cancelled?.cancel() == true)
        }
        #expect(order.values == [1, 2, 3])
        // An hour, so that only the shutdown can end it: a 60 s sleep once ran out by itself in a starved parallel run.
        let sleeping = Task { try await loop.sleep(for: .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(20))
        loop.shutdown()
        await #expect(throws: TransportError.loopStopped) { try await sleeping.value }
        #expect(loop.execute {} == false)
    }
}

/// A thread-safe list of integers for the timer test.
final class Recorder: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
