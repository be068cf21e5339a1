import Synchronization

/// The one way out of a session: a bounded, single-consumer asynchronous sequence, made when the
/// session is made, so a consumer gets every output whenever it starts reading — before, during or
/// after the work.
///
/// The buffer holds at most ``capacity`` outputs that carry media (frames, pictures); reports (a drop,
/// a withheld frame) are small and are kept in their place between them. With ``OutputPolicy/wait``
/// the session suspends its producer until the consumer makes room, so the buffer can only exceed
/// ``capacity`` by what one call releases at once (the engine's own delay at a flush). The sequence
/// ends after the session's `close()` once everything buffered has been read.
///
/// Read it from one task; several iterators share the one buffer (each output goes to one of them).
public final class SessionOutputStream<Element: Sendable>: AsyncSequence, Sendable {
    /// The iterator: ``next()`` suspends until an output is buffered or the session is closed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: SessionOutputStream<Element>

        /// The next output, or `nil` once the session is closed and everything was read (or the task
        /// reading it is cancelled).
        /// - Returns: the output.
        public mutating func next() async -> Element? {
            await stream.next()
        }
    }

    struct Slot: Sendable {
        var element: Element
        /// Whether it counts toward the capacity (media) or not (a report).
        var isMedia: Bool
        /// The session's own tag (the frame's index in input order), for drop decisions.
        var tag: Int
    }

    private struct State {
        var slots: [Slot] = []
        var mediaCount = 0
        var highWaterMark = 0
        var finished = false
        var consumer: CheckedContinuation<Element?, Never>?
        var producers: [CheckedContinuation<Void, Never>] = []
    }

    /// The most media outputs held before the policy applies.
    public let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
    }

    /// Makes the iterator.
    /// - Returns: an iterator over the session's outputs.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    /// How many media outputs are buffered and not yet read.
    public var pendingCount: Int { state.withLock { $0.mediaCount } }

    /// The most media outputs that were ever buffered at once.
    public var highWaterMark: Int { state.withLock { $0.highWaterMark } }

    // MARK: - Producer side (the session)

    /// Suspends until the buffer has room for one more media output (or the stream is finished).
    func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.finished || state.mediaCount < capacity { return true }
                state.producers.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Whether the buffer is full.
    var isFull: Bool { state.withLock { $0.mediaCount >= capacity } }

    /// Appends an output (whatever the fill level: callers apply the policy first).
    /// - Parameters:
    ///   - element: the output.
    ///   - isMedia: whether it counts toward the capacity.
    ///   - tag: the session's tag for it.
    func append(_ element: Element, isMedia: Bool, tag: Int) {
        update { slots in slots.append(Slot(element: element, isMedia: isMedia, tag: tag)) }
    }

    /// Changes the buffered outputs under the lock (a drop policy replaces or appends slots), then hands
    /// the first one to a waiting consumer.
    /// - Parameter body: the change.
    /// - Returns: what `body` returns.
    func update<Result>(_ body: (inout [Slot]) -> Result) -> Result {
        let (result, handoff) = state.withLock { state -> (Result, (CheckedContinuation<Element?, Never>, Element)?) in
            guard !state.finished else { return (body(&state.slots), nil) }
            let result = body(&state.slots)
            state.mediaCount = state.slots.reduce(0) { $0 + ($1.isMedia ? 1 : 0) }
            state.highWaterMark = Swift.max(state.highWaterMark, state.mediaCount)
            guard let consumer = state.consumer, !state.slots.isEmpty else { return (result, nil) }
            state.consumer = nil
            let first = state.slots.removeFirst()
            if first.isMedia { state.mediaCount -= 1 }
            return (result, (consumer, first.element))
        }
        if let (consumer, element) = handoff { consumer.resume(returning: element) }
        return result
    }

    /// Ends the stream: the consumer reads what is buffered, then `nil`; waiting producers go on.
    func finish() {
        let (consumer, producers) = state.withLock { state -> (CheckedContinuation<Element?, Never>?, [CheckedContinuation<Void, Never>]) in
            state.finished = true
            let producers = state.producers
            state.producers = []
            let consumer = state.slots.isEmpty ? state.consumer : nil
            if consumer != nil { state.consumer = nil }
            return (consumer, producers)
        }
        consumer?.resume(returning: nil)
        for producer in producers { producer.resume() }
    }

    // MARK: - Consumer side

    private func next() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let (answer, released) = state.withLock { state -> (Element??, CheckedContinuation<Void, Never>?) in
                    if !state.slots.isEmpty {
                        let first = state.slots.removeFirst()
                        if first.isMedia { state.mediaCount -= 1 }
                        let released = state.mediaCount < capacity && !state.producers.isEmpty ? state.producers.removeFirst() : nil
                        return (.some(first.element), released)
                    }
                    if state.finished || Task.isCancelled { return (.some(nil), nil) }
                    state.consumer = continuation
                    return (nil, nil)
                }
                released?.resume()
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let consumer = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(returning: nil)
        }
    }
}
