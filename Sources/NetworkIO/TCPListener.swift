import POSIX

/// A listening TCP socket on an ``EventLoop`` whose ``accept()`` waits without blocking a thread.
///
/// ```swift
/// let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 8554), on: loop)
/// while let connection = try? await listener.accept() { … }
/// ```
public final class TCPListener: Sendable {
    /// The address it listens on (with the port the system chose for port 0).
    public let localAddress: SocketAddress
    private let socket: Socket
    private let registration: IORegistration
    private let loop: EventLoop
    private let sendBufferCapacity: Int

    /// Binds and listens (`SO_REUSEADDR`; for IPv6, `IPV6_V6ONLY`).
    /// - Parameters:
    ///   - address: where to listen; port 0 lets the system choose.
    ///   - loop: the loop that runs it and its connections.
    ///   - backlog: how many connections may wait to be accepted.
    ///   - sendBufferCapacity: the send-buffer bound of each accepted ``TCPConnection``.
    /// - Throws: ``TransportError/system(_:)`` (call `bind`: `EADDRINUSE`).
    public init(bindingTo address: SocketAddress, on loop: EventLoop, backlog: Int32 = 128,
                sendBufferCapacity: Int = TCPConnection.defaultSendBufferCapacity) throws(TransportError) {
        do {
            socket = try Socket(.tcp, family: address.family, nonBlocking: true)
            try socket.setOption(.reuseAddress, to: true)
            if address.family == .ipv6 { try socket.setOption(.ipv6Only, to: true) }
            try socket.bind(to: address)
            try socket.listen(backlog: backlog)
            localAddress = try socket.localAddress()
        } catch {
            throw .system(error)
        }
        self.loop = loop
        self.sendBufferCapacity = sendBufferCapacity
        registration = try loop.register(socket.descriptor)
    }

    /// Waits for the next connection.
    /// - Returns: the connection, non-blocking, on the listener's loop.
    /// - Throws: ``TransportError/closed`` once ``close()`` is called, ``TransportError/cancelled``,
    ///   ``TransportError/system(_:)`` (call `accept`: `EMFILE`).
    public func accept() async throws(TransportError) -> TCPConnection {
        while true {
            let accepted: Socket?
            do {
                accepted = try socket.accept(nonBlocking: true)
            } catch where error.errno == .connectionAborted {
                continue
            } catch {
                if socket.descriptor.isClosed { throw .closed }
                throw .system(error)
            }
            if let accepted {
                let peer = (try? accepted.peerAddress()) ?? localAddress
                do {
                    return try TCPConnection(socket: accepted, remoteAddress: peer, loop: loop,
                                             sendBufferCapacity: sendBufferCapacity)
                } catch {
                    try? accepted.close()
                    throw error
                }
            }
            try await registration.wait(for: .read)
        }
    }

    /// Stops listening; a waiting ``accept()`` ends with ``TransportError/closed``. Calling it again does nothing.
    public func close() {
        guard !socket.descriptor.isClosed else { return }
        registration.close()
        try? socket.close()
    }
}
