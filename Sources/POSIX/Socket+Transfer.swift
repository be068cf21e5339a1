#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPOSIXShims

/// Moving bytes: send and receive on a connected socket, datagrams to and from addresses.
extension Socket {
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

    /// Runs a send or receive call: its count, `nil` for `EAGAIN`, or a ``SystemError`` naming it.
    private func nilWhenWouldBlock(_ call: String, on subject: String? = nil, _ body: () -> Int) throws(SystemError) -> Int? {
        switch retryOnInterrupt(body) {
        case let .success(count): return count
        case .failure(.wouldBlock): return nil
        case let .failure(code): throw SystemError(call, errno: code, subject: subject ?? descriptor.label)
        }
    }
}

/// `send(2)`, named apart from ``Socket/send(_:)``.
private func sendBytes(_ number: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(number, bytes, count, flags)
}
