import Bitstream
import Containers
import Synchronization

/// One RTMP connection over a byte channel, after its handshake: the chunk stream both ways and the protocol
/// control that keeps it going (Adobe RTMP specification 1.0 §5.4 and §6.2).
///
/// One reader task parses what arrives (``RTMPChunkStreamParser``, capped by ``RTMPLimits``), answers what needs an
/// answer without the caller — an Acknowledgement (§5.4.3) each time the peer's window is reached, a Window
/// Acknowledgement Size for a Set Peer Bandwidth (§5.4.5), a Ping Response for a Ping Request (§7.1.7) — and hands
/// every message to the handler, in order. Any task may send; messages go out whole and in the order sent.
/// ``RTMPClient`` and ``RTMPServer`` are built on it.
public final class RTMPConnection: Sendable {
    /// Which end of the handshake this side is.
    public enum Role: Sendable, Hashable {
        /// Sends C0/C1 first (§5.2.2).
        case client
        /// Answers with S0/S1/S2; accepts the digest handshake as well as the plain one.
        case server
    }

    /// Called on the reader task with each message, in the order they complete; the next message is read once it
    /// returns (so a handler that waits slows its peer down, and no one else).
    public typealias MessageHandler = @Sendable (RTMPMessage) async -> Void
    /// Called once on the reader task when the connection ends: `nil` after ``close()``, else why it ended.
    public typealias CloseHandler = @Sendable (RTMPError?) -> Void

    private struct SendState {
        var writer = RTMPChunkStreamWriter()
        var output: [UInt8] = []
        var sentByteCount = 0
    }

    private struct ReceiveState {
        var windowSize: UInt32 = 0
        var acknowledged = 0
        var ourWindowSize: UInt32 = 2_500_000
        var peerAcknowledged: UInt32 = 0
        var handshakeByteCount = 0
        var timestampRegressions = 0
    }

    /// The byte channel (TCP, or TLS for `rtmps://`).
    public let channel: any RTMPByteChannel
    /// The limits enforced on the peer.
    public let limits: RTMPLimits
    /// Whether the peer sent the digest (Flash Player 9) form of the handshake; only known on the server side.
    public let peerUsedDigestHandshake: Bool
    private let sendLock = RTMPSendLock()
    private let sendState = Mutex(SendState())
    private let receiveState = Mutex(ReceiveState())
    private let reader = Mutex<Task<Void, Never>?>(nil)
    private let leftover: [UInt8]
    private let isClosed = Atomic(false)

    /// How long each side of the handshake may take.
    public static let handshakeTimeout: Duration = .seconds(10)

    private init(channel: any RTMPByteChannel, limits: RTMPLimits, digest: Bool, leftover: [UInt8], handshakeByteCount: Int) {
        self.channel = channel
        self.limits = limits
        peerUsedDigestHandshake = digest
        self.leftover = leftover
        receiveState.withLock { $0.handshakeByteCount = handshakeByteCount }
    }

    /// Performs the handshake (§5.2) on a channel and returns the connection, not yet reading.
    /// - Parameters:
    ///   - channel: the byte channel, just connected or accepted.
    ///   - role: client or server.
    ///   - limits: the caps on what the peer sends.
    /// - Returns: the connection; call ``start(onMessage:onClose:)`` to read.
    /// - Throws: ``RTMPError/handshake(_:)`` (a wrong version, the peer closed, ``handshakeTimeout`` passed),
    ///   ``RTMPError/transport(_:)``.
    public static func handshake(over channel: any RTMPByteChannel, as role: Role,
                                 limits: RTMPLimits = RTMPLimits()) async throws(RTMPError) -> RTMPConnection {
        let timedOut = HandshakeWatchdogFlag()
        let watchdog = Task {
            try? await Task.sleep(for: handshakeTimeout)
            guard !Task.isCancelled else { return }
            timedOut.fired.store(true, ordering: .releasing)
            channel.close()
        }
        defer { watchdog.cancel() }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        func fill(to count: Int) async throws(RTMPError) {
            while received.count < count {
                let got: Int
                do { got = try await channel.receive(into: &buffer) } catch {
                    if timedOut.fired.load(ordering: .acquiring) { throw .handshake("no handshake within \(handshakeTimeout)") }
                    throw .handshake("\(error)")
                }
                guard got > 0 else { throw .handshake("the peer closed the connection after \(received.count) handshake bytes") }
                received += buffer[0..<got]
            }
        }
        let seed = UInt64(truncatingIfNeeded: ContinuousClock.now.hashValue) ^ 0x5243_4D50
        switch role {
        case .client:
            let hello = RTMPHandshake.clientHello(seed: seed)
            try await channel.send(hello)
            try await fill(to: 1 + 2 * RTMPHandshake.packetSize)
            guard received[0] == RTMPHandshake.version else { throw .handshake("S0 names version \(received[0]), not 3") }
            let s1 = Array(received[1...RTMPHandshake.packetSize])
            try await channel.send(RTMPHandshake.clientAcknowledgement(of: s1))
            let used = 1 + 2 * RTMPHandshake.packetSize
            return RTMPConnection(channel: channel, limits: limits, digest: false, leftover: Array(received[used...]), handshakeByteCount: used)
        case .server:
            try await fill(to: 1 + RTMPHandshake.packetSize)
            guard received[0] == RTMPHandshake.version else {
                throw .handshake("C0 names version \(received[0]), not 3\(received[0] == 6 ? " (encrypted RTMPE is not supported)" : "")")
            }
            let c1 = Array(received[1...RTMPHandshake.packetSize])
            let (response, digest) = RTMPHandshake.serverResponse(to: c1, seed: seed)
            try await channel.send(response)
            try await fill(to: 1 + 2 * RTMPHandshake.packetSize)
            let used = 1 + 2 * RTMPHandshake.packetSize
            return RTMPConnection(channel: channel, limits: limits, digest: digest, leftover: Array(received[used...]), handshakeByteCount: used)
        }
    }

