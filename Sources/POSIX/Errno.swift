#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `errno` value: the reason a system call failed.
///
/// A typed wrapper around the C library's integer, with names for the values StreamKit meets; any other
/// value is kept as it is (`Errno(rawValue: 75)`). Its ``description`` is the C library's text (`strerror`).
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C value, for example `ENOENT` (2 on Linux).
    public let rawValue: Int32

    /// Wraps a C `errno` value.
    /// - Parameter rawValue: the value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Wraps a C `errno` value.
    /// - Parameter rawValue: the value.
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno` right now (read it straight after the failed call).
    public static var current: Errno {
        Errno(errno)
    }

    /// The C library's text for the value, for example "No such file or directory" (`strerror`).
    public var description: String {
        guard let text = strerror(rawValue) else { return "unknown error \(rawValue)" }
        return String(cString: text)
    }

    /// `EPERM`: the operation is not permitted.
    public static let notPermitted = Errno(EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(ENOENT)
    /// `EINTR`: a signal interrupted the call (the POSIX layer retries these; see ``retryOnInterrupt(_:)``).
    public static let interrupted = Errno(EINTR)
    /// `EIO`: an input/output error.
    public static let ioError = Errno(EIO)
    /// `EBADF`: not an open descriptor (for example, used after ``FileDescriptor/close()``).
    public static let badFileDescriptor = Errno(EBADF)
    /// `EAGAIN` (also `EWOULDBLOCK` on Linux): a non-blocking call would have to wait.
    public static let wouldBlock = Errno(EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(EACCES)
    /// `EEXIST`: the file exists (an exclusive create).
    public static let fileExists = Errno(EEXIST)
    /// `ENOTDIR`: a path component is not a directory.
    public static let notADirectory = Errno(ENOTDIR)
    /// `EISDIR`: the path is a directory.
    public static let isADirectory = Errno(EISDIR)
    /// `EINVAL`: an invalid argument.
    public static let invalidArgument = Errno(EINVAL)
    /// `EMFILE`: this process has too many open descriptors.
    public static let tooManyOpenFiles = Errno(EMFILE)
    /// `ENOSPC`: no space left on the device.
    public static let noSpace = Errno(ENOSPC)
    /// `ESPIPE`: the descriptor cannot seek (a pipe or a socket).
    public static let illegalSeek = Errno(ESPIPE)
    /// `EPIPE`: the reading end of a pipe or socket is closed.
    public static let brokenPipe = Errno(EPIPE)
    /// `ENOTTY`: the device does not know this ioctl.
    public static let inappropriateIOControl = Errno(ENOTTY)
    /// `EINPROGRESS`: a non-blocking `connect` has started; wait until the socket is writable.
    public static let inProgress = Errno(EINPROGRESS)
    /// `EALREADY`: a non-blocking `connect` is already in progress.
    public static let alreadyInProgress = Errno(EALREADY)
    /// `EMSGSIZE`: the datagram is larger than the socket allows.
    public static let messageTooLong = Errno(EMSGSIZE)
    /// `EADDRINUSE`: the address is already in use.
    public static let addressInUse = Errno(EADDRINUSE)
    /// `EADDRNOTAVAIL`: the address is not one of this machine's.
    public static let addressNotAvailable = Errno(EADDRNOTAVAIL)
    /// `EAFNOSUPPORT`: the address family is not supported (IPv6 switched off, for example).
    public static let addressFamilyNotSupported = Errno(EAFNOSUPPORT)
    /// `ENETUNREACH`: the network is unreachable.
    public static let networkUnreachable = Errno(ENETUNREACH)
    /// `ECONNABORTED`: the connection was aborted (seen by `accept`).
    public static let connectionAborted = Errno(ECONNABORTED)
    /// `ECONNRESET`: the peer reset the connection.
    public static let connectionReset = Errno(ECONNRESET)
    /// `EISCONN`: the socket is already connected.
    public static let alreadyConnected = Errno(EISCONN)
    /// `ENOTCONN`: the socket is not connected.
    public static let notConnected = Errno(ENOTCONN)
    /// `ETIMEDOUT`: the connection timed out.
    public static let timedOut = Errno(ETIMEDOUT)
    /// `ECONNREFUSED`: nothing listens at that address.
    public static let connectionRefused = Errno(ECONNREFUSED)
    /// `EHOSTUNREACH`: no route to the host.
    public static let hostUnreachable = Errno(EHOSTUNREACH)
}
