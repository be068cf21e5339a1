import Bitstream
import Containers
import Synchronization

/// An RTMP client (Adobe RTMP specification 1.0 §7.2) that publishes to a server — nginx-rtmp, SRS, MediaMTX, a CDN
/// — or plays from one: the handshake, `connect` (with Enhanced RTMP's `fourCcList` when asked), `createStream`,
/// `releaseStream`/`FCPublish`/`publish` or `play`, then audio, video and data messages; `FCUnpublish` and
/// `deleteStream` on ``close()``.
///
/// ```swift
/// let loop = try EventLoop()
/// let client = try await RTMPClient.connect(to: "rtmp://127.0.0.1:1935/live/key", on: loop)
/// try await client.publish()
/// try await client.sendMetadata(["width": 1280, "height": 720, "videocodecid": 7])
/// try await client.sendVideo(ByteView(avcSequenceHeaderTagBody), timestamp: 0)
/// try await client.sendVideo(ByteView(frameTagBody), timestamp: 33)
/// await client.close()
/// ```
///
/// Playing: `try await client.play()`, then read ``messages`` (audio, video, `onMetaData`, `onStatus`…).
/// The byte transport is pluggable: ``connect(to:over:options:)`` takes any ``RTMPByteChannel`` (TLS for `rtmps://`).
public final class RTMPClient: Sendable {
    private struct State {
        var nextTransaction: Double = 1
        var calls: [Double: RTMPResponseSlot<RTMPCommand>] = [:]
        var statusWaiters: [UInt32: (slot: RTMPResponseSlot<RTMPStatus>, accepts: @Sendable (RTMPStatus) -> Bool)] = [:]
        var failure: RTMPError?
        var published: (streamID: UInt32, name: String)?
        var played: [UInt32] = []
        var connectResponse: RTMPCommand?
        var droppedMessages = 0
    }

    /// The server URL (application and stream name).
    public let url: RTMPURL
    /// The options.
    public let options: RTMPClientOptions
    /// The connection under the client.
    public let connection: RTMPConnection
    /// Every message the server sends that no call of the client consumed: audio, video and data of played streams,
    /// `onStatus` and other commands, user control events; ends when the connection does.
    public let messages: AsyncStream<RTMPMessage>
    private let sink: AsyncStream<RTMPMessage>.Continuation
    private let state = Mutex(State())

    private init(url: RTMPURL, options: RTMPClientOptions, connection: RTMPConnection) {
        self.url = url
        self.options = options
        self.connection = connection
        (messages, sink) = AsyncStream.makeStream(of: RTMPMessage.self, bufferingPolicy: .bufferingOldest(max(1, options.messageBufferCapacity)))
    }

    /// Connects over TCP (the URL's host must be numeric or `localhost`) — and TLS for `rtmps://`, verified per
    /// ``RTMPClientOptions/tlsTrust`` — then does the handshake and `connect`.
    /// - Parameters:
    ///   - url: `rtmp://host[:port]/app/stream`.
    ///   - options: chunk size, `fourCcList`, limits, timeouts.
    ///   - loop: the event loop that runs the socket.
    /// - Returns: the connected client.
    /// - Throws: ``RTMPError`` (``RTMPError/refused(command:code:description:)`` when `connect` is refused;
    ///   ``RTMPError/transport(_:)`` with ``TransportError/tls(_:)`` when TLS fails, ``TLSError/unavailable`` in a
    ///   build without the `OpenSSL` trait).
    public static func connect(to url: String, options: RTMPClientOptions = RTMPClientOptions(),
                               on loop: EventLoop) async throws(RTMPError) -> RTMPClient {
        let parsed = try RTMPURL(parsing: url)
        let address = try parsed.socketAddress()
        let tcp: TCPConnection
        do {
            tcp = try await TCPConnection.connect(to: address, on: loop, sendBufferCapacity: options.sendBufferCapacity)
        } catch {
            throw .transport(error)
        }
        guard parsed.isSecure else { return try await connect(to: parsed, over: tcp, options: options) }
        let tls: TLSConnection
        do {
            tls = try await TLSConnection.connect(over: tcp, configuration: TLSConfiguration(serverName: parsed.host, trust: options.tlsTrust))
        } catch {
            throw .transport(.tls(error))
        }
        return try await connect(to: parsed, over: tls, options: options)
    }

