#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXShims

/// A UDP or TCP socket over IPv4 or IPv6, blocking or not.
///
/// Owns its descriptor (``descriptor``): ``close()`` or deinitialization closes it once. Calls that would
/// wait on a non-blocking socket return `nil` (`EAGAIN`) instead of throwing; every other failure is a
/// ``SystemError`` naming the call and the address. Writes pass `MSG_NOSIGNAL`, so a closed peer is an
/// `EPIPE` error, not a `SIGPIPE` that kills the process.
public final class Socket: Sendable {
    /// The transport protocol.
    public enum Kind: Sendable, Hashable {
        /// UDP datagrams (`SOCK_DGRAM`).
        case udp
        /// A TCP byte stream (`SOCK_STREAM`).
        case tcp

        var type: Int32 {
            switch self {
            case .udp: Int32(SOCK_DGRAM.rawValue)
            case .tcp: Int32(SOCK_STREAM.rawValue)
            }
        }

        var protocolNumber: Int32 {
            switch self {
            case .udp: Int32(IPPROTO_UDP)
            case .tcp: Int32(IPPROTO_TCP)
            }
        }
    }

    /// How a non-blocking ``connect(to:)`` went.
    public enum ConnectOutcome: Sendable, Hashable {
        /// Connected already (always, for a blocking socket; at once, for a UDP socket).
        case connected
        /// `EINPROGRESS`: wait until the socket is writable, then call ``finishConnecting(to:)``.
        case inProgress
    }

    /// Which half of a TCP connection ``shutdown(_:)`` ends.
    public enum Direction: Sendable, Hashable {
        /// `SHUT_RD`: no more receiving.
        case read
        /// `SHUT_WR`: no more sending; the peer reads the end of the stream.
        case write
        /// `SHUT_RDWR`: both.
        case both
    }

    /// The socket's descriptor (for ``Epoll`` and ``Poll``).
    public let descriptor: FileDescriptor
    /// UDP or TCP.
    public let kind: Kind
    /// IPv4 or IPv6.
    public let family: SocketAddress.Family

    /// Creates a socket (`socket(2)` with `SOCK_CLOEXEC`).
    /// - Parameters:
    ///   - kind: UDP or TCP.
    ///   - family: IPv4 or IPv6.
    ///   - nonBlocking: whether calls that would wait return at once (`SOCK_NONBLOCK`).
    /// - Throws: ``SystemError`` (call `socket`): `EAFNOSUPPORT` where IPv6 is switched off, `EMFILE`.
    public init(_ kind: Kind, family: SocketAddress.Family, nonBlocking: Bool = false) throws(SystemError) {
        let type = kind.type | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let label = "\(kind) socket"
        let number = try systemCall("socket", on: label) { socket(family.rawValue, type, kind.protocolNumber) }
        descriptor = FileDescriptor(adopting: number, label: label)
        self.kind = kind
        self.family = family
    }

    /// Wraps a descriptor `accept4` returned.
    init(accepted number: Int32, kind: Kind, family: SocketAddress.Family, peer: SocketAddress?) {
        descriptor = FileDescriptor(adopting: number, label: peer.map { "tcp \($0)" } ?? "tcp socket")
        self.kind = kind
        self.family = family
    }

    /// The address the socket is bound to (`getsockname(2)`): the port the system chose for port 0.
    /// - Returns: the local address.
    /// - Throws: ``SystemError`` (call `getsockname`).
    public func localAddress() throws(SystemError) -> SocketAddress {
        let number = try descriptor.openNumber(for: "getsockname")
        return try filledAddress("getsockname") { getsockname(number, $0, $1) }
    }

    /// The address of the connected peer (`getpeername(2)`).
    /// - Returns: the remote address.
    /// - Throws: ``SystemError`` (call `getpeername`): `ENOTCONN` when not connected.
    public func peerAddress() throws(SystemError) -> SocketAddress {
        let number = try descriptor.openNumber(for: "getpeername")
        return try filledAddress("getpeername") { getpeername(number, $0, $1) }
    }

    /// Closes the socket.
    /// - Throws: ``SystemError`` (call `close`): `EBADF` when already closed.
    public func close() throws(SystemError) {
        try descriptor.close()
    }

    private func filledAddress(_ call: String, _ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32)
        throws(SystemError) -> SocketAddress {
        var result: Result<Int32, Errno> = .success(0)
        let (_, address) = SocketAddress.filling { pointer, length in result = retryOnInterrupt { body(pointer, length) } }
        if case let .failure(code) = result { throw SystemError(call, errno: code, subject: descriptor.label) }
        guard let address else { throw SystemError(call, errno: .addressFamilyNotSupported, subject: descriptor.label) }
        return address
    }
}
