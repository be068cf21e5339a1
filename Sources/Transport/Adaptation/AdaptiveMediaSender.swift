import MediaCore
import Synchronization

/// The sending half of a live publisher, independent of the protocol: a ``SendQueue`` in front of a slow
/// link, a writer task that drains it into a connection, a ``BitRateController`` that moves the encoder's
/// target bitrate with the queue, and reconnection with backoff when the connection drops.
///
/// ```swift
/// let sender = AdaptiveMediaSender(limits: SendQueueLimits(), adaptation: BitRateAdaptation(initialBitRate: 2_000_000),
///                                  send: { try await connection.write($0) }, reconnect: { _ in try await connection.reopen() })
/// Task { for await event in sender.events { if case let .bitRateChanged(_, to, _) = event { try? await encoder.setBitRate(to) } } }
/// await sender.submit(.video(frame, index: 0))
/// let report = try await sender.close()
/// ```
///
/// The encoder's bitrate is not set here (Transport does not know encoders): each change is an event, and so
/// is each drop, each key frame the queue needs, each lost and each restored connection. After a
/// reconnection the writer resumes at a key frame: `reconnect` is expected to send fresh sequence headers.
public final class AdaptiveMediaSender: Sendable {
    /// Sends one message on the current connection; throws when the connection fails.
    public typealias Send = @Sendable (OutgoingMedia) async throws -> Void
    /// Opens a new connection (and sends what a new connection needs first); the attempt's number, from 1.
    public typealias Reconnect = @Sendable (Int) async throws -> Void

    private struct State {
        var queue: SendQueue
        var controller: BitRateController?
        var writerWaiting: CheckedContinuation<Void, Never>?
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        var finishing = false
        var stopped = false
        var failure: MediaSenderError?
        var report = MediaSendReport()
    }

    private let state: Mutex<State>
    private let eventContinuation: AsyncStream<SendQueueEvent>.Continuation
    private let writer: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let clockStart = ContinuousClock.now
    /// Every drop, bitrate change, key-frame request and connection change, in order (the newest 1024 are kept
    /// for a consumer that falls behind).
    public let events: AsyncStream<SendQueueEvent>