    /// Does the handshake and `connect` over a byte channel already connected to the server (TCP, TLS…).
    /// - Parameters:
    ///   - url: the server URL.
    ///   - channel: the connected channel; the client closes it.
    ///   - options: chunk size, `fourCcList`, limits, timeouts.
    /// - Returns: the connected client.
    /// - Throws: ``RTMPError``.
    public static func connect(to url: RTMPURL, over channel: any RTMPByteChannel,
                               options: RTMPClientOptions = RTMPClientOptions()) async throws(RTMPError) -> RTMPClient {
        let connection: RTMPConnection
        do {
            connection = try await RTMPConnection.handshake(over: channel, as: .client, limits: options.limits)
        } catch {
            channel.close()
            throw error
        }
        let client = RTMPClient(url: url, options: options, connection: connection)
        connection.start(onMessage: { [weak client] message in client?.receive(message) },
                         onClose: { [weak client] error in client?.finish(error ?? .connectionClosed) })
        do {
            try await client.sendConnect()
        } catch {
            connection.close()
            throw error
        }
        return client
    }

    /// `connect` (§7.2.1.1) with the application, `tcUrl` and, for Enhanced RTMP, `fourCcList`.
    private func sendConnect() async throws(RTMPError) {
        if options.chunkSize != 128 { try await connection.setOutgoingChunkSize(options.chunkSize) }
        var object: AMF0Object = [
            "app": .string(url.app), "type": "nonprivate", "flashVer": .string(options.flashVersion),
            "tcUrl": .string(url.tcURL),
        ]
        if !options.fourCCs.isEmpty {
            object.properties.append(AMF0Property(key: "fourCcList", value: .strictArray(options.fourCCs.map { .string($0) })))
        }
        let answer = try await call(RTMPCommand(name: "connect", transactionID: 0, commandObject: .object(object)))
        state.withLock { $0.connectResponse = answer }
    }

    /// The `_result` of `connect`: the server's properties (`fmsVer`, `capabilities`, for Enhanced RTMP its
    /// `fourCcList`) in its command object, and the status.
    public var connectResponse: RTMPCommand? { state.withLock { $0.connectResponse } }

    /// The Enhanced RTMP codecs the server named in its answer to `connect` (empty for a legacy server).
    public var serverFourCCs: [String] {
        guard let answer = connectResponse else { return [] }
        let list = answer.commandObject["fourCcList"] ?? answer.information?["fourCcList"]
        return list?.array?.compactMap(\.string) ?? []
    }

    /// Sends a command and waits for its `_result` (§7.2): the transaction id is chosen here.
    /// - Parameters:
    ///   - command: the command (its transaction id is replaced).
    ///   - streamID: the message stream (0 for NetConnection commands).
    /// - Returns: the `_result`.
    /// - Throws: ``RTMPError/refused(command:code:description:)`` for `_error`, ``RTMPError/timedOut(command:)``.
    @discardableResult
    public func call(_ command: RTMPCommand, streamID: UInt32 = 0) async throws(RTMPError) -> RTMPCommand {
        let slot = RTMPResponseSlot<RTMPCommand>()
        var command = command
        let failure = state.withLock { state -> RTMPError? in
            if let failure = state.failure { return failure }
            command.transactionID = state.nextTransaction
            state.nextTransaction += 1
            state.calls[command.transactionID] = slot
            return nil
        }
        if let failure { throw failure }
        do {
            try await connection.send(try command.message(streamID: streamID))
        } catch {
            _ = state.withLock { $0.calls.removeValue(forKey: command.transactionID) }
            throw error
        }
        let answer = try await slot.wait(timeout: options.commandTimeout, for: command.name)
        if answer.name == "_error" {
            let status = answer.status
            throw .refused(command: command.name, code: status?.code ?? "_error", description: status?.description ?? "")
        }
        return answer
    }

