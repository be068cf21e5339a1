import POSIX

/// A UDP socket on an ``EventLoop``: `async` send and receive of datagrams, IPv4 or IPv6.
///
/// ```swift
/// let socket = try UDPSocket(bindingTo: .loopback(.ipv4, port: 0), on: loop)
/// try await socket.send(packet, to: .loopback(.ipv4, port: 5004))
/// let datagram = try await socket.receive()
/// ```
public final class UDPSocket: Sendable {
    /// One received datagram and who sent it.
    public struct Datagram: Sendable, Hashable {
        /// The bytes.
        public var bytes: [UInt8]
        /// The sender's address.
        public var sender: SocketAddress

        /// A datagram.
        /// - Parameters:
        ///   - bytes: the bytes.
        ///   - sender: who sent them.
        public init(bytes: [UInt8], sender: SocketAddress) {
            self.bytes = bytes
            self.sender = sender
        }
    }

    /// The bound address (with the port the system chose for port 0).
    public let localAddress: SocketAddress
    /// The socket (non-blocking), for options such as ``POSIX/SocketOption/receiveBufferSize``.
    public let socket: Socket
    private let registration: IORegistration

    /// The largest datagram ``receive(maximumCount:)`` takes by default (a whole UDP payload).
    public static let largestDatagram = 65_535

    /// Binds a UDP socket (for IPv6, `IPV6_V6ONLY`).
    /// - Parameters:
    ///   - address: the local address; port 0 lets the system choose.
    ///   - loop: the loop that runs it.
    /// - Throws: ``TransportError/system(_:)`` (call `bind`: `EADDRINUSE`).
    public init(bindingTo address: SocketAddress, on loop: EventLoop) throws(TransportError) {
        do {
            socket = try Socket(.udp, family: address.family, nonBlocking: true)
            if address.family == .ipv6 { try socket.setOption(.ipv6Only, to: true) }
            try socket.bind(to: address)
            localAddress = try socket.localAddress()
        } catch {
            throw .system(error)
        }
        registration = try loop.register(socket.descriptor)
    }

    /// Sends one datagram, waiting while the socket's send buffer is full.
    /// - Parameters:
    ///   - bytes: the datagram.
    ///   - address: where to.
    /// - Throws: ``TransportError/system(_:)`` (call `sendto`: `EMSGSIZE`), ``TransportError/closed``.
    public func send(_ bytes: [UInt8], to address: SocketAddress) async throws(TransportError) {
        while true {
            var result: Result<Bool, TransportError> = .success(false)
            bytes.withUnsafeBytes { raw in
                result = Result { () throws(TransportError) in try trySend(raw, to: address) }
            }
            if try result.get() { return }
            try await registration.wait(for: .write)
        }
    }

    /// Sends one datagram if the socket can take it now; never waits (a live sender drops instead).
    /// - Parameters:
    ///   - bytes: the datagram.
    ///   - address: where to.
    /// - Returns: `false` when the send buffer is full (nothing was sent).
    /// - Throws: ``TransportError/system(_:)`` (call `sendto`), ``TransportError/closed``.
    public func trySend(_ bytes: UnsafeRawBufferPointer, to address: SocketAddress) throws(TransportError) -> Bool {
        if socket.descriptor.isClosed { throw .closed }
        do {
            return try socket.send(bytes, to: address) != nil
        } catch {
            throw .system(error)
        }
    }

    /// Waits for the next datagram.
    /// - Parameter maximumCount: the longest datagram kept; a longer one is cut.
    /// - Returns: the datagram.
    /// - Throws: ``TransportError/closed`` once ``close()`` is called, ``TransportError/cancelled``,
    ///   ``TransportError/system(_:)`` (call `recvfrom`: `ECONNREFUSED` after an ICMP error).
    public func receive(maximumCount: Int = largestDatagram) async throws(TransportError) -> Datagram {
        var buffer = [UInt8](repeating: 0, count: max(1, maximumCount))
        while true {
            if socket.descriptor.isClosed { throw .closed }
            var result: Result<(count: Int, sender: SocketAddress)?, SystemError> = .success(nil)
            buffer.withUnsafeMutableBytes { raw in
                result = Result { () throws(SystemError) in try socket.receiveDatagram(into: raw) }
            }
            let received: (count: Int, sender: SocketAddress)?
            do { received = try result.get() } catch { throw .system(error) }
            if let received {
                buffer.removeSubrange(received.count...)
                return Datagram(bytes: buffer, sender: received.sender)
            }
            try await registration.wait(for: .read)
        }
    }

    /// Closes the socket; a waiting ``receive(maximumCount:)`` ends with ``TransportError/closed``. Calling it again
    /// does nothing.
    public func close() {
        guard !socket.descriptor.isClosed else { return }
        registration.close()
        try? socket.close()
    }
}
