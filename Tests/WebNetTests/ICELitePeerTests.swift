import Foundation
import POSIX
import Synchronization
import Testing
import TestSupport
import Transport

@Suite("STUN and ICE-lite against aioice", .needsRealTime)
struct ICELitePeerTests {
    @Test("aioice parses the Binding success we write (XOR-MAPPED-ADDRESS, integrity, fingerprint) and we parse its request",
          .enabled(if: PythonPeers.isRunnable("aioice")))
    func stunInterop() async throws {
        let transactionID: [UInt8] = (0..<12).map { UInt8($0 * 17 + 3) }
        let ours = STUNMessage(type: .bindingSuccess, transactionID: transactionID, attributes: [
            .xorMappedAddress(STUNAddress(address: [127, 0, 0, 1], port: 50_123), transactionID: transactionID), .software("StreamKit"),
        ]).serialized(integrityKey: Array("0123456789abcdefghijkl".utf8), addingFingerprint: true)
        let ours6 = STUNMessage(type: .bindingError, transactionID: transactionID, attributes: [
            .errorCode(487, reason: "Role Conflict"),
            .xorMappedAddress(STUNAddress(address: [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1], port: 9), transactionID: transactionID),
        ]).serialized(integrityKey: Array("0123456789abcdefghijkl".utf8), addingFingerprint: true)
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        let script = """
        import sys
        from aioice import stun
        key = b"0123456789abcdefghijkl"
        out = []
        for h in sys.argv[1:3]:
            m = stun.parse_message(bytes.fromhex(h))
            out.append(f"{m.message_method.name} {m.message_class.name} {m.transaction_id.hex()} {m.attributes.get('XOR-MAPPED-ADDRESS')} {m.attributes.get('ERROR-CODE')} {m.check_message_integrity(key)}")
        req = stun.Message(message_method=stun.Method.BINDING, message_class=stun.Class.REQUEST, transaction_id=bytes(range(12)))
        req.attributes["USERNAME"] = "ours:theirs"
        req.attributes["PRIORITY"] = 1853824767
        req.attributes["ICE-CONTROLLING"] = 0x1122334455667788
        req.attributes["USE-CANDIDATE"] = None
        req.add_message_integrity(key)
        out.append(bytes(req).hex())
        print("\\n".join(out))
        """
        let output = try await PythonPeers.run(script, [hex(ours), hex(ours6)])
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        #expect(lines[0] == "BINDING RESPONSE \(hex(transactionID)) ('127.0.0.1', 50123) None True")
        #expect(lines[1] == "BINDING ERROR \(hex(transactionID)) ('2001:db8::1', 9) (487, 'Role Conflict') True")
        let bytes = stride(from: 0, to: lines[2].count, by: 2).compactMap { index -> UInt8? in
            let start = lines[2].index(lines[2].startIndex, offsetBy: index)
            return UInt8(lines[2][start..<lines[2].index(start, offsetBy: 2)], radix: 16)
        }
        let theirs = try STUNMessage(parsing: bytes)
        #expect(theirs.type == .bindingRequest)
        #expect(theirs.transactionID == Array(0..<12))
        #expect(theirs.username == "ours:theirs")
        #expect(theirs.priority == 1_853_824_767)
        #expect(theirs.iceControlling == 0x1122_3344_5566_7788)
        #expect(theirs.hasUseCandidate)
        #expect(theirs.hasValidIntegrity(key: Array("0123456789abcdefghijkl".utf8)))
        #expect(theirs.hasValidFingerprint == true)
    }

