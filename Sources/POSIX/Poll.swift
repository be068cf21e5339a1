#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `poll(2)` waits for and reports (`POLLIN`, `POLLOUT` …).
public struct PollEvents: OptionSet, Sendable, Hashable {
    /// The `events`/`revents` bits.
    public let rawValue: Int16

    /// Events from `poll(2)` bits.
    /// - Parameter rawValue: the bits.
    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// `POLLIN`: there is data to read (or a connection to accept, or the peer closed).
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// `POLLPRI`: urgent data, or a device event.
    public static let priority = PollEvents(rawValue: Int16(POLLPRI))
    /// `POLLOUT`: a write would not block (a non-blocking `connect` has finished).
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// `POLLERR` (reported only): an error is pending on the descriptor.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// `POLLHUP` (reported only): the other end hung up.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// `POLLNVAL` (reported only): the descriptor is not open.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// One descriptor of a ``Poll/wait(_:timeout:)`` call: what to wait for, and what happened.
public struct PollEntry: Sendable {
    /// The descriptor to watch.
    public var descriptor: FileDescriptor
    /// What to wait for.
    public var events: PollEvents
    /// What `poll` reported for it (empty until the wait, and when nothing happened).
    public var returnedEvents: PollEvents = []

    /// An entry to wait on.
    /// - Parameters:
    ///   - descriptor: the descriptor.
    ///   - events: what to wait for.
    public init(_ descriptor: FileDescriptor, events: PollEvents) {
        self.descriptor = descriptor
        self.events = events
    }
}

/// `poll(2)`: waits until one of a few descriptors is ready. For many descriptors, or a loop that runs
/// for the life of a connection, use ``Epoll``.
public enum Poll {
    /// Waits until one of the descriptors is ready, the time is up, or (on `EINTR`) retries with the time
    /// that is left.
    /// - Parameters:
    ///   - entries: the descriptors and what to wait for; each entry's ``PollEntry/returnedEvents`` is set.
    ///   - timeout: the longest wait; `nil` waits for ever, zero only looks.
    /// - Returns: how many entries have events; 0 when the time ran out.
    /// - Throws: ``SystemError`` (call `poll`), or `EBADF` for a closed descriptor.
    @discardableResult
    public static func wait(_ entries: inout [PollEntry], timeout: Duration?) throws(SystemError) -> Int {
        var table: [pollfd] = []
        table.reserveCapacity(entries.count)
        for entry in entries {
            table.append(pollfd(fd: try entry.descriptor.openNumber(for: "poll"), events: entry.events.rawValue, revents: 0))
        }
        let deadline = WaitDeadline(timeout)
        let count = try systemCall("poll") { poll(&table, nfds_t(table.count), deadline.remainingMilliseconds) }
        for index in entries.indices { entries[index].returnedEvents = PollEvents(rawValue: table[index].revents) }
        return Int(count)
    }
}

extension FileDescriptor {
    /// Waits until this descriptor is ready (`poll(2)` on it alone).
    /// - Parameters:
    ///   - events: what to wait for, for example ``PollEvents/readable``.
    ///   - timeout: the longest wait; `nil` waits for ever, zero only looks.
    /// - Returns: what happened; empty when the time ran out.
    /// - Throws: ``SystemError`` (call `poll`), `EBADF` after ``close()``.
    public func poll(for events: PollEvents, timeout: Duration?) throws(SystemError) -> PollEvents {
        var entries = [PollEntry(self, events: events)]
        try Poll.wait(&entries, timeout: timeout)
        return entries[0].returnedEvents
    }
}
