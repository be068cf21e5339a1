#if canImport(Glibc)
import Glibc
#endif
import POSIX

/// The event loop's own thread (a joinable `pthread`), running one closure.
struct LoopThread: @unchecked Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// The thread; `@unchecked Sendable` because `pthread_t` is a plain handle.
    let handle: pthread_t

    /// Starts a thread running `body`.
    /// - Parameter body: what the thread runs; the thread ends when it returns.
    /// - Throws: ``SystemError`` (call `pthread_create`): `EAGAIN` when out of threads.
    init(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard code == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SystemError("pthread_create", errno: Errno(code), subject: "event loop")
        }
        handle = thread
    }

    /// Whether the calling thread is this thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), handle) != 0 }

    /// Waits for the thread to end (`pthread_join`).
    func join() {
        _ = pthread_join(handle, nil)
    }
}