    /// Starts the reader task.
    /// - Parameters:
    ///   - onMessage: called with each message (protocol control and user control included, after they were acted on).
    ///   - onClose: called once when the connection ends.
    public func start(onMessage: @escaping MessageHandler, onClose: @escaping CloseHandler) {
        let task = Task { [self] in
            let failure = await readLoop(onMessage: onMessage)
            channel.close()
            onClose(isClosed.load(ordering: .acquiring) ? nil : failure)
        }
        reader.withLock { $0 = task }
    }

    private func readLoop(onMessage: MessageHandler) async -> RTMPError {
        var parser = RTMPChunkStreamParser(limits: limits)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        parser.append(leftover)
        while true {
            do throws(RTMPError) {
                while let item = try parser.next() {
                    guard case let .message(message) = item else {
                        receiveState.withLock { $0.timestampRegressions += 1 }
                        continue
                    }
                    try await handleControl(message)
                    await onMessage(message)
                }
                try await acknowledgeIfDue(received: parser.receivedByteCount)
                let count = try await channel.receive(into: &buffer)
                guard count > 0 else { return parser.hasIncompleteMessage ? .closedMidMessage(offset: parser.offset) : .connectionClosed }
                parser.append(buffer[0..<count])
            } catch {
                return error
            }
        }
    }

    /// Acts on the protocol control and user control messages that need it.
    private func handleControl(_ message: RTMPMessage) async throws(RTMPError) {
        switch message.type {
        case .windowAcknowledgementSize, .setPeerBandwidth, .acknowledgement:
            let control = try RTMPControlMessage(message)
            switch control {
            case let .windowAcknowledgementSize(size):
                receiveState.withLock { $0.windowSize = size }
            case let .setPeerBandwidth(size, _):
                let changed = receiveState.withLock { state -> Bool in
                    defer { state.ourWindowSize = size }
                    return state.ourWindowSize != size
                }
                if changed { try await send(RTMPControlMessage.windowAcknowledgementSize(size).message) }
            case let .acknowledgement(sequenceNumber):
                receiveState.withLock { $0.peerAcknowledged = sequenceNumber }
            default: break
            }
        case .userControl:
            if case let .pingRequest(timestamp) = try RTMPUserControlEvent(message) {
                try await send(RTMPUserControlEvent.pingResponse(timestamp: timestamp).message)
            }
        default: break
        }
    }

    private func acknowledgeIfDue(received: Int) async throws(RTMPError) {
        let due = receiveState.withLock { state -> UInt32? in
            let total = received + state.handshakeByteCount
            guard state.windowSize > 0, total - state.acknowledged >= Int(state.windowSize) else { return nil }
            state.acknowledged = total
            return UInt32(truncatingIfNeeded: total)
        }
        if let due { try await send(RTMPControlMessage.acknowledgement(sequenceNumber: due).message) }
    }

    /// Sends one message, waiting while the channel's buffer is full; messages from several tasks go out whole, in
    /// the order their calls took the send lock.
    /// - Parameters:
    ///   - message: the message; its ``RTMPMessage/chunkStreamID`` chooses the chunk stream (0: chosen by type).
    /// - Throws: ``RTMPError/transport(_:)`` or ``RTMPError/channel(_:)``.
    public func send(_ message: RTMPMessage) async throws(RTMPError) {
        await sendLock.acquire()
        defer { sendLock.release() }
        let bytes = sendState.withLock { state -> [UInt8] in
            state.output.removeAll(keepingCapacity: true)
            state.writer.write(message, chunkStreamID: Self.chunkStream(for: message), into: &state.output)
            state.sentByteCount += state.output.count
            return state.output
        }
        try await channel.send(bytes)
    }

