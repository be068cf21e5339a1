import POSIX
import Synchronization
import Testing
import Transport

/// Whether a wait has returned yet, shared by the waiting task and the test.
private final class Flag: Sendable {
    private let storage = Atomic(false)

    /// Whether ``set()`` was called.
    var isSet: Bool { storage.load(ordering: .acquiring) }

    /// Raises the flag.
    func set() { storage.store(true, ordering: .releasing) }
}

/// `TCPConnection.waitUntilBuffered(atMost:)`, what the RTMP publisher's send gate and a close wait on instead of
/// polling the buffered byte count: it returns once the peer has taken the bytes, never while it reads nothing, and
/// a close or a cancellation ends it with the matching error. Each test has a loopback pair of its own (port 0).
@Suite("TCP: waiting for the send buffer to drain")
struct TCPDrainWaitTests {
    /// Bytes the client writes: far more than the kernel buffers of a pair whose server does not read hold.
    static let payloadCount = 2 << 20

    /// A connected pair on `loop` whose client buffers up to ``payloadCount`` bytes and whose kernel send buffer is
    /// small (the server's receive buffer, about 128 KiB before it reads, holds the rest of what the kernel takes).
    static func pair(on loop: EventLoop, listener: TCPListener) async throws -> (client: TCPConnection, server: TCPConnection) {
        let client = try await TCPConnection.connect(to: listener.localAddress, on: loop, sendBufferCapacity: payloadCount)
        try client.socket.setOption(.sendBufferSize, to: 8 * 1024)
        let server = try await listener.accept()
        return (client, server)
    }

    @Test("the wait stays suspended while the peer reads nothing, and returns once it has read")
    func returnsOnceDrained() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        let (client, server) = try await Self.pair(on: loop, listener: listener)
        defer { client.close(); server.close() }
        let payload = (0..<Self.payloadCount).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await client.write(payload)
        #expect(client.bufferedByteCount > 0, "the peer reads nothing yet: bytes wait in our buffer")

        let returned = Flag()
        let waiter = Task {
            try await client.waitUntilBuffered(atMost: 0)
            returned.set()
        }
        // A bound the buffer already meets returns at once.
        try await client.waitUntilBuffered(atMost: Self.payloadCount)
        try await Task.sleep(for: .milliseconds(200))
        #expect(!returned.isSet, "nothing was read, so nothing drained: the wait must still be suspended")

        // A broken wake-up would hang here: after 30 s without the wait returning, the close ends it (as a failure).
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(30))
            if !Task.isCancelled { client.close() }
        }
        defer { watchdog.cancel() }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var received: [UInt8] = []
        received.reserveCapacity(payload.count)
        while received.count < payload.count {
            let count = try await server.read(into: &buffer)
            if count == 0 { break }
            received += buffer[0..<count]
        }
        let outcome = await waiter.result
        #expect(throws: Never.self, "woken as the socket drained") { try outcome.get() }
        #expect(returned.isSet)
        #expect(client.bufferedByteCount == 0)
        #expect(received == payload, "every byte arrived, in order")
    }

    @Test("closing the connection ends a wait with TransportError.closed")
    func closeEndsTheWait() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        let (client, server) = try await Self.pair(on: loop, listener: listener)
        defer { server.close() }
        try await client.write([UInt8](repeating: 0x55, count: Self.payloadCount))
        let waiter = Task { try await client.waitUntilBuffered(atMost: 0) }
        try await Task.sleep(for: .milliseconds(50))
        client.close()
        let outcome = await waiter.result
        #expect(throws: TransportError.closed) { try outcome.get() }
    }

    @Test("cancelling the waiting task ends the wait with TransportError.cancelled and leaves the connection usable")
    func cancellationEndsTheWait() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        let (client, server) = try await Self.pair(on: loop, listener: listener)
        defer { client.close(); server.close() }
        try await client.write([UInt8](repeating: 0x55, count: Self.payloadCount))
        let waiter = Task { try await client.waitUntilBuffered(atMost: 0) }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        let outcome = await waiter.result
        #expect(throws: TransportError.cancelled) { try outcome.get() }
        #expect(!client.isClosed, "a cancelled wait does not close the connection")
        // A task cancelled before it waits does not wait at all.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await client.waitUntilBuffered(atMost: 0)
        }
        let earlyOutcome = await early.result
        #expect(throws: TransportError.cancelled) { try earlyOutcome.get() }
    }
}
