import POSIX
import Synchronization

/// A TCP connection on an ``EventLoop``: `async` reads, and writes through a bounded send buffer.
///
/// ``write(_:)`` waits while the buffer is full (backpressure); ``enqueue(_:)`` never waits — it takes a
/// message whole or refuses it, which is what a live sender wants for a receiver that stopped reading. One task
/// may read while another writes.
///
/// ```swift
/// let connection = try await TCPConnection.connect(to: .loopback(.ipv4, port: 8554), on: loop)
/// try await connection.write(Array("OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8))
/// let reply = try await connection.read()
/// ```
public final class TCPConnection: Sendable {
    private struct Output {
        var buffer: OutboundBuffer
        var isFlushing = false
        var failure: TransportError?
        var spaceWaiters: [CheckedContinuation<Bool, Never>] = []
        var drainWaiters: [DrainWaiter] = []
        var nextDrainWaiterID: UInt64 = 0
        var isFlushScheduled = false

        /// Takes the drain waiters whose bound the buffer now meets.
        mutating func satisfiedDrainWaiters() -> [DrainWaiter] {
            guard !drainWaiters.isEmpty else { return [] }
            let count = buffer.count
            let satisfied = drainWaiters.filter { $0.limit >= count }
            if !satisfied.isEmpty { drainWaiters.removeAll { $0.limit >= count } }
            return satisfied
        }

        /// Takes every waiter: the connection failed or closed.
        mutating func allWaiters() -> (space: [CheckedContinuation<Bool, Never>], drain: [DrainWaiter]) {
            defer {
                spaceWaiters.removeAll()
                drainWaiters.removeAll()
            }
            return (spaceWaiters, drainWaiters)
        }
    }

    /// A task suspended in ``waitUntilBuffered(atMost:)``: resumed with `true` when the buffer holds at most `limit`
    /// bytes, with `false` when the connection fails, closes or the task is cancelled.
    private struct DrainWaiter {
        var id: UInt64
        var limit: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    /// The peer's address.
    public let remoteAddress: SocketAddress
    /// The socket (non-blocking), for options.
    public let socket: Socket
    private let registration: IORegistration
    private let loop: EventLoop
    private let output: Mutex<Output>
    private let closed = Atomic(false)

    /// The default send-buffer bound, 256 KiB.
    public static let defaultSendBufferCapacity = 256 * 1024

    init(socket: Socket, remoteAddress: SocketAddress, loop: EventLoop, sendBufferCapacity: Int) throws(TransportError) {
        self.socket = socket
        self.remoteAddress = remoteAddress
        registration = try loop.register(socket.descriptor)
        self.loop = loop
        output = Mutex(Output(buffer: OutboundBuffer(capacity: sendBufferCapacity)))
        try? socket.setOption(.noDelay, to: true)
    }

    /// Connects to a TCP server (a non-blocking `connect(2)`, waiting for it to finish).
    /// - Parameters:
    ///   - address: the server, IPv4 or IPv6.
    ///   - loop: the loop that runs the connection.
    ///   - sendBufferCapacity: the bound of bytes accepted but not yet sent.
    /// - Returns: the connection.
    /// - Throws: ``TransportError/system(_:)`` (call `connect`, e.g. `ECONNREFUSED`), ``TransportError/cancelled``.
    public static func connect(to address: SocketAddress, on loop: EventLoop,
                               sendBufferCapacity: Int = defaultSendBufferCapacity) async throws(TransportError) -> TCPConnection {
        let socket: Socket
        let outcome: Socket.ConnectOutcome
        do {
            socket = try Socket(.tcp, family: address.family, nonBlocking: true)
            outcome = try socket.connect(to: address)
        } catch {
            throw .system(error)
        }
        let connection = try TCPConnection(socket: socket, remoteAddress: address, loop: loop,
                                           sendBufferCapacity: sendBufferCapacity)
        if outcome == .inProgress {
            do {
                try await connection.registration.wait(for: .write)
            } catch {
                connection.close()
                throw error
            }
            do {
                try socket.finishConnecting(to: address)
            } catch {
                connection.close()
                throw .system(error)
            }
        }
        return connection
    }