    /// Runs aioice as the controlling full agent against our lite agent on 127.0.0.1; returns its last line.
    private func runAioice(agentPort: UInt16, credentials: ICECredentials, password: String) async throws -> String {
        let script = """
        import asyncio, sys, aioice
        from aioice import Candidate
        aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]
        async def main():
            port, ufrag, pwd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
            conn = aioice.Connection(ice_controlling=True, components=1, use_ipv6=False,
                                     local_username="pyuf", local_password="p" * 22)
            conn.remote_is_lite = True
            conn.remote_username = ufrag
            conn.remote_password = pwd
            await conn.gather_candidates()
            await conn.add_remote_candidate(Candidate(foundation="1", component=1, transport="udp", priority=2130706431,
                                                      host="127.0.0.1", port=port, type="host"))
            await conn.add_remote_candidate(None)
            try:
                await asyncio.wait_for(conn.connect(), 10)
            except Exception as e:
                print("failed", type(e).__name__); await conn.close(); return
            await conn.send(bytes([0x80, 0x60]) + b"rtp-from-aioice")
            await conn.send(bytes([0x16, 0xfe, 0xfd]) + b"dtls-from-aioice")
            data = await asyncio.wait_for(conn.recv(), 5)
            print("connected", data.decode("latin-1"))
            await conn.close()
        asyncio.run(main())
        """
        let output = try await PythonPeers.run(script, [String(agentPort), credentials.userFragment, password], seconds: 40)
        return output.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test("aioice (controlling, full) connects to our ICE-lite agent: checks answered, the pair nominated, RTP and DTLS handed on, media back",
          .enabled(if: PythonPeers.isRunnable("aioice")))
    func aioiceConnects() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let socket = try UDPSocket(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { socket.close() }
        let credentials = ICECredentials.random()
        let (stream, sink) = AsyncStream.makeStream(of: (MultiplexedPacketKind, [UInt8]).self)
        let agent = ICELiteAgent(socket: socket, local: credentials, remoteUserFragment: "pyuf") { kind, bytes, _ in sink.yield((kind, bytes)) }
        agent.start()
        defer { agent.stop() }
        let echo = Task {
            var received: [(MultiplexedPacketKind, [UInt8])] = []
            for await item in stream {
                received.append(item)
                if received.count == 2 { _ = try? agent.send(Array("media-from-streamkit".utf8)) }
            }
            return received
        }
        let result = try await runAioice(agentPort: socket.localAddress.port, credentials: credentials, password: credentials.password)
        sink.finish()
        let received = await echo.value
        #expect(result == "connected media-from-streamkit")
        #expect(received.map(\.0) == [.rtp, .dtls])
        #expect(received.first?.1 == [0x80, 0x60] + Array("rtp-from-aioice".utf8))
        #expect(agent.nominatedAddress?.host == "127.0.0.1")
        let statistics = agent.statistics
        #expect(statistics.checksAnswered >= 2)  // the check, then the nominating one (regular nomination towards lite)
        #expect(statistics.checksRefused == 0)
        #expect(statistics.datagramsDelivered == 2)
    }

    @Test("A wrong password is refused with 401 and aioice's checks fail; datagrams from unchecked addresses are dropped",
          .enabled(if: PythonPeers.isRunnable("aioice")))
    func wrongPassword() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let socket = try UDPSocket(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { socket.close() }
        let delivered = Atomic<Int>(0)
        let agent = ICELiteAgent(socket: socket, local: .random(), remoteUserFragment: "pyuf") { _, _, _ in
            delivered.add(1, ordering: .relaxed)
        }
        agent.start()
        defer { agent.stop() }
        let result = try await runAioice(agentPort: socket.localAddress.port, credentials: agent.local, password: String(repeating: "x", count: 24))
        #expect(result.hasPrefix("failed"))
        #expect(agent.statistics.checksRefused >= 1)
        #expect(agent.statistics.checksAnswered == 0)
        #expect(agent.nominatedAddress == nil)
        // RTP from an address that passed no check.
        let stranger = try UDPSocket(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { stranger.close() }
        try await stranger.send([0x80, 0x60, 0, 1], to: socket.localAddress)
        try await loop.sleep(for: .milliseconds(200))
        #expect(delivered.load(ordering: .relaxed) == 0)
        #expect(agent.statistics.unverifiedDatagrams == 1)
    }
}
