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

    private init(accepted number: Int32, kind: Kind, family: SocketAddress.Family, peer: SocketAddress?) {
        descriptor = FileDescriptor(adopting: number, label: peer.map { "tcp \($0)" } ?? "tcp socket")
        self.kind = kind
        self.family = family
    }

    /// Binds the socket to a local address (`bind(2)`); port 0 lets the system choose (see ``localAddress()``).
    /// - Parameter address: the local address, for example `SocketAddress.any(.ipv4, port: 5004)`.
    /// - Throws: ``SystemError`` (call `bind`): `EADDRINUSE`, `EACCES` for a port below 1024,
    ///   `EADDRNOTAVAIL`.
    public func bind(to address: SocketAddress) throws(SystemError) {
        let number = try descriptor.openNumber(for: "bind")
        _ = try systemCall("bind", on: address.description) {
            address.withSocketAddress { pointer, length in bindSocket(number, pointer, length) }
        }
    }

    /// Starts accepting TCP connections (`listen(2)`).
    /// - Parameter backlog: how many connections may wait to be accepted.
    /// - Throws: ``SystemError`` (call `listen`): `EADDRINUSE`, `EOPNOTSUPP` for UDP.
    public func listen(backlog: Int32 = 128) throws(SystemError) {
        let number = try descriptor.openNumber(for: "listen")
        _ = try systemCall("listen", on: descriptor.label) { listenSocket(number, backlog) }
    }

    /// Accepts a waiting TCP connection (`accept4(2)` with `SOCK_CLOEXEC`).
    /// - Parameter nonBlocking: whether the new socket is non-blocking.
    /// - Returns: the connection, or `nil` when this socket is non-blocking and none is waiting.
    /// - Throws: ``SystemError`` (call `accept`): `ECONNABORTED`, `EMFILE`.
    public func accept(nonBlocking: Bool = false) throws(SystemError) -> Socket? {
        let number = try descriptor.openNumber(for: "accept")
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        var result: Result<Int32, Errno> = .success(-1)
        let (_, peer) = SocketAddress.filling { pointer, length in
            result = retryOnInterrupt { cposix_accept4(number, pointer, length, flags) }
        }
        switch result {
        case let .success(accepted): return Socket(accepted: accepted, kind: kind, family: family, peer: peer)
        case .failure(.wouldBlock): return nil
        case let .failure(code): throw SystemError("accept", errno: code, subject: descriptor.label)
        }
    }

    /// Connects to a remote address (`connect(2)`); for UDP it sets the default destination and filter.
    /// - Parameter address: the remote address.
    /// - Returns: ``ConnectOutcome/connected``, or ``ConnectOutcome/inProgress`` for a non-blocking TCP socket
    ///   (or a blocking one whose connect a signal interrupted).
    /// - Throws: ``SystemError`` (call `connect`), for example
    ///   "cannot connect to 127.0.0.1:1: Connection refused".
    public func connect(to address: SocketAddress) throws(SystemError) -> ConnectOutcome {
        let number = try descriptor.openNumber(for: "connect")
        let result = retryOnInterrupt { address.withSocketAddress { connectSocket(number, $0, $1) } }
        switch result {
        // EINTR was retried above: a retried connect that finished meanwhile says EISCONN, one still
        // under way says EALREADY (then, even on a blocking socket, wait for writability).
        case .success, .failure(.alreadyConnected): return .connected
        case .failure(.inProgress), .failure(.alreadyInProgress): return .inProgress
        case let .failure(code): throw SystemError("connect", errno: code, subject: address.description)
        }
    }

    /// Completes a non-blocking connect once the socket is writable: reads its outcome (`SO_ERROR`).
    /// - Parameter address: the address given to ``connect(to:)``, for the error.
    /// - Throws: ``SystemError`` (call `connect`) with the reason it failed, for example `ECONNREFUSED`.
    public func finishConnecting(to address: SocketAddress) throws(SystemError) {
        let code = try option(.pendingError)
        guard code == 0 else { throw SystemError("connect", errno: Errno(Int32(code)), subject: address.description) }
    }

    /// Sends bytes on a connected socket (`send(2)`, `MSG_NOSIGNAL`); TCP may send fewer than given.
    /// - Parameter bytes: the bytes (one datagram for UDP).
    /// - Returns: how many were sent, or `nil` when non-blocking and the send buffer is full.
    /// - Throws: ``SystemError`` (call `send`): `EPIPE`, `ECONNRESET`, `EMSGSIZE`, `ECONNREFUSED` (UDP).
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        let number = try descriptor.openNumber(for: "send")
        return try nilWhenWouldBlock("send") {
            sendBytes(number, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        }
    }

    /// Sends every byte on a connected TCP socket, waiting (`poll`) while a non-blocking socket is full.
    /// - Parameter bytes: the bytes.
    /// - Throws: ``SystemError`` (call `send`): `EPIPE`, `ECONNRESET`.
    public func sendAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var rest = bytes
        while !rest.isEmpty {
            guard let sent = try send(rest) else {
                _ = try descriptor.poll(for: .writable, timeout: nil)
                continue
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[sent...])
        }
    }

    /// Receives bytes on a connected socket (`recv(2)`).
    /// - Parameter buffer: where to put them; for UDP, a datagram longer than the buffer is cut.
    /// - Returns: how many arrived (0: the TCP peer closed its end), or `nil` when non-blocking and nothing is there.
    /// - Throws: ``SystemError`` (call `recv`): `ECONNRESET`, `ECONNREFUSED` (UDP, after an ICMP error).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        let number = try descriptor.openNumber(for: "recv")
        return try nilWhenWouldBlock("recv") { recv(number, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sends one datagram to an address (`sendto(2)`, `MSG_NOSIGNAL`).
    /// - Parameters:
    ///   - bytes: the datagram.
    ///   - address: where to.
    /// - Returns: how many bytes were sent, or `nil` when non-blocking and the send buffer is full.
    /// - Throws: ``SystemError`` (call `sendto`): `EMSGSIZE`, `ENETUNREACH`, `EAFNOSUPPORT` for the other family.
    public func send(_ bytes: UnsafeRawBufferPointer, to address: SocketAddress) throws(SystemError) -> Int? {
        let number = try descriptor.openNumber(for: "sendto")
        return try nilWhenWouldBlock("sendto", on: address.description) {
            address.withSocketAddress { sendto(number, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
    }

    /// Receives one datagram and who sent it (`recvfrom(2)`).
    /// - Parameter buffer: where to put it; a longer datagram is cut to the buffer.
    /// - Returns: the byte count and the sender, or `nil` when non-blocking and nothing is there.
    /// - Throws: ``SystemError`` (call `recvfrom`).
    public func receiveDatagram(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> (count: Int, sender: SocketAddress)? {
        let number = try descriptor.openNumber(for: "recvfrom")
        var result: Result<Int, Errno> = .success(0)
        let (_, sender) = SocketAddress.filling { pointer, length in
            result = retryOnInterrupt { recvfrom(number, buffer.baseAddress, buffer.count, 0, pointer, length) }
        }
        switch result {
        case let .success(count):
            guard let sender else { throw SystemError("recvfrom", errno: .addressFamilyNotSupported, subject: descriptor.label) }
            return (count, sender)
        case .failure(.wouldBlock): return nil
        case let .failure(code): throw SystemError("recvfrom", errno: code, subject: descriptor.label)
        }
    }

    /// Ends one or both halves of a TCP connection (`shutdown(2)`).
    /// - Parameter direction: which half.
    /// - Throws: ``SystemError`` (call `shutdown`): `ENOTCONN`.
    public func shutdown(_ direction: Direction) throws(SystemError) {
        let number = try descriptor.openNumber(for: "shutdown")
        let how: Int32
        switch direction {
        case .read: how = Int32(SHUT_RD)
        case .write: how = Int32(SHUT_WR)
        case .both: how = Int32(SHUT_RDWR)
        }
        _ = try systemCall("shutdown", on: descriptor.label) { shutdownSocket(number, how) }
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

    private func nilWhenWouldBlock(_ call: String, on subject: String? = nil, _ body: () -> Int) throws(SystemError) -> Int? {
        switch retryOnInterrupt(body) {
        case let .success(count): return count
        case .failure(.wouldBlock): return nil
        case let .failure(code): throw SystemError(call, errno: code, subject: subject ?? descriptor.label)
        }
    }
}

// The C calls, named apart from the methods of the same name.
private func bindSocket(_ number: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(number, address, length)
}

private func listenSocket(_ number: Int32, _ backlog: Int32) -> Int32 {
    listen(number, backlog)
}

private func connectSocket(_ number: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(number, address, length)
}

private func sendBytes(_ number: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(number, bytes, count, flags)
}

private func shutdownSocket(_ number: Int32, _ how: Int32) -> Int32 {
    shutdown(number, how)
}
