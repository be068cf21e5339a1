#if os(Linux)
import CPOSIXShims
import Glibc

/// A wake-up another thread can send to a waiting ``Epoll`` or ``Poll`` (an `eventfd(2)` counter).
///
/// Register ``descriptor`` for ``EpollEvents/readable``; ``notify()`` from any thread makes it readable,
/// and the waiter calls ``reset()`` once woken. Notifications before the reset merge into one.
public final class EventNotifier: Sendable {
    /// The eventfd, non-blocking.
    public let descriptor: FileDescriptor

    /// Creates a notifier (`eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`).
    /// - Throws: ``SystemError`` (call `eventfd`): `EMFILE` when out of descriptors.
    public init() throws(SystemError) {
        let number = try systemCall("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        descriptor = FileDescriptor(adopting: number, label: "<eventfd>")
    }

    /// Wakes the waiter (adds 1 to the counter). Safe from any thread.
    /// - Throws: ``SystemError`` (call `write`): `EBADF` after ``close()``.
    public func notify() throws(SystemError) {
        var one: UInt64 = 1
        do {
            _ = try withUnsafeBytes(of: &one) { (bytes) throws(SystemError) in try descriptor.write(bytes) }
        } catch where error.errno == .wouldBlock {
            // The counter is at its maximum: a wake-up is already pending.
        }
    }

    /// Takes the pending wake-ups (reads and zeroes the counter).
    /// - Returns: how many ``notify()`` calls arrived since the last reset; 0 if none.
    /// - Throws: ``SystemError`` (call `read`): `EBADF` after ``close()``.
    @discardableResult
    public func reset() throws(SystemError) -> UInt64 {
        var count: UInt64 = 0
        do {
            _ = try withUnsafeMutableBytes(of: &count) { (bytes) throws(SystemError) in try descriptor.read(into: bytes) }
        } catch where error.errno == .wouldBlock {
            return 0
        }
        return count
    }

    /// Closes the eventfd.
    /// - Throws: ``SystemError`` (call `close`): `EBADF` when already closed.
    public func close() throws(SystemError) {
        try descriptor.close()
    }
}
#endif