    /// Sends one audio or video message whose body is an FLV tag body: the tag's header and its payload go into
    /// the chunks directly (``RTMPChunkStreamWriter/write(_:type:streamID:timestamp:chunkStreamID:into:)``), with
    /// no message body put together first; otherwise as ``send(_:)``.
    /// - Parameters:
    ///   - body: the tag body.
    ///   - type: ``RTMPMessageType/audio`` or ``RTMPMessageType/video`` (it also chooses the chunk stream).
    ///   - streamID: the message stream id.
    ///   - timestamp: milliseconds.
    /// - Throws: ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` when the body's header cannot
    ///   be written (nothing is sent then); ``RTMPError/transport(_:)`` or ``RTMPError/channel(_:)``.
    public func send<Body: FLVTagBody>(_ body: Body, type: RTMPMessageType, streamID: UInt32, timestamp: UInt32) async throws(RTMPError) {
        await sendLock.acquire()
        defer { sendLock.release() }
        let chunkStreamID = Self.chunkStream(for: type)
        let bytes = try sendState.withLock { state throws(RTMPError) -> [UInt8] in
            state.output.removeAll(keepingCapacity: true)
            do {
                try state.writer.write(body, type: type, streamID: streamID, timestamp: timestamp, chunkStreamID: chunkStreamID, into: &state.output)
            } catch {
                throw .malformedMessage(messageType: type.rawValue, chunkStreamID: chunkStreamID, reason: "FLV: \(error)")
            }
            state.sentByteCount += state.output.count
            return state.output
        }
        try await channel.send(bytes)
    }

    /// Sets the chunk size this side sends with: sends Set Chunk Size (§5.4.1), then cuts later messages to it.
    /// - Parameter size: 1…16 777 215 (clamped).
    /// - Throws: ``RTMPError/transport(_:)``.
    public func setOutgoingChunkSize(_ size: Int) async throws(RTMPError) {
        let clamped = min(max(size, 1), 0xFF_FFFF)
        await sendLock.acquire()
        defer { sendLock.release() }
        let bytes = sendState.withLock { state -> [UInt8] in
            state.output.removeAll(keepingCapacity: true)
            state.writer.write(RTMPControlMessage.setChunkSize(UInt32(clamped)).message, chunkStreamID: 2, into: &state.output)
            state.writer.chunkSize = clamped
            state.sentByteCount += state.output.count
            return state.output
        }
        try await channel.send(bytes)
    }

    /// The chunk stream for a message: its own when set, else 2 for control, 3 for commands, 4 for audio, 5 for
    /// data, 6 for video.
    static func chunkStream(for message: RTMPMessage) -> UInt32 {
        message.chunkStreamID >= 2 ? message.chunkStreamID : chunkStream(for: message.type)
    }

    /// The chunk stream a message of a type goes on when it names none (see ``chunkStream(for:)-(RTMPMessage)``).
    static func chunkStream(for type: RTMPMessageType) -> UInt32 {
        switch type {
        case .audio: return 4
        case .video: return 6
        case .dataAMF0, .dataAMF3: return 5
        case .commandAMF0, .commandAMF3: return 3
        default: return type.isProtocolControl ? 2 : 3
        }
    }

    /// The chunk size this side sends with.
    public var outgoingChunkSize: Int { sendState.withLock { $0.writer.chunkSize } }

    /// Bytes sent so far (chunk headers included, handshake excluded).
    public var sentByteCount: Int { sendState.withLock { $0.sentByteCount } }

    /// How many messages the peer started with a timestamp earlier than the one before on their chunk stream
    /// (``RTMPChunkStreamItem/timestampWentBack(chunkStreamID:previous:timestamp:)``): counted, the messages still
    /// handed on.
    public var timestampRegressionCount: Int { receiveState.withLock { $0.timestampRegressions } }

    /// The last sequence number the peer acknowledged (§5.4.3).
    public var peerAcknowledgedByteCount: UInt32 { receiveState.withLock { $0.peerAcknowledged } }

    /// Bytes accepted by the channel and not yet sent (the send queue a live publisher watches).
    public var pendingByteCount: Int { channel.pendingByteCount }

    /// Suspends until at most `limit` bytes are pending in the channel, woken by the event loop as the socket
    /// drains (``RTMPByteChannel/waitUntilPending(atMost:)``).
    /// - Parameter limit: the most bytes that may still be pending when this returns.
    /// - Throws: ``RTMPError/transport(_:)`` when the channel fails or closes meanwhile, or the task is cancelled.
    public func waitUntilPending(atMost limit: Int) async throws(RTMPError) {
        try await channel.waitUntilPending(atMost: limit)
    }

    /// Waits until everything sent so far has left the channel's buffer, or `timeout` has passed — before a close,
    /// so that the last messages (a refusal's status, `deleteStream`) are not thrown away with the buffer.
    /// - Parameter timeout: the longest wait.
    func drain(within timeout: Duration) async {
        guard channel.pendingByteCount > 0 else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await self.channel.waitUntilPending(atMost: 0) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Closes the connection; the close handler is called with `nil`. Calling it again does nothing.
    public func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        channel.close()
    }
}

/// Set when the handshake watchdog closed the channel, so the failure says it timed out.
private final class HandshakeWatchdogFlag: Sendable {
    let fired = Atomic(false)
}
