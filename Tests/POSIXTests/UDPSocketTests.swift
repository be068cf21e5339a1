import POSIX
import Testing

/// UDP on the loopback interface, IPv4 and IPv6, ports chosen by the system.
@Suite struct UDPSocketTests {
    static let families: [SocketAddress.Family] = Fixture.ipv6LoopbackAvailable ? [.ipv4, .ipv6] : [.ipv4]

    @Test("a datagram goes from one bound socket to another and names its sender", arguments: families)
    func sendAndReceive(family: SocketAddress.Family) throws {
        let receiver = try Socket(.udp, family: family)
        let sender = try Socket(.udp, family: family)
        defer { try? receiver.close(); try? sender.close() }
        try receiver.bind(to: .loopback(family, port: 0))
        try sender.bind(to: .loopback(family, port: 0))
        let destination = try receiver.localAddress()
        #expect(destination.port != 0, "bind to port 0 chose a port")
        #expect(destination.host == (family == .ipv4 ? "127.0.0.1" : "::1"))

        let payload: [UInt8] = Array("RTP packet over \(family)".utf8)
        let sent = try payload.withUnsafeBytes { try sender.send($0, to: destination) }
        #expect(sent == payload.count)
        #expect(try receiver.descriptor.poll(for: .readable, timeout: .seconds(5)).contains(.readable))
        var buffer = [UInt8](repeating: 0, count: 2048)
        let received = try #require(try buffer.withUnsafeMutableBytes { try receiver.receiveDatagram(into: $0) })
        #expect(Array(buffer.prefix(received.count)) == payload)
        #expect(received.sender == (try sender.localAddress()))
    }

    @Test("connected UDP: send and receive without addresses; an empty non-blocking socket gives nil", arguments: families)
    func connectedAndNonBlocking(family: SocketAddress.Family) throws {
        let a = try Socket(.udp, family: family, nonBlocking: true)
        let b = try Socket(.udp, family: family, nonBlocking: true)
        defer { try? a.close(); try? b.close() }
        try a.bind(to: .loopback(family, port: 0))
        try b.bind(to: .loopback(family, port: 0))
        #expect(try a.descriptor.isNonBlocking())
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try buffer.withUnsafeMutableBytes { try a.receive(into: $0) } == nil, "EAGAIN is nil")
        #expect(try buffer.withUnsafeMutableBytes { try a.receiveDatagram(into: $0) } == nil)
        #expect(try a.connect(to: b.localAddress()) == .connected)
        #expect(try b.connect(to: a.localAddress()) == .connected)
        #expect(try a.peerAddress() == b.localAddress())
        #expect(try [UInt8]([1, 2, 3]).withUnsafeBytes { try a.send($0) } == 3)
        #expect(try b.descriptor.poll(for: .readable, timeout: .seconds(5)).contains(.readable))
        #expect(try buffer.withUnsafeMutableBytes { try b.receive(into: $0) } == 3)
        #expect(buffer.prefix(3) == [1, 2, 3])
    }

    @Test("buffer sizes and switches are set and read back with setsockopt/getsockopt")
    func options() throws {
        let socket = try Socket(.udp, family: .ipv4)
        defer { try? socket.close() }
        try socket.setOption(.receiveBufferSize, to: 256 << 10)
        try socket.setOption(.sendBufferSize, to: 128 << 10)
        // socket(7): Linux caps the value at net.core.rmem_max/wmem_max, then doubles it for its bookkeeping.
        let receiveMaximum = try Fixture.sysctl("net/core/rmem_max"), sendMaximum = try Fixture.sysctl("net/core/wmem_max")
        #expect(try socket.option(.receiveBufferSize) == 2 * min(256 << 10, receiveMaximum))
        #expect(try socket.option(.sendBufferSize) == 2 * min(128 << 10, sendMaximum))
        #expect(try socket.option(.reuseAddress) == false)
        try socket.setOption(.reuseAddress, to: true)
        #expect(try socket.option(.reuseAddress))
        #expect(throws: SystemError.self) { try socket.setOption(.noDelay, to: true) }
    }

    @Test("sending IPv4 to an IPv6 destination on an IPv4 socket is a typed error naming the address")
    func wrongFamily() throws {
        guard Fixture.ipv6LoopbackAvailable else { return }
        let socket = try Socket(.udp, family: .ipv4)
        defer { try? socket.close() }
        let error = #expect(throws: SystemError.self) { try [UInt8(0)].withUnsafeBytes { try socket.send($0, to: .loopback(.ipv6, port: 9)) } }
        #expect(error?.call == "sendto")
        #expect(error?.subject == "[::1]:9")
    }
}
