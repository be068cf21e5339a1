#if os(Linux)
import CPOSIXShims
import Glibc

/// What `epoll` waits for and reports (`EPOLLIN`, `EPOLLOUT` …), and how (`EPOLLET`, `EPOLLONESHOT`).
public struct EpollEvents: OptionSet, Sendable, Hashable {
    /// The `epoll_event.events` bits.
    public let rawValue: UInt32

    /// Events from `epoll` bits.
    /// - Parameter rawValue: the bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `EPOLLIN`: there is data to read, a connection to accept, or the peer closed.
    public static let readable = EpollEvents(rawValue: EPOLLIN.rawValue)
    /// `EPOLLPRI`: urgent data, or a device event.
    public static let priority = EpollEvents(rawValue: EPOLLPRI.rawValue)
    /// `EPOLLOUT`: a write would not block (a non-blocking `connect` has finished).
    public static let writable = EpollEvents(rawValue: EPOLLOUT.rawValue)
    /// `EPOLLERR` (always reported): an error is pending.
    public static let error = EpollEvents(rawValue: EPOLLERR.rawValue)
    /// `EPOLLHUP` (always reported): the other end hung up.
    public static let hangUp = EpollEvents(rawValue: EPOLLHUP.rawValue)
    /// `EPOLLRDHUP`: the peer shut down its writing half.
    public static let readHangUp = EpollEvents(rawValue: EPOLLRDHUP.rawValue)
    /// `EPOLLET`: edge-triggered: report a change once, not the state on every wait.
    public static let edgeTriggered = EpollEvents(rawValue: EPOLLET.rawValue)
    /// `EPOLLONESHOT`: report once, then stay quiet until ``Epoll/modify(_:events:token:)``.
    public static let oneShot = EpollEvents(rawValue: EPOLLONESHOT.rawValue)
}

/// An `epoll(7)` instance: the event loop's way to wait on many descriptors at once.
///
/// Register descriptors with a token of your choosing (``add(_:events:token:)``), then ``wait(into:maximumCount:timeout:)``
/// for the ones that are ready. To interrupt a wait from another thread, register an ``EventNotifier``
/// and call its ``EventNotifier/notify()``. Sendable: registering on one thread while another waits is
/// what `epoll` allows.
public final class Epoll: Sendable {
    /// One ready descriptor: its token and what happened.
    public struct Event: Sendable, Hashable {
        /// What happened.
        public var events: EpollEvents
        /// The token it was registered with.
        public var token: UInt64

        /// An event.
        /// - Parameters:
        ///   - events: what happened.
        ///   - token: the registration's token.
        public init(events: EpollEvents, token: UInt64) {
            self.events = events
            self.token = token
        }
    }

    /// The epoll descriptor itself.
    public let descriptor: FileDescriptor

    /// Creates an instance (`epoll_create1(EPOLL_CLOEXEC)`).
    /// - Throws: ``SystemError`` (call `epoll_create1`): `EMFILE` when out of descriptors.
    public init() throws(SystemError) {
        let number = try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        descriptor = FileDescriptor(adopting: number, label: "<epoll>")
    }

    /// Starts watching a descriptor (`EPOLL_CTL_ADD`).
    /// - Parameters:
    ///   - watched: the descriptor.
    ///   - events: what to report (errors and hang-ups are always reported).
    ///   - token: what ``Event/token`` will be for it (its number unless given).
    /// - Throws: ``SystemError`` (call `epoll_ctl`): `EEXIST` when already watched, `EBADF`, `EPERM` for a
    ///   regular file.
    public func add(_ watched: FileDescriptor, events: EpollEvents, token: UInt64? = nil) throws(SystemError) {
        try control(EPOLL_CTL_ADD, watched, events: events, token: token)
    }

    /// Changes what is reported for a watched descriptor (`EPOLL_CTL_MOD`); re-arms a ``EpollEvents/oneShot``.
    /// - Parameters:
    ///   - watched: the descriptor.
    ///   - events: what to report now.
    ///   - token: its token (its number unless given).
    /// - Throws: ``SystemError`` (call `epoll_ctl`): `ENOENT` when not watched.
    public func modify(_ watched: FileDescriptor, events: EpollEvents, token: UInt64? = nil) throws(SystemError) {
        try control(EPOLL_CTL_MOD, watched, events: events, token: token)
    }

    /// Stops watching a descriptor (`EPOLL_CTL_DEL`). Do it before closing the descriptor.
    /// - Parameter watched: the descriptor.
    /// - Throws: ``SystemError`` (call `epoll_ctl`): `ENOENT` when not watched.
    public func remove(_ watched: FileDescriptor) throws(SystemError) {
        try control(EPOLL_CTL_DEL, watched, events: [], token: nil)
    }

    private func control(_ operation: Int32, _ watched: FileDescriptor, events: EpollEvents, token: UInt64?) throws(SystemError) {
        let epoll = try descriptor.openNumber(for: "epoll_ctl")
        let number = try watched.openNumber(for: "epoll_ctl")
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token ?? UInt64(number)
        _ = try systemCall("epoll_ctl", on: watched.label) { epoll_ctl(epoll, operation, number, &event) }
    }

    /// Waits until watched descriptors are ready or the time is up (`epoll_wait`); on `EINTR` it waits
    /// again for the time that is left. Allocates nothing when `events` has the capacity.
    /// - Parameters:
    ///   - events: replaced by the ready descriptors (empty when the time ran out).
    ///   - maximumCount: the most events to take in one wait (at least 1).
    ///   - timeout: the longest wait; `nil` waits for ever, zero only looks.
    /// - Throws: ``SystemError`` (call `epoll_wait`): `EBADF` after ``close()``.
    public func wait(into events: inout [Event], maximumCount: Int = 64, timeout: Duration?) throws(SystemError) {
        let epoll = try descriptor.openNumber(for: "epoll_wait")
        let capacity = max(1, min(maximumCount, 1024))
        let deadline = WaitDeadline(timeout)
        events.removeAll(keepingCapacity: true)
        try withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: capacity) { (table) throws(SystemError) in
            let count = try systemCall("epoll_wait") {
                epoll_wait(epoll, table.baseAddress, Int32(capacity), deadline.remainingMilliseconds)
            }
            for index in 0..<Int(count) {
                events.append(Event(events: EpollEvents(rawValue: table[index].events), token: table[index].data.u64))
            }
        }
    }

    /// ``wait(into:maximumCount:timeout:)`` returning a new array.
    /// - Parameters:
    ///   - maximumCount: the most events to take.
    ///   - timeout: the longest wait; `nil` waits for ever.
    /// - Returns: the ready descriptors; empty when the time ran out.
    /// - Throws: ``SystemError`` (call `epoll_wait`).
    public func wait(maximumCount: Int = 64, timeout: Duration?) throws(SystemError) -> [Event] {
        var events: [Event] = []
        try wait(into: &events, maximumCount: maximumCount, timeout: timeout)
        return events
    }

    /// Closes the epoll descriptor.
    /// - Throws: ``SystemError`` (call `close`): `EBADF` when already closed.
    public func close() throws(SystemError) {
        try descriptor.close()
    }
}
#endif