    /// Creates a sender and starts its writer.
    /// - Parameters:
    ///   - limits: the queue's bounds and policy.
    ///   - adaptation: the bitrate rules, or `nil` for a stream whose bitrate cannot change (a file).
    ///   - reconnectPolicy: how to try again after a lost connection.
    ///   - send: writes one message to the connection.
    ///   - reconnect: opens a new connection; called with the attempt's number.
    public init(limits: SendQueueLimits, adaptation: BitRateAdaptation?, reconnectPolicy: ReconnectPolicy = ReconnectPolicy(),
                send: @escaping Send, reconnect: @escaping Reconnect) {
        state = Mutex(State(queue: SendQueue(limits: limits), controller: adaptation.map { BitRateController(adaptation: $0) }))
        (events, eventContinuation) = AsyncStream.makeStream(of: SendQueueEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let task = Task { [self] in await self.runWriter(send: send, reconnect: reconnect, policy: reconnectPolicy) }
        writer.withLock { $0 = task }
    }

    /// The target bitrate in force (bits per second), when the sender adapts one.
    public var bitRate: Int? { state.withLock { $0.controller?.bitRate } }

    /// The media time queued now, in seconds.
    public var queuedSeconds: Double { state.withLock { $0.queue.queuedSeconds } }

    /// Queues a message. With ``SendQueueLimits/Policy/drop`` it returns at once (what the policy drops is
    /// reported in ``events``); with ``SendQueueLimits/Policy/wait`` it suspends until the queue has room.
    /// - Parameter media: the message, in decode order within its track.
    /// - Throws: ``MediaSenderError`` once the sender has stopped (the connection could not be restored) or
    ///   was finished.
    public func submit(_ media: OutgoingMedia) async throws(MediaSenderError) {
        while true {
            let waitForRoom: Bool = state.withLock { state in
                state.queue.limits.policy == .wait && !state.stopped && !state.finishing && !state.queue.hasRoom(for: media.byteCount)
            }
            guard waitForRoom else { break }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.stopped || state.finishing || state.queue.hasRoom(for: media.byteCount) { return true }
                    state.roomWaiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        try offer(media)
    }

    /// Waits until the queue is within its bounds again, under ``SendQueueLimits/Policy/wait``: for a caller that
    /// ``offer(_:)``s several messages in order and then lets the slowest of several senders set its pace. Returns at
    /// once under ``SendQueueLimits/Policy/drop`` and once the sender has stopped or is finishing.
    public func waitForRoom() async {
        while true {
            let full: Bool = state.withLock { state in
                state.queue.limits.policy == .wait && !state.stopped && !state.finishing && !state.queue.hasRoom(for: 0)
            }
            guard full else { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.stopped || state.finishing || state.queue.hasRoom(for: 0) { return true }
                    state.roomWaiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// Queues a message now, without waiting for room: what the bounds cannot hold is dropped by the queue's rules
    /// and reported in ``events`` (under ``SendQueueLimits/Policy/wait`` the message is queued beyond the bound).
    /// For a caller that must keep several messages in order without suspending between them, such as a fan-out
    /// that feeds many senders from one task.
    /// - Parameter media: the message, in decode order within its track.
    /// - Throws: ``MediaSenderError`` once the sender has stopped or was finished.
    public func offer(_ media: OutgoingMedia) throws(MediaSenderError) {
        let now = elapsed
        let (events, wake, error): ([SendQueueEvent], CheckedContinuation<Void, Never>?, MediaSenderError?) = state.withLock { state in
            if let failure = state.failure { return ([], nil, failure) }
            if state.stopped || state.finishing { return ([], nil, .closed) }
            var events = state.queue.enqueue(media)
            Self.count(events, into: &state.report)
            if let change = Self.adapt(&state, at: now) { events.append(change) }
            let wake = state.writerWaiting
            state.writerWaiting = nil
            return (events, wake, nil)
        }
        if let error { throw error }
        for event in events { eventContinuation.yield(event) }
        wake?.resume()
    }

    /// Sends what is queued, then stops the writer. Call ``close()`` to wait for it.
    public func finish() {
        let wake = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finishing = true
            defer { state.writerWaiting = nil }
            return state.writerWaiting
        }
        wake?.resume()
        releaseRoomWaiters()
    }

    /// Finishes, waits until everything queued is sent (or the connection is given up), and reports.
    /// - Returns: what was sent and dropped.
    /// - Throws: ``MediaSenderError/connectionLost(attempts:lastError:)`` when the connection could not be restored.
    @discardableResult
    public func close() async throws(MediaSenderError) -> MediaSendReport {
        finish()
        await writer.withLock { $0 }?.value
        eventContinuation.finish()
        let (report, failure) = state.withLock { ($0.report, $0.failure) }
        if let failure { throw failure }
        return report
    }

    /// Stops at once: what is queued is discarded (not reported as dropped), the writer ends after its current
    /// message.
    public func cancel() {
        state.withLock { state in
            state.stopped = true
            while state.queue.dequeue() != nil {}
        }
        finish()
        writer.withLock { $0 }?.cancel()
    }

    // MARK: - Writer

    private var elapsed: Double {
        let duration = ContinuousClock.now - clockStart
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    private func nextItem() async -> OutgoingMedia? {
        while true {
            enum Next { case item(OutgoingMedia), end, wait }
            let now = elapsed
            let (next, change): (Next, SendQueueEvent?) = state.withLock { state in
                if state.stopped { return (.end, nil) }
                if let item = state.queue.dequeue() { return (.item(item), Self.adapt(&state, at: now)) }
                return (state.finishing ? .end : .wait, Self.adapt(&state, at: now))
            }
            if let change { eventContinuation.yield(change) }
            releaseRoomWaiters()
            switch next {
            case let .item(item): return item
            case .end: return nil
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        if !state.queue.isEmpty || state.finishing || state.stopped { return true }
                        state.writerWaiting = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    private func runWriter(send: Send, reconnect: Reconnect, policy: ReconnectPolicy) async {
        while true {
            guard let item = await nextItem() else { break }
            do {
                try await send(item)
                state.withLock { state in
                    if item.isVideo { state.report.videoFramesSent += 1 } else { state.report.audioFramesSent += 1 }
                    state.report.bytesSent += item.byteCount
                }
            } catch {
                if Task.isCancelled || state.withLock({ $0.stopped }) { break }
                guard await restore(after: error, reconnect: reconnect, policy: policy) else { break }
                // The message that failed may or may not have reached the server: it is not sent again (a copy
                // would repeat its timestamp) but reported; the new connection starts at a key frame.
                let events = state.withLock { state -> [SendQueueEvent] in
                    var events: [SendQueueEvent] = [.dropped(item.position, reason: .reconnecting)]
                    events += state.queue.resumeAtKeyFrame()
                    Self.count(events, into: &state.report)
                    return events
                }
                for event in events { eventContinuation.yield(event) }
            }
        }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopped = true
            state.report.finalBitRate = state.controller?.bitRate
            defer { state.roomWaiters = [] }
            return state.roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Reconnects with backoff. Returns whether the connection is back.
    private func restore(after error: any Error, reconnect: Reconnect, policy: ReconnectPolicy) async -> Bool {
        var lastError = "\(error)"
        var attempt = 1
        while policy.maximumAttempts.map({ attempt <= $0 }) ?? true {
            let delay = policy.delay(beforeAttempt: attempt)
            eventContinuation.yield(.disconnected(reason: lastError, retryAfter: delay))
            do {
                try await Task.sleep(for: .seconds(delay))
            } catch {
                break
            }
            if state.withLock({ $0.stopped }) { return false }
            do {
                try await reconnect(attempt)
                state.withLock { $0.report.reconnections += 1 }
                eventContinuation.yield(.reconnected(attempt: attempt))
                return true
            } catch {
                lastError = "\(error)"
                attempt += 1
            }
        }
        state.withLock { state in
            state.failure = .connectionLost(attempts: attempt - 1, lastError: lastError)
        }
        return false
    }

    private func releaseRoomWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.roomWaiters.isEmpty else { return [] }
            let ready = state.stopped || state.finishing || state.queue.hasRoom(for: 0) && state.queue.queuedSeconds < state.queue.limits.maximumSeconds
            guard ready else { return [] }
            defer { state.roomWaiters = [] }
            return state.roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private static func adapt(_ state: inout State, at now: Double) -> SendQueueEvent? {
        let queued = state.queue.queuedSeconds
        guard var controller = state.controller else { return nil }
        let old = controller.bitRate
        let new = controller.observe(queuedSeconds: queued, at: now)
        state.controller = controller
        guard let new else { return nil }
        state.report.bitRateChanges += 1
        return .bitRateChanged(from: old, to: new, queuedSeconds: queued)
    }

    private static func count(_ events: [SendQueueEvent], into report: inout MediaSendReport) {
        for case let .dropped(position, _) in events {
            if position.isVideo { report.videoFramesDropped += 1 } else { report.audioFramesDropped += 1 }
        }
    }
}
