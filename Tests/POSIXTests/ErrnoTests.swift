import Glibc
import POSIX
import Testing

/// ``Errno`` names and texts against the C library, and the sentences ``SystemError`` makes of them.
@Suite struct ErrnoTests {
    static let named: [(Errno, Int32)] = [
        (.notPermitted, EPERM), (.noSuchFileOrDirectory, ENOENT), (.interrupted, EINTR), (.ioError, EIO),
        (.badFileDescriptor, EBADF), (.wouldBlock, EAGAIN), (.wouldBlock, EWOULDBLOCK), (.noMemory, ENOMEM),
        (.permissionDenied, EACCES), (.fileExists, EEXIST), (.notADirectory, ENOTDIR), (.isADirectory, EISDIR),
        (.invalidArgument, EINVAL), (.tooManyOpenFiles, EMFILE), (.noSpace, ENOSPC), (.illegalSeek, ESPIPE),
        (.brokenPipe, EPIPE), (.inappropriateIOControl, ENOTTY), (.inProgress, EINPROGRESS),
        (.alreadyInProgress, EALREADY), (.messageTooLong, EMSGSIZE), (.addressInUse, EADDRINUSE),
        (.addressNotAvailable, EADDRNOTAVAIL), (.addressFamilyNotSupported, EAFNOSUPPORT),
        (.networkUnreachable, ENETUNREACH), (.connectionAborted, ECONNABORTED), (.connectionReset, ECONNRESET),
        (.alreadyConnected, EISCONN), (.notConnected, ENOTCONN), (.timedOut, ETIMEDOUT), (.connectionRefused, ECONNREFUSED),
        (.hostUnreachable, EHOSTUNREACH),
    ]

    @Test("each name is the C constant and its text is strerror's")
    func namesAndTextsMatchTheCLibrary() {
        for (name, value) in Self.named {
            #expect(name.rawValue == value)
            #expect(name.description == String(cString: strerror(value)))
        }
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
        #expect(Errno.connectionRefused.description == "Connection refused")
        #expect(Errno(rawValue: 75) == Errno(EOVERFLOW))
    }

    @Test("Errno.current is the errno a failed call left")
    func currentErrno() {
        #expect(Glibc.close(-1) == -1)
        #expect(Errno.current == .badFileDescriptor)
        #expect(access("/nonexistent-streamkit", F_OK) == -1)
        #expect(Errno.current == .noSuchFileOrDirectory)
    }

    @Test("SystemError says what failed, on what, and why")
    func systemErrorSentences() {
        #expect(SystemError("open", errno: .noSuchFileOrDirectory, subject: "/x/y.h264").description
            == "cannot open /x/y.h264: No such file or directory")
        #expect(SystemError("open", errno: .permissionDenied, subject: "/root/secret").description
            == "cannot open /root/secret: Permission denied")
        #expect(SystemError("connect", errno: .connectionRefused, subject: "127.0.0.1:5004").description
            == "cannot connect to 127.0.0.1:5004: Connection refused")
        #expect(SystemError("sendto", errno: .messageTooLong, subject: "[::1]:5004").description
            == "cannot send to [::1]:5004: Message too long")
        #expect(SystemError("bind", errno: .addressInUse, subject: "0.0.0.0:554").description
            == "cannot bind 0.0.0.0:554: Address already in use")
        #expect(SystemError("epoll_wait", errno: .badFileDescriptor).description == "epoll_wait failed: Bad file descriptor")
    }
}
