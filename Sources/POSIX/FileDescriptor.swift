#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An open file descriptor that closes exactly once.
///
/// A reference type because a descriptor is a resource, not a value: every holder of the object shares
/// the one descriptor. ``close()`` releases it and reports the failure; calling it again throws `EBADF`
/// instead of closing whatever file has since been given the same number. A descriptor nobody closed is
/// closed when the last reference goes away (errors there can only be dropped, so prefer ``close()``).
///
/// Sendable: the number is held atomically, so one thread can close while another reads; a call racing
/// a close either runs on the still-open descriptor or fails with `EBADF`. As with any descriptor, close
/// only once no thread is still inside a call on it, or that call may reach a file opened later.
public final class FileDescriptor: Sendable {
    /// The path it was opened with, or a label given for it (`<stdin>`, `udp 127.0.0.1:5004`), for errors.
    public let label: String?
    /// Whether ``close()`` and deinitialization close the number (`false` for a borrowed descriptor such
    /// as standard output).
    public let isOwned: Bool
    private let number: Atomic<Int32>

    /// Takes ownership of a descriptor number: ``close()`` or deinitialization will close it.
    /// - Parameters:
    ///   - rawValue: an open descriptor (from a C call this layer does not wrap).
    ///   - label: a path or name for error messages.
    public init(adopting rawValue: Int32, label: String? = nil) {
        self.label = label
        self.isOwned = true
        self.number = Atomic(rawValue)
    }

    /// Uses a descriptor someone else owns (standard input, output and error): ``close()`` only stops
    /// this object from using it, and deinitialization leaves it open.
    /// - Parameters:
    ///   - rawValue: an open descriptor.
    ///   - label: a name for error messages, such as `<stdout>`.
    public init(borrowing rawValue: Int32, label: String? = nil) {
        self.label = label
        self.isOwned = false
        self.number = Atomic(rawValue)
    }

    deinit {
        let last = number.exchange(-1, ordering: .acquiringAndReleasing)
        if isOwned && last >= 0 { _ = systemClose(last) }
    }

    /// The descriptor number, or -1 once closed. Valid only while this object is alive and open.
    public var rawValue: Int32 {
        number.load(ordering: .acquiring)
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool {
        rawValue < 0
    }

    /// Closes the descriptor (if owned) and marks it closed.
    ///
    /// `EINTR` is not retried: Linux has released the number by then, and closing again could close a
    /// descriptor another thread just opened; it counts as closed.
    /// - Throws: ``SystemError`` (call `close`): `EBADF` when already closed, else what `close(2)`
    ///   reported (`EIO`: data written earlier may not have reached the file).
    public func close() throws(SystemError) {
        let last = number.exchange(-1, ordering: .acquiringAndReleasing)
        guard last >= 0 else { throw SystemError("close", errno: .badFileDescriptor, subject: label) }
        guard isOwned, systemClose(last) != 0 else { return }
        let code = Errno.current
        if code != .interrupted { throw SystemError("close", errno: code, subject: label) }
    }

    /// The open number for a call, or `EBADF` naming that call once closed.
    /// - Parameter call: the C call about to be made.
    /// - Returns: the number.
    /// - Throws: ``SystemError`` with `EBADF` after ``close()``.
    @usableFromInline
    func openNumber(for call: String) throws(SystemError) -> Int32 {
        let value = rawValue
        guard value >= 0 else { throw SystemError(call, errno: .badFileDescriptor, subject: label) }
        return value
    }
}

/// `close(2)`, named apart from ``FileDescriptor/close()``.
private func systemClose(_ number: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(number)
    #else
    Darwin.close(number)
    #endif
}