    /// Reads what has arrived, waiting until something does.
    /// - Parameter maximumCount: the most bytes to return.
    /// - Returns: up to `maximumCount` bytes; empty when the peer closed its end.
    /// - Throws: ``TransportError/system(_:)`` (`ECONNRESET`), ``TransportError/closed``, ``TransportError/cancelled``.
    public func read(maximumCount: Int = 65536) async throws(TransportError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(1, maximumCount))
        let count = try await read(into: &bytes)
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Reads into `buffer` (from its start), waiting until something arrives.
    /// - Parameter buffer: where the bytes go; its count is the most read.
    /// - Returns: how many bytes arrived; 0 when the peer closed its end.
    /// - Throws: ``TransportError/system(_:)`` (`ECONNRESET`), ``TransportError/closed``, ``TransportError/cancelled``.
    public func read(into buffer: inout [UInt8]) async throws(TransportError) -> Int {
        while true {
            if closed.load(ordering: .acquiring) { throw .closed }
            var result: Result<Int?, SystemError> = .success(nil)
            buffer.withUnsafeMutableBytes { bytes in
                result = Result { () throws(SystemError) in try socket.receive(into: bytes) }
            }
            switch result {
            case let .success(received?): return received
            case .success(nil): break
            case let .failure(error): throw .system(error)
            }
            try await registration.wait(for: .read)
        }
    }

