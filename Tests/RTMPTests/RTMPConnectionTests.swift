import Bitstream
import Synchronization
import Testing
@testable import Transport

/// Protocol control between two connections over loopback TCP (Adobe RTMP specification 1.0 §5.4, §7.1.7): the
/// receiver acknowledges once the window the sender set is reached, answers a Ping Request, and answers Set Peer
/// Bandwidth with its Window Acknowledgement Size; a chunk size set on one side is read on the other. Port 0: the
/// kernel gives the listener a free one.
@Suite("RTMP connection: acknowledgements, ping, chunk size", .needsRealTime, .serialized)
struct RTMPConnectionTests {
    @Test("acknowledgement at the window, ping response, window size after set peer bandwidth, chunk size both ways")
    func protocolControl() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let listener = try TCPListener(bindingTo: .loopback(.ipv4, port: 0), on: loop)
        defer { listener.close() }
        async let accepted = listener.accept()
        let clientTCP = try await TCPConnection.connect(to: listener.localAddress, on: loop)
        let serverTCP = try await accepted
        async let serverSide = RTMPConnection.handshake(over: serverTCP, as: .server)
        let client = try await RTMPConnection.handshake(over: clientTCP, as: .client)
        let server = try await serverSide

        let serverGot = Mutex<[RTMPMessage]>([])
        let clientGot = Mutex<[RTMPMessage]>([])
        server.start(onMessage: { message in serverGot.withLock { $0.append(message) } }, onClose: { _ in })
        client.start(onMessage: { message in clientGot.withLock { $0.append(message) } }, onClose: { _ in })

        try await server.setOutgoingChunkSize(1000)
        try await server.send(RTMPControlMessage.windowAcknowledgementSize(10_000).message)
        try await server.send(RTMPControlMessage.setPeerBandwidth(123_456, limitType: 2).message)
        try await server.send(RTMPUserControlEvent.pingRequest(timestamp: 77).message)
        let block = [UInt8](repeating: 7, count: 4000)
        for index in 0..<5 {
            try await server.send(RTMPMessage(type: .video, streamID: 1, timestamp: UInt32(index), payload: ByteView(block)))
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let kinds = serverGot.withLock { $0.map(\.type) }
            if kinds.contains(.acknowledgement), kinds.contains(.userControl), kinds.contains(.windowAcknowledgementSize) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let received = serverGot.withLock { $0 }
        let ping = received.first { $0.type == .userControl }.flatMap { try? RTMPUserControlEvent($0) }
        #expect(ping == .pingResponse(timestamp: 77))
        let window = received.first { $0.type == .windowAcknowledgementSize }.flatMap { try? RTMPControlMessage($0) }
        #expect(window == .windowAcknowledgementSize(123_456))
        // The window (10 000 bytes) was passed after the handshake's 3073 bytes and the chunks that followed.
        #expect(server.peerAcknowledgedByteCount >= 10_000, "acknowledged \(server.peerAcknowledgedByteCount)")
        let video = clientGot.withLock { $0.filter { $0.type == .video } }
        #expect(video.count == 5 && video.allSatisfy { $0.bytes == block })
        client.close()
        server.close()
    }
}
