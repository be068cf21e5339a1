/// A system call failed: which call, on what (a path or an address), and the ``Errno`` it reported.
///
/// Its ``description`` is a sentence for the user, for example
/// `cannot open /x/y.h264: No such file or directory`.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C call that failed, for example `open`, `read`, `connect`, `epoll_wait`.
    public var call: String
    /// Why it failed.
    public var errno: Errno
    /// What it was made on: the file path, the socket address, or a label such as `<stdin>`; `nil` when
    /// nothing names it.
    public var subject: String?

    /// Creates an error.
    /// - Parameters:
    ///   - call: the C call that failed.
    ///   - errno: the reason.
    ///   - subject: the path, address or label it was made on, if any.
    public init(_ call: String, errno: Errno, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// For example `cannot open /x/y.h264: No such file or directory`, `cannot connect to 127.0.0.1:5004:
    /// Connection refused`, or `epoll_wait failed: Bad file descriptor` when there is no subject.
    public var description: String {
        guard let subject else { return "\(call) failed: \(errno)" }
        switch call {
        case "connect", "sendto", "send":
            return "cannot \(call == "connect" ? "connect" : "send") to \(subject): \(errno)"
        case "recvfrom", "recv":
            return "cannot receive from \(subject): \(errno)"
        default:
            return "cannot \(call) \(subject): \(errno)"
        }
    }
}