    /// Sends every byte, waiting while the send buffer is full (backpressure).
    /// - Parameter bytes: the bytes.
    /// - Throws: ``TransportError/system(_:)`` (`EPIPE`, `ECONNRESET`), ``TransportError/closed``,
    ///   ``TransportError/cancelled`` (some bytes may have been taken by then).
    public func write(_ bytes: [UInt8]) async throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            var result: Result<Int, TransportError> = .success(0)
            bytes.withUnsafeBytes { all in
                result = Result { () throws(TransportError) in
                    try accept(UnsafeRawBufferPointer(rebasing: all[offset...]), whole: false)
                }
            }
            let taken = try result.get()
            offset += taken
            if offset < bytes.count { try await waitForSpace() }
        }
    }

    /// Takes `bytes` whole into the send buffer, or refuses them when they do not fit; never waits.
    /// - Parameter bytes: one message (for example an interleaved RTP packet with its `$` header).
    /// - Returns: `false` when the buffer has no room for all of them (nothing was taken).
    /// - Throws: ``TransportError/system(_:)`` when the connection failed, ``TransportError/closed``.
    @discardableResult
    public func enqueue(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> Bool {
        try accept(bytes, whole: true) > 0 || bytes.isEmpty
    }

    /// ``enqueue(_:)`` for two parts that must go together (a header and its payload).
    /// - Parameters:
    ///   - header: the first part.
    ///   - payload: the second part.
    /// - Returns: `false` when the buffer has no room for both (nothing was taken).
    /// - Throws: ``TransportError/system(_:)`` when the connection failed, ``TransportError/closed``.
    @discardableResult
    public func enqueue(_ header: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) throws(TransportError) -> Bool {
        let fits = try output.withLock { (output) throws(TransportError) -> Bool in
            if let failure = output.failure { throw failure }
            guard header.count + payload.count <= output.buffer.freeCount else { return false }
            _ = output.buffer.append(header)
            _ = output.buffer.append(payload)
            return true
        }
        if fits { try flush() }
        return fits
    }

    /// ``enqueue(_:_:)`` without sending at once: the bytes go out on the loop's next turn, together with whatever
    /// else was queued meanwhile — one `send(2)` for a burst of packets (a video frame) instead of one each.
    /// - Parameters:
    ///   - header: the first part.
    ///   - payload: the second part.
    /// - Returns: `false` when the buffer has no room for both (nothing was taken).
    /// - Throws: ``TransportError/system(_:)`` when the connection failed, ``TransportError/closed``.
    @discardableResult
    public func enqueueForNextTurn(_ header: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) throws(TransportError) -> Bool {
        let (fits, schedule) = try output.withLock { (output) throws(TransportError) -> (Bool, Bool) in
            if let failure = output.failure { throw failure }
            guard header.count + payload.count <= output.buffer.freeCount else { return (false, false) }
            _ = output.buffer.append(header)
            _ = output.buffer.append(payload)
            let schedule = !output.isFlushScheduled && !output.isFlushing
            if schedule { output.isFlushScheduled = true }
            return (true, schedule)
        }
        if schedule {
            let scheduled = loop.execute { [self] in
                output.withLock { $0.isFlushScheduled = false }
                try? flush()
            }
            if !scheduled { try flush() }
        }
        return fits
    }

    /// Suspends until at most `limit` bytes wait in the send buffer — the kernel has taken the rest — without
    /// polling: the event loop's writability wakes the flusher, which resumes this wait once the bound is met.
    ///
    /// `waitUntilBuffered(atMost: 0)` waits until everything written has been handed to the kernel (before a
    /// close, say); a live sender waits with a larger bound to keep its backlog in its own queue.
    /// - Parameter limit: the most bytes that may still be buffered when this returns.
    /// - Throws: the connection's failure, ``TransportError/closed`` when it closes meanwhile,
    ///   ``TransportError/cancelled`` when the calling task is cancelled.
    public func waitUntilBuffered(atMost limit: Int) async throws(TransportError) {
        let id = output.withLock { output in
            defer { output.nextDrainWaiterID &+= 1 }
            return output.nextDrainWaiterID
        }
        let met: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate = output.withLock { output -> Bool? in
                    if output.failure != nil || Task.isCancelled { return false }
                    if output.buffer.count <= limit { return true }
                    output.drainWaiters.append(DrainWaiter(id: id, limit: limit, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = output.withLock { output -> DrainWaiter? in
                guard let index = output.drainWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return output.drainWaiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
        guard !met else { return }
        if let failure = output.withLock({ $0.failure }) { throw failure }
        throw .cancelled
    }

    /// How many bytes wait in the send buffer.
    public var bufferedByteCount: Int {
        output.withLock { $0.buffer.count }
    }

    /// The send buffer's bound.
    public var sendBufferCapacity: Int {
        output.withLock { $0.buffer.capacity }
    }

    /// Closes the connection: waiting reads and writes end with ``TransportError/closed``; unsent bytes are dropped.
    /// Calling it again does nothing.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let waiters = output.withLock { output in
            output.failure = .closed
            return output.allWaiters()
        }
        for waiter in waiters.space { waiter.resume(returning: false) }
        for waiter in waiters.drain { waiter.continuation.resume(returning: false) }
        registration.close()
        try? socket.close()
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool {
        closed.load(ordering: .acquiring)
    }

    // MARK: sending

    /// Appends (whole or as much as fits) and sends what the kernel takes.
    private func accept(_ bytes: UnsafeRawBufferPointer, whole: Bool) throws(TransportError) -> Int {
        let taken = try output.withLock { (output) throws(TransportError) -> Int in
            if let failure = output.failure { throw failure }
            if whole { return output.buffer.append(bytes) ? bytes.count : 0 }
            return output.buffer.appendPrefix(bytes)
        }
        if taken > 0 { try flush() }
        return taken
    }

    /// Sends buffered bytes until the kernel is full; then one background task waits for writability and goes on.
    private func flush() throws(TransportError) {
        let (blocked, startFlusher) = try sendBuffered()
        if blocked && startFlusher {
            Task { [self] in await flushWhenWritable() }
        }
    }

    /// Under the lock: sends until empty or full, wakes writers waiting for room.
    /// - Returns: whether the kernel is full with bytes left, and whether the caller must start the flusher.
    /// - Parameter flusher: called by the flusher task, which stops flushing here (in the same critical section)
    ///   when the kernel took everything: a writer that finds the kernel full right after must start a new one,
    ///   not see `isFlushing` still set by a flusher that is about to return.
    private func sendBuffered(flusher: Bool = false) throws(TransportError) -> (blocked: Bool, startFlusher: Bool) {
        let (result, waiters, drained) = try output.withLock { (output) throws(TransportError) -> ((Bool, Bool), [CheckedContinuation<Bool, Never>], [DrainWaiter]) in
            if let failure = output.failure { throw failure }
            var failure: SystemError?
            var full = false
            while !output.buffer.isEmpty, !full, failure == nil {
                output.buffer.drain { run in
                    switch Result(catching: { () throws(SystemError) in try socket.send(run) }) {
                    case let .success(sent?): return sent
                    case .success(nil): full = true; return 0
                    case let .failure(error): failure = error; return 0
                    }
                }
            }
            if let failure {
                if flusher { output.isFlushing = false }
                output.failure = .system(failure)
                let waiters = output.allWaiters()
                for waiter in waiters.space { waiter.resume(returning: false) }
                for waiter in waiters.drain { waiter.continuation.resume(returning: false) }
                throw .system(failure)
            }
            var waiters: [CheckedContinuation<Bool, Never>] = []
            if output.buffer.freeCount > 0, !output.spaceWaiters.isEmpty {
                waiters = output.spaceWaiters
                output.spaceWaiters.removeAll()
            }
            if flusher, !full { output.isFlushing = false }
            let start = full && !output.isFlushing
            if start { output.isFlushing = true }
            return ((full, start), waiters, output.satisfiedDrainWaiters())
        }
        for waiter in waiters { waiter.resume(returning: true) }
        for waiter in drained { waiter.continuation.resume(returning: true) }
        return result
    }

    private func flushWhenWritable() async {
        while true {
            do {
                try await registration.wait(for: .write)
                let (blocked, _) = try sendBuffered(flusher: true)
                if blocked { continue }
            } catch {
                output.withLock { $0.isFlushing = false }
            }
            return
        }
    }

    /// Suspends until the send buffer has room (or the connection failed).
    private func waitForSpace() async throws(TransportError) {
        let hasRoom: Bool = await withCheckedContinuation { continuation in
            let immediate = output.withLock { output -> Bool? in
                if output.failure != nil { return false }
                if output.buffer.freeCount > 0 { return true }
                output.spaceWaiters.append(continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        if !hasRoom { throw output.withLock { $0.failure } ?? .closed }
    }
}