    /// Sends a command that gets no answer (transaction id 0, or the next id when the server may answer anyway).
    /// - Parameters:
    ///   - command: the command.
    ///   - streamID: the message stream.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func send(_ command: RTMPCommand, streamID: UInt32 = 0) async throws(RTMPError) {
        try await connection.send(try command.message(streamID: streamID))
    }

    /// `createStream` (§7.2.1.3).
    /// - Returns: the message stream id the server gave.
    /// - Throws: ``RTMPError``.
    public func createStream() async throws(RTMPError) -> UInt32 {
        let answer = try await call(RTMPCommand(name: "createStream", transactionID: 0))
        guard let number = answer.arguments.lazy.compactMap(\.number).first, number >= 0, number < 4_294_967_296 else {
            throw .protocolViolation("createStream's _result carries no stream id")
        }
        return UInt32(number)
    }

    /// Publishes: `releaseStream`, `FCPublish`, `createStream`, `publish` (§7.2.2.6), and waits for
    /// `NetStream.Publish.Start`.
    /// - Parameters:
    ///   - name: the stream name (the key); the URL's by default.
    ///   - type: `live` (default), `record` or `append`.
    /// - Returns: the message stream id the media goes on.
    /// - Throws: ``RTMPError/refused(command:code:description:)`` (for example `NetStream.Publish.BadName` for a
    ///   wrong or busy key), ``RTMPError/timedOut(command:)``.
    @discardableResult
    public func publish(_ name: String? = nil, type: String = "live") async throws(RTMPError) -> UInt32 {
        let name = name ?? url.streamName
        try await send(RTMPCommand(name: "releaseStream", transactionID: nextTransactionID(), arguments: [.string(name)]))
        try await send(RTMPCommand(name: "FCPublish", transactionID: nextTransactionID(), arguments: [.string(name)]))
        let streamID = try await createStream()
        let status = try await awaitStatus(on: streamID, command: "publish", accepts: { $0.code.hasPrefix("NetStream.Publish.") || $0.isError }) { () throws(RTMPError) in
            try await send(RTMPCommand(name: "publish", transactionID: 0, arguments: [.string(name), .string(type)]), streamID: streamID)
        }
        guard !status.isError, status.code == "NetStream.Publish.Start" else {
            throw .refused(command: "publish", code: status.code, description: status.description)
        }
        state.withLock { $0.published = (streamID, name) }
        return streamID
    }

    /// Plays: `createStream`, `play` (§7.2.2.1), Set Buffer Length, and waits for `NetStream.Play.Start`; the media
    /// then arrives in ``messages``.
    /// - Parameters:
    ///   - name: the stream name; the URL's by default.
    ///   - bufferLength: the buffer announced in Set Buffer Length (§7.1.7), in milliseconds.
    /// - Returns: the message stream id the media comes on.
    /// - Throws: ``RTMPError/refused(command:code:description:)`` (`NetStream.Play.StreamNotFound`…).
    @discardableResult
    public func play(_ name: String? = nil, bufferLength: UInt32 = 3000) async throws(RTMPError) -> UInt32 {
        let name = name ?? url.streamName
        let streamID = try await createStream()
        let status = try await awaitStatus(on: streamID, command: "play", accepts: { $0.code == "NetStream.Play.Start" || $0.isError || $0.code.hasSuffix("StreamNotFound") }) { () throws(RTMPError) in
            try await send(RTMPCommand(name: "play", transactionID: 0, arguments: [.string(name), .number(-2000)]), streamID: streamID)
            try await connection.send(RTMPUserControlEvent.setBufferLength(streamID: streamID, milliseconds: bufferLength).message)
        }
        guard !status.isError, status.code == "NetStream.Play.Start" else {
            throw .refused(command: "play", code: status.code, description: status.description)
        }
        state.withLock { $0.played.append(streamID) }
        return streamID
    }

    private func nextTransactionID() -> Double {
        state.withLock { state in
            defer { state.nextTransaction += 1 }
            return state.nextTransaction
        }
    }

    private func awaitStatus(on streamID: UInt32, command: String, accepts: @escaping @Sendable (RTMPStatus) -> Bool,
                             after sending: () async throws(RTMPError) -> Void) async throws(RTMPError) -> RTMPStatus {
        let slot = RTMPResponseSlot<RTMPStatus>()
        let failure = state.withLock { state -> RTMPError? in
            if let failure = state.failure { return failure }
            state.statusWaiters[streamID] = (slot, accepts)
            return nil
        }
        if let failure { throw failure }
        defer { _ = state.withLock { $0.statusWaiters.removeValue(forKey: streamID) } }
        try await sending()
        return try await slot.wait(timeout: options.commandTimeout, for: command)
    }

    // MARK: media

    /// The message stream being published, once ``publish(_:type:)`` succeeded.
    public var publishedStreamID: UInt32? { state.withLock { $0.published?.streamID } }

    /// Sends a video message (§7.1.5): an FLV video tag body (legacy AVC, or Enhanced RTMP).
    /// - Parameters:
    ///   - body: the tag body (a view; not copied until chunked).
    ///   - timestamp: the dts in milliseconds.
    /// - Throws: ``RTMPError/protocolViolation(_:)`` before ``publish(_:type:)``; ``RTMPError/transport(_:)``.
    public func sendVideo(_ body: ByteView, timestamp: UInt32) async throws(RTMPError) {
        try await connection.send(RTMPMessage(type: .video, streamID: try publishingStream(), timestamp: timestamp, payload: body))
    }

    /// Sends an audio message (§7.1.4): an FLV audio tag body.
    /// - Parameters:
    ///   - body: the tag body.
    ///   - timestamp: milliseconds.
    /// - Throws: ``RTMPError/protocolViolation(_:)`` before ``publish(_:type:)``; ``RTMPError/transport(_:)``.
    public func sendAudio(_ body: ByteView, timestamp: UInt32) async throws(RTMPError) {
        try await connection.send(RTMPMessage(type: .audio, streamID: try publishingStream(), timestamp: timestamp, payload: body))
    }

    /// Sends a video message (§7.1.5) from an FLV video tag body, its header and payload written straight into the
    /// chunks (no message body is put together first: a coded picture costs no copy besides the chunks').
    /// - Parameters:
    ///   - body: the tag body, for example `FLVVideoTagBody(codedFrame: frame)`.
    ///   - timestamp: milliseconds.
    /// - Throws: ``RTMPError/protocolViolation(_:)`` before ``publish(_:type:)``;
    ///   ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` for a header FLV cannot hold;
    ///   ``RTMPError/transport(_:)``.
    public func sendVideo(_ body: FLVVideoTagBody, timestamp: UInt32) async throws(RTMPError) {
        try await connection.send(body, type: .video, streamID: try publishingStream(), timestamp: timestamp)
    }

    /// Sends an audio message (§7.1.4) from an FLV audio tag body, its header and payload written straight into the
    /// chunks.
    /// - Parameters:
    ///   - body: the tag body, for example `FLVAudioTagBody(frame: frame)`.
    ///   - timestamp: milliseconds.
    /// - Throws: ``RTMPError/protocolViolation(_:)`` before ``publish(_:type:)``;
    ///   ``RTMPError/malformedMessage(messageType:chunkStreamID:reason:)`` for a header FLV cannot hold;
    ///   ``RTMPError/transport(_:)``.
    public func sendAudio(_ body: FLVAudioTagBody, timestamp: UInt32) async throws(RTMPError) {
        try await connection.send(body, type: .audio, streamID: try publishingStream(), timestamp: timestamp)
    }

    /// Sends a data message (§7.1.2) of AMF0 values on the published stream.
    /// - Parameters:
    ///   - values: the values, for example `["@setDataFrame", "onMetaData", .ecmaArray(…)]`.
    ///   - timestamp: milliseconds.
    /// - Throws: ``RTMPError``.
    public func sendData(_ values: [AMF0Value], timestamp: UInt32 = 0) async throws(RTMPError) {
        let bytes: [UInt8]
        do { bytes = try AMF0Value.encode(values) } catch {
            throw .malformedMessage(messageType: RTMPMessageType.dataAMF0.rawValue, chunkStreamID: 5, reason: "AMF0: \(error)")
        }
        try await connection.send(RTMPMessage(type: .dataAMF0, streamID: try publishingStream(), timestamp: timestamp, payload: ByteView(bytes)))
    }

    /// Sends `@setDataFrame` `onMetaData` with the stream's properties (width, height, codec ids, rates…).
    /// - Parameter metadata: the properties, sent as an ECMA array.
    /// - Throws: ``RTMPError``.
    public func sendMetadata(_ metadata: AMF0Object) async throws(RTMPError) {
        try await sendData(["@setDataFrame", "onMetaData", .ecmaArray(metadata)])
    }

    /// Sends any message (its stream id as given).
    /// - Parameter message: the message.
    /// - Throws: ``RTMPError/transport(_:)``.
    public func send(_ message: RTMPMessage) async throws(RTMPError) {
        try await connection.send(message)
    }

    private func publishingStream() throws(RTMPError) -> UInt32 {
        guard let id = state.withLock({ $0.published?.streamID }) else { throw .protocolViolation("nothing is published yet") }
        return id
    }

    /// Bytes waiting in the send buffer: what a live publisher watches to lower its rate.
    public var pendingByteCount: Int { connection.pendingByteCount }

    /// Suspends until at most `limit` bytes wait in the send buffer — woken as the socket drains, without polling.
    /// - Parameter limit: the most bytes that may still be pending when this returns.
    /// - Throws: ``RTMPError/transport(_:)`` when the connection fails or closes meanwhile, or the task is cancelled.
    public func waitUntilPending(atMost limit: Int) async throws(RTMPError) {
        try await connection.waitUntilPending(atMost: limit)
    }

    /// Messages dropped because ``messages`` was full.
    public var droppedMessageCount: Int { state.withLock { $0.droppedMessages } }

    /// Why the connection ended, once it has.
    public var failure: RTMPError? { state.withLock { $0.failure } }

    /// Ends the session: `FCUnpublish` and `deleteStream` for a published stream, `deleteStream` for played ones,
    /// waits (up to a second) for them to leave, and closes the connection; ``messages`` ends.
    public func close() async {
        let (published, played, failed) = state.withLock { state -> ((UInt32, String)?, [UInt32], Bool) in
            return (state.published.map { ($0.streamID, $0.name) }, state.played, state.failure != nil)
        }
        if !failed {
            if let (streamID, name) = published {
                try? await send(RTMPCommand(name: "FCUnpublish", transactionID: nextTransactionID(), arguments: [.string(name)]))
                try? await send(RTMPCommand(name: "deleteStream", transactionID: nextTransactionID(), arguments: [.number(Double(streamID))]))
            }
            for streamID in played {
                try? await send(RTMPCommand(name: "deleteStream", transactionID: nextTransactionID(), arguments: [.number(Double(streamID))]))
            }
            await connection.drain(within: .seconds(1))
        }
        connection.close()
        finish(.connectionClosed)
    }

    // MARK: receiving (the connection's reader task)

    private func receive(_ message: RTMPMessage) {
        switch message.type {
        case .commandAMF0, .commandAMF3:
            guard let command = try? RTMPCommand(message, limits: options.limits) else {
                connection.close()
                finish(.malformedMessage(messageType: message.type.rawValue, chunkStreamID: message.chunkStreamID, reason: "an undecodable command"))
                return
            }
            if command.name == "_result" || command.name == "_error" {
                if let slot = state.withLock({ $0.calls.removeValue(forKey: command.transactionID) }) {
                    slot.fulfill(.success(command))
                    return
                }
            } else if command.name == "onStatus", let status = command.status {
                let waiter = state.withLock { state -> RTMPResponseSlot<RTMPStatus>? in
                    guard let waiter = state.statusWaiters[message.streamID], waiter.accepts(status) else { return nil }
                    state.statusWaiters.removeValue(forKey: message.streamID)
                    return waiter.slot
                }
                waiter?.fulfill(.success(status))
            }
            deliver(message)
        case .setChunkSize, .abort, .acknowledgement, .windowAcknowledgementSize, .setPeerBandwidth:
            return
        default:
            deliver(message)
        }
    }

    private func deliver(_ message: RTMPMessage) {
        if case .dropped = sink.yield(message) { state.withLock { $0.droppedMessages += 1 } }
    }

    private func finish(_ error: RTMPError) {
        let (calls, waiters) = state.withLock { state -> ([RTMPResponseSlot<RTMPCommand>], [RTMPResponseSlot<RTMPStatus>]) in
            if state.failure == nil { state.failure = error }
            defer {
                state.calls = [:]
                state.statusWaiters = [:]
            }
            return (Array(state.calls.values), state.statusWaiters.values.map(\.slot))
        }
        for call in calls { call.fulfill(.failure(error)) }
        for waiter in waiters { waiter.fulfill(.failure(error)) }
        sink.finish()
    }
}
