import Glibc
import POSIX
import Synchronization
import Testing

/// How many times the test's SIGUSR1 handler ran.
private let signalsHandled = Atomic<Int>(0)

/// The one `EINTR` loop: with a fake call, and with a real blocking `read` interrupted by a signal whose
/// handler was installed without `SA_RESTART` (so the kernel does fail the call with `EINTR`).
@Suite struct RetryOnInterruptTests {
    @Test("EINTR is retried until the call gives an answer")
    func retriesInterruptedCalls() {
        var calls = 0
        let result = retryOnInterrupt { () -> Int in
            calls += 1
            if calls <= 3 { errno = EINTR; return -1 }
            return 42
        }
        #expect(result == .success(42))
        #expect(calls == 4)
    }

    @Test("any other errno is returned at once, and systemCall throws it with the call's name")
    func otherErrorsAreNotRetried() {
        var calls = 0
        let result = retryOnInterrupt { () -> Int32 in
            calls += 1
            errno = EAGAIN
            return -1
        }
        #expect(result == .failure(.wouldBlock))
        #expect(calls == 1)
        #expect(throws: SystemError("ioctl", errno: .inappropriateIOControl, subject: "/dev/video9")) {
            try systemCall("ioctl", on: "/dev/video9") { () -> Int32 in errno = ENOTTY; return -1 }
        }
        #expect(retryOnInterrupt { Int32(0) } == .success(0))
    }

    /// Blocks a thread in `read` on an empty pipe, interrupts it with SIGUSR1 (no `SA_RESTART`), then
    /// writes one byte. Returns what the read returned: the byte, or the error.
    private func interruptedRead(_ read: @escaping @Sendable (Int32) -> Result<UInt8, Errno>) throws -> Result<UInt8, Errno> {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsHandled.add(1, ordering: .relaxed) }
        action.sa_flags = 0 // no SA_RESTART: a blocking read fails with EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }

        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { Glibc.close(ends[0]); Glibc.close(ends[1]) }
        let readEnd = ends[0]

        let threadID = Atomic<Int32>(0)
        let outcome = Mutex<Result<UInt8, Errno>?>(nil)
        let thread = try Fixture.startThread {
            // Threads inherit the creator's signal mask, and Swift's pool threads block signals.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            threadID.store(Self.currentThreadID(), ordering: .releasing)
            let result = read(readEnd)
            outcome.withLock { $0 = result }
        }

        // Wait (at most 5 s) until the thread sleeps in read(2), then interrupt it once.
        let before = signalsHandled.load(ordering: .relaxed)
        var sleeping = false
        for _ in 0..<500 where !sleeping {
            let tid = threadID.load(ordering: .acquiring)
            if tid != 0, let state = Self.taskState(tid), state == "S" { sleeping = true } else { usleep(10_000) }
        }
        try #require(sleeping, "the reader thread never blocked")
        pthread_kill(thread, SIGUSR1)
        for _ in 0..<500 where signalsHandled.load(ordering: .relaxed) == before { usleep(10_000) }
        #expect(signalsHandled.load(ordering: .relaxed) > before, "the handler ran")
        usleep(20_000)
        if outcome.withLock({ $0 }) == nil {
            var byte: UInt8 = 0x5A
            #expect(Glibc.write(ends[1], &byte, 1) == 1)
        }
        pthread_join(thread, nil)
        return try #require(outcome.withLock { $0 })
    }

    /// The kernel's id of the calling thread, from the `/proc/thread-self` link (`PID/task/TID`).
    private static func currentThreadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return 0 }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int32($0) } ?? 0
    }

    /// The state letter of a thread of this process (`/proc/self/task/TID/stat`, third field).
    private static func taskState(_ tid: Int32) -> Character? {
        let number = Glibc.open("/proc/self/task/\(tid)/stat", O_RDONLY | O_CLOEXEC)
        guard number >= 0 else { return nil }
        defer { Glibc.close(number) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = Glibc.read(number, &buffer, buffer.count)
        guard count > 0, let close = buffer.prefix(count).lastIndex(of: UInt8(ascii: ")")), close + 2 < count else { return nil }
        return Character(Unicode.Scalar(buffer[close + 2]))
    }

    @Test("a signal really interrupts a plain read(2) (the oracle), and FileDescriptor.read retries it",
          .serialized, arguments: [false, true])
    func signalDuringABlockingRead(throughPOSIX: Bool) throws {
        let result = try interruptedRead { number in
            var byte: UInt8 = 0
            if throughPOSIX {
                let borrowed = FileDescriptor(borrowing: number, label: "<pipe>")
                do {
                    let count = try withUnsafeMutableBytes(of: &byte) { try borrowed.read(into: $0) }
                    return count == 1 ? .success(byte) : .failure(.ioError)
                } catch {
                    return .failure((error as? SystemError)?.errno ?? .ioError)
                }
            }
            let count = Glibc.read(number, &byte, 1)
            return count == 1 ? .success(byte) : .failure(.current)
        }
        let expected: Result<UInt8, Errno> = throughPOSIX ? .success(0x5A) : .failure(.interrupted)
        #expect(result == expected)
    }
}
