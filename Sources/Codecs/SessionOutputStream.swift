import Synchronization

/// The `AsyncStream` side of a session's output, made on first use: a session whose outputs nobody
/// reads through the stream (they use the return values or the callback) buffers nothing, so a long
/// recording holds a steady memory size. The stream carries every output produced after it was first
/// asked for — ask for it before encoding, as one sets VideoToolbox's output callback at creation.
final class SessionOutputStream<Element: Sendable>: Sendable {
    private struct State {
        var stream: AsyncStream<Element>?
        var continuation: AsyncStream<Element>.Continuation?
        var isFinished = false
    }

    private let state = Mutex(State())

    /// The stream, created on the first call; later calls return the same stream (one consumer).
    var stream: AsyncStream<Element> {
        state.withLock { state in
            if let stream = state.stream { return stream }
            let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
            if state.isFinished { continuation.finish() }
            state.stream = stream
            state.continuation = continuation
            return stream
        }
    }

    /// Hands an output to the stream, if anybody asked for it.
    /// - Parameter element: the output.
    func yield(_ element: Element) {
        let continuation = state.withLock { $0.continuation }
        continuation?.yield(element)
    }

    /// Ends the stream.
    func finish() {
        let continuation = state.withLock { state -> AsyncStream<Element>.Continuation? in
            state.isFinished = true
            return state.continuation
        }
        continuation?.finish()
    }
}
