import POSIX
import Synchronization
import Testing
import Transport

/// A writer that keeps filling the kernel's buffer while a reader of the same connection waits: every wait for
/// writability must be woken. A lost wake-up (an older `epoll` interest armed last, or a flusher that stops just as
/// a writer finds the kernel full) stalls the writer for good — here the stall is caught by a deadline, not a hang.
/// Messages and reads done so far, shared by the test's tasks and its watchdog.
private final class Progress: Sendable {
    let count = Atomic<Int>(0)
}

@Suite("TCP wake-ups under a full send buffer", .needsRealTime)
struct TCPWakeupTests {
    @Test("16 MiB through a slow reader while another task waits to read: every write wakes, nothing stalls")
    func writerNeverStalls() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        let client = try await TCPConnection.connect(to: listener.localAddress, on: loop, sendBufferCapacity: 16 * 1024)
        defer { client.close() }
        let server = try await listener.accept()
        defer { server.close() }
        let messageCount = 4096, messageSize = 4096

        // The client's reader waits the whole time (the server answers once, at the end): its arming of the
        // descriptor races every arming the writer does.
        let reader = Task { () throws -> [UInt8] in try await client.read() }
        // Bytes moved so far, for the watchdog: a lost wake-up stops them for good, a loaded machine only slows them.
        let progress = Progress()
        let writer = Task { () -> Int in
            for index in 0..<messageCount {
                do {
                    try await client.write([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: messageSize))
                    progress.count.add(1, ordering: .relaxed)
                } catch {
                    return index
                }
            }
            return messageCount
        }
        let drain = Task { () throws -> Int in
            var buffer = [UInt8](repeating: 0, count: 1500)
            var total = 0, checksum = 0
            while total < messageCount * messageSize {
                let count = try await server.read(into: &buffer)
                if count == 0 { break }
                for offset in 0..<count { checksum &+= Int(buffer[offset]) &* ((total + offset) / messageSize &+ 1) }
                total += count
                progress.count.add(1, ordering: .relaxed)
                if total % (64 * 1024) < count { await Task.yield() }
            }
            try await server.write([0x2A])
            return checksum
        }
        // A stall never ends by itself: once nothing has moved for 10 s the connections close, which ends every wait.
        // (Not a deadline on the whole transfer: a debug build beside other suites on two cores may take minutes.)
        let watchdog = Task {
            var seen = -1
            while !Task.isCancelled {
                let now = progress.count.load(ordering: .relaxed)
                if now == seen { client.close(); server.close(); return }
                seen = now
                try? await Task.sleep(for: .seconds(10))
            }
        }
        defer { watchdog.cancel() }
        let written = await writer.value
        let checksum = try? await drain.value
        let answer = try? await reader.value
        #expect(written == messageCount, "the writer stalled after \(written) of \(messageCount) messages")
        var expected = 0
        for index in 0..<messageCount { expected &+= Int(UInt8(truncatingIfNeeded: index)) &* messageSize &* (index + 1) }
        #expect(checksum == expected, "every byte arrived, in order")
        #expect(answer == [0x2A], "the waiting reader was woken by the answer")
    }
}
