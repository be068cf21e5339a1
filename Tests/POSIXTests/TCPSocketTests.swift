import POSIX
import Testing

/// TCP on the loopback interface: a non-blocking connect finished through epoll readiness, accept, echo.
@Suite struct TCPSocketTests {
    static let families: [SocketAddress.Family] = Fixture.ipv6LoopbackAvailable ? [.ipv4, .ipv6] : [.ipv4]

    @Test("non-blocking connect + epoll: the client connects, the server accepts and echoes", arguments: families)
    func connectAcceptEcho(family: SocketAddress.Family) throws {
        let listener = try Socket(.tcp, family: family, nonBlocking: true)
        try listener.setOption(.reuseAddress, to: true)
        try listener.bind(to: .loopback(family, port: 0))
        try listener.listen()
        let address = try listener.localAddress()
        let client = try Socket(.tcp, family: family, nonBlocking: true)
        try client.setOption(.noDelay, to: true)
        #expect(try client.option(.noDelay))
        let epoll = try Epoll()
        var server: Socket?
        defer {
            try? server?.close()
            try? client.close()
            try? listener.close()
            try? epoll.close()
        }
        let listenerToken: UInt64 = 0xA000_0000_0000_0001, clientToken: UInt64 = 0xB000_0000_0000_0002
        let serverToken: UInt64 = 3
        try epoll.add(listener.descriptor, events: .readable, token: listenerToken)
        let outcome = try client.connect(to: address)
        try epoll.add(client.descriptor, events: .writable, token: clientToken)

        var sent = false
        var echoed: [UInt8] = []
        let message: [UInt8] = Array("OPTIONS rtsp://127.0.0.1/ RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8)
        var events: [Epoll.Event] = []
        var rounds = 0
        while echoed.count < message.count {
            rounds += 1
            try #require(rounds < 100, "no progress after 100 waits")
            try epoll.wait(into: &events, timeout: .seconds(5))
            try #require(!events.isEmpty, "nothing happened within 5 s")
            for event in events {
                switch event.token {
                case listenerToken:
                    guard let accepted = try listener.accept(nonBlocking: true) else { continue }
                    #expect(try accepted.peerAddress() == client.localAddress())
                    #expect(try accepted.localAddress() == address)
                    try epoll.add(accepted.descriptor, events: .readable, token: serverToken)
                    server = accepted
                case clientToken where !sent:
                    // Writable: the connection is made (or failed); SO_ERROR says which.
                    #expect(event.events.contains(.writable))
                    if outcome == .inProgress { try client.finishConnecting(to: address) }
                    #expect(try client.peerAddress() == address)
                    try message.withUnsafeBytes { try client.sendAll($0) }
                    sent = true
                    try epoll.modify(client.descriptor, events: .readable, token: clientToken)
                case clientToken:
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    if let count = try buffer.withUnsafeMutableBytes({ try client.receive(into: $0) }) {
                        echoed += buffer.prefix(count)
                    }
                case serverToken:
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    guard let server, let count = try buffer.withUnsafeMutableBytes({ try server.receive(into: $0) }),
                          count > 0 else { continue }
                    try buffer.withUnsafeBytes { try server.sendAll(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                default:
                    Issue.record("unknown token \(event.token)")
                }
            }
        }
        #expect(echoed == message)
        try epoll.remove(client.descriptor)

        // The client closes its sending half: the server reads the end of the stream (0).
        try client.shutdown(.write)
        let accepted = try #require(server)
        #expect(try accepted.descriptor.poll(for: .readable, timeout: .seconds(5)).contains(.readable))
        var byte: UInt8 = 0
        #expect(try withUnsafeMutableBytes(of: &byte) { try accepted.receive(into: $0) } == 0)
    }

    @Test("connecting where nothing listens is ECONNREFUSED naming the address, blocking and not")
    func connectionRefused() throws {
        let probe = try Socket(.tcp, family: .ipv4)
        try probe.bind(to: .loopback(.ipv4, port: 0))
        let address = try probe.localAddress()
        try probe.close() // the port is free again and nothing listens on it

        let blocking = try Socket(.tcp, family: .ipv4)
        defer { try? blocking.close() }
        let error = #expect(throws: SystemError.self) { try blocking.connect(to: address) }
        #expect(error == SystemError("connect", errno: .connectionRefused, subject: address.description))
        #expect(error?.description == "cannot connect to \(address): Connection refused")

        let nonBlocking = try Socket(.tcp, family: .ipv4, nonBlocking: true)
        defer { try? nonBlocking.close() }
        do {
            if try nonBlocking.connect(to: address) == .inProgress {
                let ready = try nonBlocking.descriptor.poll(for: .writable, timeout: .seconds(5))
                #expect(!ready.isEmpty)
                #expect(throws: SystemError("connect", errno: .connectionRefused, subject: address.description)) {
                    try nonBlocking.finishConnecting(to: address)
                }
            } else {
                Issue.record("a connect to a closed port succeeded")
            }
        } catch {
            #expect(error == SystemError("connect", errno: .connectionRefused, subject: address.description))
        }
    }

    @Test("a second bind to a listening port is EADDRINUSE naming the address")
    func addressInUse() throws {
        let first = try Socket(.tcp, family: .ipv4)
        defer { try? first.close() }
        try first.bind(to: .loopback(.ipv4, port: 0))
        try first.listen()
        let address = try first.localAddress()
        let second = try Socket(.tcp, family: .ipv4)
        defer { try? second.close() }
        let error = #expect(throws: SystemError.self) { try second.bind(to: address) }
        #expect(error?.errno == .addressInUse)
        #expect(error?.description == "cannot bind \(address): Address already in use")
    }

    @Test("a non-blocking accept with nobody waiting is nil")
    func acceptWithNobodyWaiting() throws {
        let listener = try Socket(.tcp, family: .ipv4, nonBlocking: true)
        defer { try? listener.close() }
        try listener.bind(to: .loopback(.ipv4, port: 0))
        try listener.listen(backlog: 4)
        #expect(try listener.accept() == nil)
    }
}
