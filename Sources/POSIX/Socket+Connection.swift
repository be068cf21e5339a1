#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXShims

/// Setting up a socket: bind, listen, accept, connect (blocking or not), shutdown.
extension Socket {
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

private func shutdownSocket(_ number: Int32, _ how: Int32) -> Int32 {
    shutdown(number, how)
}
